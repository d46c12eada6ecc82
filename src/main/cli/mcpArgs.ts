// `loci mcp`'s own arguments, read without the CLI (bin/loci.js starts out/main/mcp.js
// for `loci mcp …`, so that an editor's server answers its first request without loading
// commander, the commands or the engine). Anything this does not know exactly — help, a
// typo, a bad number — returns null, and the full CLI reads the command line instead, with
// its messages.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../api/discovery';

export interface McpArgs {
  dataDir: string;
  store?: string;
  initTimeoutMs: number;
}

/** The CLI's default for `--init-timeout`, in seconds. */
export const DEFAULT_INIT_TIMEOUT_S = 60;

/** `argv` without node and the script: `['mcp', '--store', 'work']`. */
export function parseMcpArgs(
  argv: string[],
  env: Record<string, string | undefined>,
): McpArgs | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        store: { type: 'string', short: 's' },
        home: { type: 'string' },
        json: { type: 'boolean' },
        'init-timeout': { type: 'string' },
      },
    });
  } catch {
    return null;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'mcp') return null;
  let seconds = DEFAULT_INIT_TIMEOUT_S;
  if (values['init-timeout'] !== undefined) {
    const raw = values['init-timeout'];
    if (!/^\d{1,9}$/.test(raw)) return null;
    seconds = Number(raw);
  }
  const home = values.home ?? env.LOCI_HOME;
  return {
    dataDir: home
      ? resolve(home)
      : resolveDataDir({ env, platform: process.platform, home: homedir() }),
    ...(values.store ? { store: values.store } : {}),
    initTimeoutMs: seconds * 1000,
  };
}
