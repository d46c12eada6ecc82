// Two projects: the engine, transports and cross-layer tests in Node (real SQLite in
// forked processes), and the observatory's component and store tests in happy-dom.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['src/renderer/**', '**/node_modules/**'],
          environment: 'node',
          // Every test opens real SQLite files in its own temporary directory; the pool of
          // forks keeps native handles of one file from leaking into another.
          pool: 'forks',
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['src/renderer/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['src/renderer/src/testing/setup.ts'],
          testTimeout: 10_000,
          hookTimeout: 10_000,
        },
      },
    ],
  },
});
