// `loci setup`: finds the MCP clients on this machine, shows the change it would make
// to each one's configuration, writes the Loci entry after backing the file up (comments
// and formatting kept, with jsonc-parser), and audits existing entries (missing, stale
// port or token, duplicates). It never rewrites a file it cannot parse.
import {
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import {
  applyEdits,
  format,
  modify,
  parse,
  printParseErrorCode,
  type FormattingOptions,
  type ParseError,
} from 'jsonc-parser';
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

export const BOM = '\uFEFF';

export interface ConfigFile {
  exists: boolean;
  /** The text without a byte-order mark (which some Windows editors add). */
  text: string;
  bom: boolean;
  data: Record<string, unknown>;
  /** The server entries, by name ({} when the container is absent). */
  servers: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function refuse(file: string, why: string): LociError {
  return new LociError(
    'invalid-args',
    `${file} ${why}; Loci will not edit it. Fix it, or add the entry by hand.`,
  );
}

export function readConfig(def: ClientDefinition, file: string): ConfigFile {
  if (!existsSync(file)) return { exists: false, text: '', bom: false, data: {}, servers: {} };
  const raw = readFileSync(file, 'utf8');
  const bom = raw.startsWith(BOM);
  const text = bom ? raw.slice(1) : raw;
  if (text.trim() === '') return { exists: true, text, bom, data: {}, servers: {} };
  const errors: ParseError[] = [];
  // A strict-JSON client cannot read a comment or a trailing comma: such a file is
  // already broken for it, and saying so beats reporting "ok".
  const data = parse(text, errors, {
    allowTrailingComma: def.jsonc,
    disallowComments: !def.jsonc,
  }) as unknown;
  const [first] = errors;
  if (first) {
    throw refuse(
      file,
      `is not valid JSON${def.jsonc ? ' (with comments)' : ''}: ${printParseErrorCode(first.error)} at ${position(text, first.offset)}`,
    );
  }
  if (!isObject(data)) throw refuse(file, 'does not hold a JSON object');
  let at: unknown = data;
  for (const key of def.container) {
    at = isObject(at) ? at[key] : undefined;
    if (at === undefined) break;
    if (!isObject(at))
      throw refuse(file, `has a "${def.container.join('.')}" that is not an object`);
  }
  return { exists: true, text, bom, data, servers: isObject(at) ? at : {} };
}

const LOCI_PROGRAM = /(^|[\\/@])loci(\.js|\.cmd|\.exe)?$/i;
const LOCI_URL = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/mcp\/?$/;

/** Does an entry (under any name) point at Loci? A loopback /mcp URL or a `loci mcp` command. */
export function pointsAtLoci(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const url = String(entry.url ?? entry.serverUrl ?? '');
  if (LOCI_URL.test(url)) return true;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  const command = String(entry.command ?? '');
  return (
    (LOCI_PROGRAM.test(command) || args.some((a) => LOCI_PROGRAM.test(a))) && args.includes('mcp')
  );
}

/** The same JSON value, whatever the order of the keys. */
function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical(v[k])]),
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function diff(path: string[], before: unknown, after: unknown): string {
  const block = (sign: string, v: unknown) =>
    (v === undefined ? '(none)' : JSON.stringify(v, null, 2))
      .split('\n')
      .map((l) => `${sign} ${l}`);
  return [path.join('.'), ...block('-', before), ...block('+', after)].join('\n');
}

function preferred(
  def: ClientDefinition,
  wanted: SetupTransport | undefined,
  daemonRunning: boolean,
  strict: boolean,
): SetupTransport {
  if (wanted && def.transports.includes(wanted)) return wanted;
  if (wanted && strict) {
    throw new LociError(
      'invalid-args',
      `${def.name} takes only a ${def.transports.join(' or ')} entry from its configuration file.`,
    );
  }
  // HTTP when a daemon is up (the entry names its port); stdio otherwise, which works
  // either way: `loci mcp` forwards to a daemon when one runs.
  return daemonRunning && def.transports.includes('http') ? 'http' : 'stdio';
}

