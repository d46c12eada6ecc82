// The desktop app itself (Electron) with playwright-core's `_electron`: runs where
// Electron's runtime is installed, and is skipped, saying why, where it is not (our
// machines cannot download it). It starts the built app on its own data directory.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication } from 'playwright-core';
import type { E2EContext } from './harness/types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function electronBinary(): { path: string } | { reason: string } {
  let named: unknown;
  try {
    named = createRequire(join(ROOT, 'package.json'))('electron');
  } catch (err) {
    return {
      reason: `the electron package has no runtime (${(err as Error).message.split('\n')[0]})`,
    };
  }
  if (typeof named !== 'string' || !existsSync(named))
    return { reason: `Electron's binary is not installed (${String(named)})` };
  if (!existsSync(join(ROOT, 'native/electron/better_sqlite3.node')))
    return { reason: 'better-sqlite3 is not built for Electron: run `npm run native:electron`' };
  return { path: named };
}

async function launch(t: E2EContext): Promise<{ app: ElectronApplication; home: string }> {
  const binary = electronBinary();
  if ('reason' in binary) t.skip(`the desktop app cannot run here: ${binary.reason}`);
  const home = mkdtempSync(join(tmpdir(), 'loci-desktop-'));
  const app = await _electron.launch({
    executablePath: binary.path,
    // Chromium's OS sandbox refuses to start as root (CI containers).
    args: [ROOT, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    env: { ...process.env, LOCI_HOME: home, LOCI_NO_BROWSER: '1' } as Record<string, string>,
    timeout: 30_000,
  });
  return { app, home };
}

export async function desktopWindowIsLockedDown(t: E2EContext): Promise<void> {
  const { app, home } = await launch(t);
  try {
    const page = await app.firstWindow();
    await page.locator('.shell').waitFor({ timeout: 20_000 });
    if (!page.url().startsWith('app://loci/')) throw new Error(`window at ${page.url()}`);
    const surface = await page.evaluate(() => ({
      bridge: Object.keys((window as unknown as { loci: object }).loci).sort(),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    if (
      JSON.stringify(surface) !==
      JSON.stringify({ bridge: ['call', 'on'], require: 'undefined', process: 'undefined' })
    )
      throw new Error(`the page sees more than window.loci: ${JSON.stringify(surface)}`);
    // The engine answers over IPC.
    const saved = await page.evaluate(() =>
      (
        window as unknown as { loci: { call: (m: string, a: unknown) => Promise<{ id: string }> } }
      ).loci.call('memory.remember', { content: 'Remembered through the desktop bridge.' }),
    );
    if (!saved.id) throw new Error('memory.remember over IPC gave no id');
    // Navigation away is refused: the window stays on the app.
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    if (!page.url().startsWith('app://loci/')) throw new Error(`navigated to ${page.url()}`);
  } finally {
    await app.close().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}
