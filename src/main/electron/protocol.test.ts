import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_CSP, handleAppProtocol, registerAppScheme, serveAppRequest } from './protocol';

let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loci-protocol-'));
  root = join(dir, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Loci</title>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(root, 'assets', 'kernel.wasm'), Buffer.from([0, 97, 115, 109]));
  writeFileSync(join(root, 'assets', 'blob.bin'), 'x');
  writeFileSync(join(dir, 'secret.txt'), 'do not serve');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'assets', 'link.txt'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => serveAppRequest(root, { url, method });

describe('app:// protocol', () => {
  it('serves the observatory with its MIME types and the CSP on every answer', async () => {
    const cases: [string, string][] = [
      ['app://loci/index.html', 'text/html; charset=utf-8'],
      ['app://loci/', 'text/html; charset=utf-8'],
      ['app://loci/assets/app.js', 'text/javascript; charset=utf-8'],
      ['app://loci/assets/app.css', 'text/css; charset=utf-8'],
      ['app://loci/assets/logo.svg', 'image/svg+xml'],
      ['app://loci/assets/kernel.wasm', 'application/wasm'],
      ['app://loci/assets/blob.bin', 'application/octet-stream'],
    ];
    for (const [url, type] of cases) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe(type);
      expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(await (await get('app://loci/assets/app.js')).text()).toBe('console.log(1)');
  });

  it('has a strict CSP: own scripts only, no network, no frames, no plugins', () => {
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).not.toMatch(/script-src[^;]*unsafe/);
    expect(APP_CSP).toContain("connect-src 'none'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).toContain("base-uri 'none'");
  });

  it('refuses paths that lead outside the observatory, encoded or through a link', async () => {
    for (const url of [
      'app://loci/..%2fsecret.txt',
      'app://loci/assets/..%2f..%2fsecret.txt',
      'app://loci/%2e%2e%2fsecret.txt',
      'app://loci/assets/link.txt',
    ]) {
      const res = await get(url);
      expect(res.status, url).toBe(403);
      expect(await res.text()).not.toContain('do not serve');
    }
    // Dot segments the URL parser removes stay inside.
    expect((await get('app://loci/../secret.txt')).status).toBe(404);
    expect((await get('app://loci/a%5c..%5c..%5csecret.txt')).status).toBe(400);
    expect((await get('app://loci/x%00.js')).status).toBe(400);
    expect((await get('app://loci/%E0%A4%A')).status).toBe(400);
  });

  it('falls back to the app shell for routes, 404 for missing assets, only GET and its own host', async () => {
    const route = await get('app://loci/memories/01ABC');
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>Loci</title>');
    expect((await get('app://loci/assets/missing.js')).status).toBe(404);
    expect((await get('app://loci/assets')).status).toBe(404);
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://loci/index.html', 'POST')).status).toBe(405);
    const head = await get('app://loci/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('says so when the observatory is not built', async () => {
    const res = await serveAppRequest(join(dir, 'nowhere'), { url: 'app://loci/', method: 'GET' });
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/npm run build/);
  });

  it('registers app:// as a standard secure scheme and serves it through protocol.handle', async () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    expect(registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    const handle = vi.fn();
    handleAppProtocol({ handle }, root);
    const [scheme, handler] = handle.mock.calls[0] as [
      string,
      (r: { url: string; method: string }) => Promise<Response>,
    ];
    expect(scheme).toBe('app');
    expect((await handler({ url: 'app://loci/index.html', method: 'GET' })).status).toBe(200);
  });
});
