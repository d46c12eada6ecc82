// Cold start: spawn to the answer of the first tools/list, read off the pipe (./stdio.ts),
// every system's runs interleaved, medians; and, over the first three rounds, spawn to the
// answer of a first search through the SDK's client (where a server loads its model lazily,
// that is when it does).
import { baseEnv, log, opts, pct, tempDir, type Launch, type SystemUnderTest } from './common';
import { lociBin, startDaemon } from './loci';
import { firstToolsList } from './stdio';

export interface ColdRow {
  system: string;
  /** Median ms to the first tools/list answer; null if it failed. */
  tools_list_ms: number | null;
  /** Median ms to the first search answered (spawn, initialize, one search); null if not measured. */
  first_search_ms: number | null;
  runs: number;
  error?: string;
}

const SEARCH_ROUNDS = 3;

interface ColdCase {
  system: string;
  toolsList: () => Promise<number>;
  sut?: SystemUnderTest;
}

export async function coldStarts(systems: SystemUnderTest[]): Promise<ColdRow[]> {
  const cases: ColdCase[] = systems.map((s) => ({
    system: s.name,
    toolsList: () =>
      s.launch
        ? firstToolsList(s.launch(tempDir('cold')))
        : s.coldToolsList
          ? s.coldToolsList(tempDir('cold'))
          : Promise.reject(new Error('no way to start it cold')),
    sut: s,
  }));
  let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined;
  if (systems.some((s) => s.name === 'Loci (stdio)')) {
    const home = tempDir('cold-daemon');
    daemon = await startDaemon(home);
    const launch: Launch = {
      command: process.execPath,
      args: [lociBin, 'mcp'],
      env: { ...baseEnv, LOCI_HOME: home },
    };
    cases.push({
      system: '`loci mcp` forwarding to a running daemon',
      toolsList: () => firstToolsList(launch),
    });
  }
  const lists = new Map<string, number[]>(cases.map((c) => [c.system, []]));
  const searches = new Map<string, number[]>(cases.map((c) => [c.system, []]));
  const errors = new Map<string, string>();
  try {
    for (let round = 0; round < opts.coldRuns; round++) {
      log(`cold start: round ${round + 1} of ${opts.coldRuns}`);
      for (const c of cases) {
        if (errors.has(c.system)) continue;
        try {
          lists.get(c.system)!.push(await c.toolsList());
          if (c.sut && round < SEARCH_ROUNDS) {
            const t = performance.now();
            const session = await c.sut.start(tempDir('cold'));
            try {
              await c.sut.search(session.client, 'first call after start');
              searches.get(c.system)!.push(performance.now() - t);
            } finally {
              await session.stop();
            }
          }
        } catch (e) {
          errors.set(c.system, (e as Error).message);
          log(`  ${c.system}: ${(e as Error).message}`);
        }
      }
    }
  } finally {
    if (daemon) {
      const proc = daemon.proc;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
  }
  return cases.map((c) => {
    const l = lists.get(c.system)!;
    const s = searches.get(c.system)!;
    const err = errors.get(c.system);
    return {
      system: c.system,
      tools_list_ms: l.length ? Math.round(pct(l, 50)) : null,
      first_search_ms: s.length ? Math.round(pct(s, 50)) : null,
      runs: l.length,
      ...(err ? { error: err } : {}),
    };
  });
}
