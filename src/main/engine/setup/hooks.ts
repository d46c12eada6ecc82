// Claude Code's hooks for Loci, in ~/.claude/settings.json: SessionStart (the bootstrap
// as context), UserPromptSubmit (the memories that bear on a prompt), PreCompact and
// SessionEnd (the session's transcript imported and distilled), each running
// `loci hook <event>`. Installed beside whatever hooks are there (another tool's stay as
// they are); Loci's own are recognised by their command and replaced, never doubled. The
// file is edited in place (formatting kept) after a backup, like `loci setup` edits MCP
// configurations.
import { chmodSync, mkdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SetupHooksResult } from '../../../shared/api';
import type { ClientDefinition } from './clients';
import { backUp, BOM, formattingOf, readConfig, setEntry, type SetupEnvironment } from './setup';

/** The hook events Loci answers, with Claude Code's names and time limits (seconds). */
export const CLAUDE_HOOKS = [
  { event: 'SessionStart', arg: 'session-start', timeout: 5 },
  { event: 'UserPromptSubmit', arg: 'prompt-submit', timeout: 3 },
  { event: 'PreCompact', arg: 'pre-compact', timeout: 60 },
  { event: 'SessionEnd', arg: 'session-end', timeout: 60 },
] as const;

const SETTINGS: Pick<ClientDefinition, 'jsonc' | 'container'> = {
  jsonc: false,
  container: ['hooks'],
};

/** Claude Code's user settings file. */
export const claudeSettingsFile = (env: SetupEnvironment) =>
  join(env.ctx.home, '.claude', 'settings.json');

const quote = (s: string) => (/[\s"]/.test(s) ? JSON.stringify(s) : s);

/** The command a hook runs: this installation's `loci hook <event>`. */
function hookCommand(env: SetupEnvironment, arg: string): string {
  const prefix = env.endpoint.args.slice(0, -1); // [bin script] without `mcp`
  return [env.endpoint.command, ...prefix, 'hook', arg].map(quote).join(' ');
}

/** A hook entry that is Loci's: it runs `loci hook …` (any installation). */
const isLoci = (h: unknown) =>
  typeof h === 'object' &&
  h !== null &&
  typeof (h as { command?: unknown }).command === 'string' &&
  /(^|[\s"/\\])(loci(\.js)?|loci\.cmd)"?\s+hook\s+[a-z-]+\s*$/i.test(
    (h as { command: string }).command,
  );

interface Matcher {
  matcher?: string;
  hooks?: unknown[];
}

/** The hooks section after installing Loci's, and what changed. */
function desired(env: SetupEnvironment, current: Record<string, unknown>) {
  const next: Record<string, unknown> = { ...current };
  const changes: string[] = [];
  for (const h of CLAUDE_HOOKS) {
    const mine = { type: 'command', command: hookCommand(env, h.arg), timeout: h.timeout };
    const list = Array.isArray(current[h.event]) ? (current[h.event] as Matcher[]) : [];
    const others = list
      .map((m) => ({ ...m, hooks: (m.hooks ?? []).filter((x) => !isLoci(x)) }))
      .filter((m) => m.hooks.length > 0);
    const had = list.flatMap((m) => (m.hooks ?? []).filter(isLoci));
    const same = had.length === 1 && JSON.stringify(had[0]) === JSON.stringify(mine);
    next[h.event] = [...others, { hooks: [mine] }];
    if (!same) changes.push(`${had.length ? '~' : '+'} ${h.event}: ${mine.command}`);
  }
  return { next, changes };
}

/** What `loci setup hooks` would change (dry run), or changes it. */
export function installHooks(
  env: SetupEnvironment,
  options: { dryRun: boolean; now?: Date },
): SetupHooksResult {
  const file = claudeSettingsFile(env);
  const config = readConfig(SETTINGS as ClientDefinition, file);
  const { next, changes } = desired(env, config.servers);
  if (changes.length === 0)
    return { file, action: 'unchanged', changes, backup: null, dry_run: options.dryRun };
  const action = config.exists && Object.keys(config.servers).length ? 'update' : 'add';
  if (options.dryRun) return { file, action, changes, backup: null, dry_run: true };
  const target = config.exists ? realpathSync(file) : file;
  let mode = 0o600;
  let backup: string | null = null;
  if (config.exists) {
    mode = statSync(target).mode & 0o777;
    backup = backUp(file, options.now ?? new Date());
  }
  const formatting = formattingOf(config.text);
  let updated = setEntry(
    config.text.trim() === '' ? '{}' : config.text,
    ['hooks'],
    next,
    formatting,
  );
  if (!updated.endsWith('\n')) updated += formatting.eol;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.loci-tmp`;
  writeFileSync(tmp, config.bom ? BOM + updated : updated, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, target);
  return { file, action, changes, backup, dry_run: false };
}

/** Whether Loci's hooks are installed as this installation would write them. */
export function checkHooks(env: SetupEnvironment): {
  status: 'ok' | 'missing' | 'stale';
  file: string;
  problems: string[];
} {
  const file = claudeSettingsFile(env);
  try {
    const config = readConfig(SETTINGS as ClientDefinition, file);
    const { changes } = desired(env, config.servers);
    if (changes.length === 0) return { status: 'ok', file, problems: [] };
    const any = CLAUDE_HOOKS.some((h) =>
      ((config.servers[h.event] as Matcher[] | undefined) ?? []).some((m) =>
        (m.hooks ?? []).some(isLoci),
      ),
    );
    return { status: any ? 'stale' : 'missing', file, problems: changes };
  } catch (err) {
    return { status: 'stale', file, problems: [(err as Error).message] };
  }
}