/** Where the entry goes: `loci`, or the name the user already gave a Loci entry (no duplicate). */
function entryName(servers: Record<string, unknown>): string {
  if (ENTRY_NAME in servers) return ENTRY_NAME;
  return Object.keys(servers).find((name) => pointsAtLoci(servers[name])) ?? ENTRY_NAME;
}

export interface SetupEnvironment {
  ctx: SetupContext;
  endpoint: Endpoint;
  daemonRunning: boolean;
  /** Each client's own token (engine/access): absent, every client gets the owner token. */
  tokens?: SetupTokens;
}

/** What setup needs of the client tokens. */
export interface SetupTokens {
  /** Whether a token is a live client token (of `client`, when named). */
  valid(token: string, client?: string): boolean;
  /** A new token for the client: made, or rotated when it has one (its policy kept). */
  mint(client: string): string;
}

/** Shown in a plan where setup will put a new token of the client's own. */
export const NEW_TOKEN = (client: string) => `<new-token-for-${client}>`;

/** The token an entry carries: its bearer header, or LOCI_TOKEN for stdio. */
function tokenIn(entry: unknown): string | null {
  if (!isObject(entry)) return null;
  const headers = isObject(entry.headers) ? entry.headers : {};
  const bearer = headers.Authorization ?? headers.authorization;
  if (typeof bearer === 'string') return /^Bearer\s+(\S+)$/i.exec(bearer)?.[1] ?? null;
  const env = isObject(entry.env) ? entry.env : {};
  return typeof env.LOCI_TOKEN === 'string' ? env.LOCI_TOKEN : null;
}

/**
 * The endpoint as one client's entry carries it: with client tokens, the client's own
 * (the one its entry has when still live, else a new one at write time), never the
 * owner's.
 */
