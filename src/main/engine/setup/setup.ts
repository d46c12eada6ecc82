// `loci setup`: finds the MCP clients on this machine, shows the change it would make
// to each one's configuration, writes the Loci entry after backing the file up (comments
// and formatting kept, with jsonc-parser), and audits existing entries (missing, stale
// port or token, duplicates).
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import type { SetupCheck, SetupPlan, SetupWriteResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import {
  CLIENTS,
  type ClientDefinition,
  type ClientId,
  type Endpoint,
  type SetupContext,
  type SetupTransport,
} from './clients';

export const ENTRY_NAME = 'loci';

function readConfig(
  def: ClientDefinition,
  file: string,
): { text: string; data: Record<string, unknown> } {
  if (!existsSync(file)) return { text: '', data: {} };
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return { text, data: {} };
  const errors: ParseError[] = [];
  const data = parse(text, errors, {
    allowTrailingComma: true,
    disallowComments: !def.jsonc,
  }) as unknown;
  if (errors.length > 0 || typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new LociError(
      'invalid-args',
      `${file} is not valid JSON${def.jsonc ? ' (with comments)' : ''}; Loci will not edit it. Fix it, or add the entry by hand.`,
    );
  }
  return { text, data: data as Record<string, unknown> };
}

function container(data: Record<string, unknown>, path: string[]): Record<string, unknown> {
  let at: unknown = data;
  for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : {};
}

/** Does an entry (under any name) point at Loci? A loopback /mcp URL or a `loci mcp` command. */
export function pointsAtLoci(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as Record<string, unknown>;
  const url = String(e.url ?? e.serverUrl ?? '');
  if (/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/mcp$/.test(url)) return true;
  const args = Array.isArray(e.args) ? e.args.map(String) : [];
  const command = String(e.command ?? '');
  return (
    (args.some((a) => /loci(\.js)?$/.test(a)) || /loci$/.test(command)) && args.includes('mcp')
  );
}

function describe(entry: unknown): string {
  return entry === undefined ? '(none)' : JSON.stringify(entry, null, 2);
}

function preferred(
  def: ClientDefinition,
  wanted: SetupTransport | undefined,
  daemonRunning: boolean,
): SetupTransport {
  if (wanted) {
    if (!def.transports.includes(wanted)) {
      throw new LociError(
        'invalid-args',
        `${def.name} takes only a ${def.transports.join(' or ')} entry from its configuration file.`,
      );
    }
    return wanted;
  }
  // HTTP when a daemon is up (the entry names its port); stdio otherwise, which works
  // either way: `loci mcp` forwards to a daemon when one runs.
  return daemonRunning && def.transports.includes('http') ? 'http' : 'stdio';
}

export interface SetupEnvironment {
  ctx: SetupContext;
  endpoint: Endpoint;
  daemonRunning: boolean;
}

export function findClient(id: string): ClientDefinition {
  const def = CLIENTS.find((c) => c.id === id);
  if (!def)
    throw new LociError(
      'invalid-args',
      `Unknown client "${id}". Known: ${CLIENTS.map((c) => c.id).join(', ')}.`,
    );
  return def;
}

export function plan(
  env: SetupEnvironment,
  only?: ClientId,
  transport?: SetupTransport,
): SetupPlan[] {
  const defs = only ? [findClient(only)] : CLIENTS;
  return defs.map((def) => {
    const file = def.file(env.ctx);
    const installed = def.markers(env.ctx).some(existsSync);
    const t = preferred(def, transport, env.daemonRunning);
    let before: unknown;
    let problem: string | null = null;
    try {
      before = container(readConfig(def, file).data, def.container)[ENTRY_NAME];
    } catch (err) {
      problem = (err as Error).message;
    }
    const after = def.entry(t, env.endpoint);
    const action = problem
      ? 'blocked'
      : before === undefined
        ? 'add'
        : JSON.stringify(before) === JSON.stringify(after)
          ? 'unchanged'
          : 'update';
    return {
      client: def.id,
      name: def.name,
      installed,
      file,
      transport: t,
      action,
      before: before === undefined ? null : (before as Record<string, unknown>),
      after,
      diff:
        action === 'unchanged' || problem ? '' : `--- ${describe(before)}\n+++ ${describe(after)}`,
      problem,
    };
  });
}

export function write(
  env: SetupEnvironment,
  id: ClientId,
  transport?: SetupTransport,
  now: Date = new Date(),
): SetupWriteResult {
  const def = findClient(id);
  const [p] = plan(env, id, transport);
  if (!p) throw new LociError('internal', 'no plan');
  if (p.problem) throw new LociError('invalid-args', p.problem);
  if (p.action === 'unchanged')
    return { client: id, file: p.file, backup: null, action: 'unchanged' };
  const { text } = readConfig(def, p.file);
  let backup: string | null = null;
  if (existsSync(p.file)) {
    backup = `${p.file}.loci-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(p.file, backup);
  }
  const edits = modify(text || '{}', [...def.container, ENTRY_NAME], p.after, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  const updated = applyEdits(text || '{}', edits);
  mkdirSync(dirname(p.file), { recursive: true });
  const tmp = `${p.file}.loci-tmp`;
  writeFileSync(tmp, updated.endsWith('\n') ? updated : `${updated}\n`);
  renameSync(tmp, p.file);
  return { client: id, file: p.file, backup, action: p.action as 'add' | 'update' };
}

export function check(env: SetupEnvironment): SetupCheck[] {
  return CLIENTS.map((def) => {
    const file = def.file(env.ctx);
    const installed = def.markers(env.ctx).some(existsSync);
    const problems: string[] = [];
    let status: SetupCheck['status'] = 'ok';
    let entries: [string, unknown][] = [];
    try {
      entries = Object.entries(container(readConfig(def, file).data, def.container));
    } catch (err) {
      return {
        client: def.id,
        name: def.name,
        installed,
        file,
        status: 'invalid',
        problems: [(err as Error).message],
      };
    }
    const ours = entries.filter(([, e]) => pointsAtLoci(e));
    if (ours.length === 0) {
      return {
        client: def.id,
        name: def.name,
        installed,
        file,
        status: installed ? 'missing' : 'not-installed',
        problems: installed ? ['no Loci entry: run `loci setup`'] : [],
      };
    }
    if (ours.length > 1) {
      status = 'duplicate';
      problems.push(
        `${ours.length} entries point at Loci (${ours.map(([n]) => n).join(', ')}): keep one`,
      );
    }
    for (const [name, raw] of ours) {
      const e = raw as Record<string, unknown>;
      const url = (e.url ?? e.serverUrl) as string | undefined;
      if (url) {
        if (url !== env.endpoint.url) {
          problems.push(
            `"${name}" points at ${url}, but Loci ${env.daemonRunning ? 'is serving' : 'serves by default'} at ${env.endpoint.url}`,
          );
          if (status === 'ok') status = 'stale';
        }
        const headers = (e.headers ?? {}) as Record<string, string>;
        const given = headers.Authorization ?? headers.authorization;
        if (env.endpoint.token && given !== `Bearer ${env.endpoint.token}`) {
          problems.push(`"${name}" ${given ? 'has an old token' : 'sends no token'}`);
          if (status === 'ok') status = 'stale';
        }
      } else {
        const args = Array.isArray(e.args) ? e.args.map(String) : [];
        const script = args.find((a) => /loci(\.js)?$/.test(a));
        if (script && !existsSync(script)) {
          problems.push(`"${name}" starts ${script}, which no longer exists`);
          if (status === 'ok') status = 'stale';
        }
      }
    }
    return { client: def.id, name: def.name, installed, file, status, problems };
  });
}
