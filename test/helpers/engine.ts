// A real engine on a fresh temporary data directory (real SQLite with sqlite-vec),
// with a controllable clock, and clients for each kind of caller.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Actor, LociClient } from '../../src/shared/api';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import type { HandlerRegistry } from '../../src/main/api/registry';
import { Engine, type EngineOptions } from '../../src/main/engine/engine';
import { mulberry32 } from '../../src/shared/random';

export interface TestEngine {
  engine: Engine;
  handlers: HandlerRegistry;
  dir: string;
  /** The clock the engine reads (epoch ms); move it with `advance`. */
  clock: { now: number };
  advance(ms: number): void;
  client(actor?: Actor): LociClient;
  /** The person at the CLI. */
  cli: LociClient;
  /** An agent connected over MCP. */
  agent(name: string): LociClient;
  close(): Promise<void>;
}

export function tempDir(prefix = 'loci-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function openTestEngine(options: Partial<EngineOptions> = {}): Promise<TestEngine> {
  const dir = options.dataDir ?? tempDir();
  const clock = { now: Date.parse('2026-03-01T09:00:00Z') };
  const engine = await Engine.open({
    dataDir: dir,
    owner: 'test',
    clock: () => clock.now,
    rehearsalFlushMs: 5,
    // Deterministic tests: a write returns once its vectors are stored, and no model is
    // picked up from the developer's LOCI_MODEL_PATH unless a test asks for one.
    embedWrites: 'await',
    env: {},
    ...options,
  });
  const handlers = createHandlers(engine);
  const client = (actor: Actor = { kind: 'cli', transport: 'in-process' }) =>
    createInProcessClient(handlers, { actor });
  return {
    engine,
    handlers,
    dir,
    clock,
    advance: (ms) => {
      clock.now += ms;
    },
    client,
    cli: client(),
    agent: (name) => client({ kind: 'mcp', client: name, transport: 'in-process' }),
    close: async () => {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Deterministic pseudo-random values and strings for generated fixtures. */
export function seededRandom(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    string: (alphabet: string, length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  };
}
