// What every part of bench:peers shares: the command line, the paths, temporary
// directories, and the shape of a system under test and of its MCP session.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const num = (name: string, fallback: number) => Number(arg(name) ?? fallback);

export const root = resolve(new URL('../../..', import.meta.url).pathname);

export const opts = {
  sizes: (arg('--sizes') ?? '1000,10000').split(',').map(Number),
  queries: num('--queries', 200),
  /** Seconds one system may spend loading one size; past it the load stops and says so. */
  loadBudgetS: num('--load-budget', 240),
  searchBudgetS: num('--search-budget', 60),
  /** Seconds a system with background indexing may take to catch up after a load. */
  settleBudgetS: num('--settle-budget', 120),
  /** Per conversation: seconds to store its turns, then to ask its questions. */
  convLoadBudgetS: num('--conv-load-budget', 300),
  convSearchBudgetS: num('--conv-search-budget', 90),
  /** Seconds one Python system may spend installing into its virtual environment. */
  installBudgetS: num('--install-budget', 900),
  /** Seconds one server may take from spawn to its first tools/list answer. */
  startBudgetS: num('--start-budget', 120),
  idleS: num('--idle-seconds', 60),
  /** bench:idle: the 10,000 rows are read again this long after the load (quiet). */
  quietS: num('--quiet-seconds', 180),
  /** bench:idle: runs of each process at 1,000 memories (median and largest). */
  idleRuns: num('--idle-runs', 3),
  coldRuns: num('--runs', 7),
  idleOnly: process.argv.includes('--idle'),
  coldOnly: process.argv.includes('--cold'),
  /** Which phases of the full run: corpus, conversations, cold. */
  phases: new Set((arg('--phases') ?? 'corpus,conversations,cold').split(',')),
  /** Names (or unique prefixes, case-insensitive) of the systems to run; all by default. */
  systems: arg('--systems')
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean),
  list: process.argv.includes('--list'),
  /** The whole run stops past this (ms), printing what it has. */
  deadlineMs: Number(arg('--deadline-minutes') ?? 150) * 60_000,
  cache: resolve(arg('--cache') ?? join(root, '.bench-cache')),
  models: resolve(arg('--models') ?? process.env.LOCI_MODEL_PATH ?? join(root, '../shared/models')),
  conversations: resolve(
    arg('--conversations') ?? join(root, '../shared/datasets/conversations-dev'),
  ),
};

/** The real all-MiniLM-L6-v2 (int8 ONNX) in the folder of models. */
export const miniLmDir = join(opts.models, 'all-minilm-l6-v2-int8');

export const startedAt = performance.now();
/** Seconds left before the overall deadline. */
export const secondsLeft = () => (opts.deadlineMs - (performance.now() - startedAt)) / 1000;

// Rows without a model: Loci's no-model rows say so in every answer (semantic off,
// vectors from the hashing fallback). Rows with a model set what they need themselves.
export const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => k !== 'LOCI_MODEL_PATH'),
) as Record<string, string>;

const temps: string[] = [];
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `loci-peers-${prefix.replace(/\W+/g, '-')}-`));
  temps.push(d);
  return d;
}
export function removeTemps(): void {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function rssMiB(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

export interface Session {
  client: Client;
  pid: number | null;
  /** The end of what the server wrote to stderr, for saying why it failed. */
  stderrTail(): string;
  stop(): Promise<void>;
}

/** How a stdio server is started: for the SDK's client and for the raw cold start. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface WriteOptions {
  /** Set when the memory is a turn of a conversation (some tools take its id). */
  conversation?: string;
}

export interface SystemUnderTest {
  name: string;
  /** Name, version, how it was installed and configured: one line for the report. */
  about: string;
  /** Runs an embedding model (the real all-MiniLM-L6-v2). */
  model: boolean;
  /**
   * Installs or checks what the system needs. Throws an Error whose message says, in one
   * line, why it cannot run here; the bench then prints it and goes on without it.
   */
  prepare?(): Promise<void>;
  /** A stdio server's launch on a fresh data directory (absent for the HTTP daemon). */
  launch?(dir: string): Launch;
  /** Ms from spawn to the first tools/list answer, for a server that is not a stdio one. */
  coldToolsList?(dir: string): Promise<number>;
  start(dir: string): Promise<Session>;
  /** Writes one memory; returns the key the system's search gives back for it, or null if it refused it. */
  write(client: Client, i: number, content: string, o?: WriteOptions): Promise<string | null>;
  /** The keys of its top 10 for a query, best first. */
  search(client: Client, query: string): Promise<string[]>;
  /**
   * Waits until indexing the system does after a write has caught up (for systems that
   * embed in the background); returns false if it had not within `budgetS`.
   */
  settle?(dir: string, budgetS: number): Promise<boolean>;
  /**
   * Checks in the system's own store, after `settle`, that its memories were embedded by
   * the model; throws saying why not. For a system whose search by meaning the probe's
   * questions cannot show (./probe.ts).
   */
  checkModel?(dir: string): void;
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;

export const text = (r: CallResult) =>
  ((r.content as { type: string; text?: string }[])[0]?.text ?? '') as string;

export function check(r: CallResult, what: string): CallResult {
  if (r.isError) throw new Error(`${what}: ${text(r).slice(0, 300)}`);
  return r;
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
export const r1 = (x: number) => Math.round(x * 10) / 10;

export const log = (line: string) => process.stderr.write(`${line}\n`);
