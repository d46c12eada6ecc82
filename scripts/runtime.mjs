// Helpers of `npm start` (scripts/start.mjs), apart so they can be tested: is Electron's
// runtime installed (the package *and* its binary), which line of `loci serve` carries
// the observatory's address, and how to open an address in the default browser.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The Electron binary, or why there is none. The `electron` package's main module is the
 * binary's path, and throws when its download never happened (no path.txt).
 */
export function detectElectron(root, { require = createRequire(join(root, 'package.json')) } = {}) {
  try {
    require.resolve('electron/package.json');
  } catch {
    return { binary: null, reason: 'the `electron` package is not installed' };
  }
  let binary;
  try {
    binary = require('electron');
  } catch {
    return {
      binary: null,
      reason:
        'the `electron` package is installed without its binary; its download was skipped or failed',
    };
  }
  if (typeof binary !== 'string' || binary === '')
    return { binary: null, reason: 'the `electron` package did not name its binary' };
  if (!existsSync(binary))
    return { binary: null, reason: `Electron's binary is missing (${binary})` };
  return { binary, reason: null };
}

/** `  Observatory:   http://127.0.0.1:4747/#token=…` → the address. */
export function observatoryUrlFrom(line) {
  const match =
    /^\s*Observatory:\s+(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost):\d+\/\S*)\s*$/.exec(line);
  return match ? match[1] : null;
}

/** How to open an address on this platform, or null where there is no way. */
export function browserCommand(url, platform = process.platform, env = process.env) {
  if (env.LOCI_NO_BROWSER === '1' || env.CI) return null;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32')
    return { command: 'cmd', args: ['/c', 'start', '', url.replace(/&/g, '^&')] };
  // Linux and the BSDs: only with a desktop session to open it in.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return { command: 'xdg-open', args: [url] };
}
