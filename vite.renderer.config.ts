// The observatory's Vite config: built by electron-vite (electron.vite.config.ts) into
// out/renderer, which the daemon serves at `/`; also usable alone as a dev server with
// hot reload (`npm run dev:web`) that proxies /api to a running `loci serve`.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, 'src/renderer');

export default defineConfig({
  root,
  // Relative asset URLs: the daemon serves the app at `/`, the Electron window will load
  // the same files from its own protocol.
  base: './',
  plugins: [react()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    // Any current browser pointed at `loci serve`, not only Electron's Chromium.
    target: 'es2022',
    minify: true,
    rollupOptions: { input: resolve(root, 'index.html') },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': {
        target: process.env.LOCI_DAEMON_URL ?? 'http://127.0.0.1:4747',
        // The daemon accepts only its own Host and Origin (DNS-rebinding defence): the
        // proxy presents itself as a same-host client without an Origin.
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (req) => req.removeHeader('origin'));
        },
      },
    },
  },
});