function endpointFor(
  env: SetupEnvironment,
  client: ClientId,
  before: unknown,
  token?: string,
): Endpoint {
  if (!env.tokens) return env.endpoint;
  const kept = tokenIn(before);
  const own = token ?? (kept && env.tokens.valid(kept, client) ? kept : NEW_TOKEN(client));
  return { ...env.endpoint, token: own, env: { LOCI_TOKEN: own } };
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

/**
 * The change for each client (one when `only` is given). A transport a client cannot take
 * is an error for that one client; across all clients, such a client gets the one it takes.
 */
export function plan(
  env: SetupEnvironment,
  only?: ClientId,
  transport?: SetupTransport,
): SetupPlan[] {
  const defs = only ? [findClient(only)] : CLIENTS;
  return defs.map((def) => {
    const file = def.file(env.ctx);
    const installed = def.markers(env.ctx).some(existsSync);
    const t = preferred(def, transport, env.daemonRunning, Boolean(only));
    let after = def.entry(t, endpointFor(env, def.id, undefined));
    let config: ConfigFile;
    try {
      config = readConfig(def, file);
    } catch (err) {
      return {
        client: def.id,
        name: def.name,
        installed,
        file,
        transport: t,
        entry: ENTRY_NAME,
        action: 'blocked',
        before: null,
        after,
        diff: '',
        problem: (err as Error).message,
      };
    }
    const entry = entryName(config.servers);
    const before = config.servers[entry];
    after = def.entry(t, endpointFor(env, def.id, before));
    const action = before === undefined ? 'add' : sameJson(before, after) ? 'unchanged' : 'update';
    return {
      client: def.id,
      name: def.name,
      installed,
      file,
      transport: t,
      entry,
      action,
      before: isObject(before) ? before : null,
      after,
      diff: action === 'unchanged' ? '' : diff([...def.container, entry], before, after),
      problem: null,
    };
  });
}

/** Indentation and line ends as the file already has them (a new file: two spaces, \n). */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = (/^([ \t]+)"/m.exec(text) ?? /^([ \t]+)\S/m.exec(text))?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 4, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * Sets one value, formatting only what is inserted and the tokens around it. (jsonc-parser
 * formats whole lines around an insertion, which would reflow a one-line sibling entry.)
 */
export function setEntry(
  text: string,
  path: string[],
  value: unknown,
  fo: FormattingOptions,
): string {
  const edits = modify(text, path, value, {});
  const [edit] = edits;
  if (!edit || edits.length > 1)
    return applyEdits(text, modify(text, path, value, { formattingOptions: fo }));
  const inserted = applyEdits(text, [edit]);
  let begin = edit.offset;
  let end = edit.offset + edit.content.length;
  while (begin > 0 && /\s/.test(inserted[begin - 1] ?? '')) begin--;
  if (begin > 0) begin--;
  while (end < inserted.length && /\s/.test(inserted[end] ?? '')) end++;
  if (end < inserted.length) end++;
  return applyEdits(inserted, format(inserted, { offset: begin, length: end - begin }, fo));
}

/** `<file>.loci-backup-<time>`, never overwriting an earlier backup. */
export function backUp(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let n = 0; ; n++) {
    const backup = `${file}.loci-backup-${stamp}${n ? `-${n}` : ''}`;
    try {
      copyFileSync(file, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw err;
    }
  }
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
  const config = readConfig(def, p.file);
  // A configuration kept elsewhere and linked in (dotfiles) stays a link: edit its target.
  const target = config.exists ? realpathSync(p.file) : p.file;
  let backup: string | null = null;
  // The entry may carry the token: a new file is private; an existing one keeps its mode.
  let mode = 0o600;
  if (config.exists) {
    mode = statSync(target).mode & 0o777;
    backup = backUp(p.file, now);
  }
  const formatting = formattingOf(config.text);
  // The client's own token is made now, not at planning (a plan shows where it goes).
  const after =
    env.tokens && tokenIn(p.after) === NEW_TOKEN(id)
      ? def.entry(p.transport, endpointFor(env, id, undefined, env.tokens.mint(id)))
      : p.after;
  let updated = setEntry(
    config.text.trim() === '' ? '{}' : config.text,
    [...def.container, p.entry],
    after,
    formatting,
  );
  if (!updated.endsWith('\n')) updated += formatting.eol;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.loci-tmp`;
  writeFileSync(tmp, config.bom ? BOM + updated : updated, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, target);
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
      entries = Object.entries(readConfig(def, file).servers);
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
    const stale = (problem: string) => {
      problems.push(problem);
      if (status === 'ok') status = 'stale';
    };
    for (const [name, raw] of ours) {
      const e = raw as Record<string, unknown>;
      const url = e.url ?? e.serverUrl;
      if (typeof url === 'string' && url !== '') {
        if (url !== env.endpoint.url) {
          stale(
            `"${name}" points at ${url}, but Loci ${env.daemonRunning ? 'is serving' : 'serves by default'} at ${env.endpoint.url}`,
          );
        }
        const headers = isObject(e.headers) ? e.headers : {};
        const given = headers.Authorization ?? headers.authorization;
        const token = tokenIn(e);
        const live =
          token !== null && (token === env.endpoint.token || (env.tokens?.valid(token) ?? false));
        if (env.endpoint.token && !live) {
          stale(`"${name}" ${given ? 'has an old or revoked token' : 'sends no token'}`);
        }
      } else {
        const args = Array.isArray(e.args) ? e.args.map(String) : [];
        const command = String(e.command ?? '');
        // An absolute node path goes stale when Node is upgraded or moved (nvm, Homebrew).
        if (isAbsolute(command) && !existsSync(command)) {
          stale(`"${name}" starts ${command}, which no longer exists`);
        }
        const script = args.find((a) => LOCI_PROGRAM.test(a) && isAbsolute(a));
        if (script && !existsSync(script)) {
          stale(`"${name}" starts ${script}, which no longer exists`);
        }
        const token = tokenIn(e);
        if (token && env.tokens && !env.tokens.valid(token)) {
          stale(`"${name}" starts \`loci mcp\` with a revoked or rotated LOCI_TOKEN`);
        }
      }
    }
    return { client: def.id, name: def.name, installed, file, status, problems };
  });
}
