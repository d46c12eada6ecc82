// npm run bench:peers — the same workload through MCP against Loci and against other memory
// systems, each on a fresh data directory, driven by the MCP SDK's client:
// - Loci: `loci mcp` over stdio without a model and with the real one, and `loci serve`
//   over Streamable HTTP (./peers/loci.ts);
// - from npm: the reference @modelcontextprotocol/server-memory and mcp-memory-keeper
//   (./peers/npm.ts);
// - from PyPI, each installed by this script into its own venv under .bench-cache/ and run
//   as a stdio server with the real all-MiniLM-L6-v2 and no model hub: cerebro-cortex,
//   basic-memory and mcp-memory-service's lite build (./peers/python.ts).
// Measured: on the generated corpus, per size, load time (one memory per call, as an agent
// writes), search p50/p95, resident memory of the server process (VmRSS) and hit@10 on
// quoted phrases and reordered keywords; on the development conversations, hit@10 (the share
// of a question's evidence turns in the top 10); the cold start to the first tools/list and
// to a first search. Every phase has a time budget and a capped phase says how far it got;
// a system that cannot run here says why and the others go on.
//
//   npm run bench:peers [-- --sizes 1000,10000 --queries 200 --systems loci,basic-memory
//                          --phases corpus,conversations,cold --load-budget 240 --list]
//   npm run bench:idle   resident memory of `loci mcp`, `loci serve` and `loci mcp` forwarding
//                        after 60 s idle (./peers/idle.ts)
//   npm run bench:cold   spawn to the first tools/list answer of every system
import { log, opts, removeTemps, secondsLeft, type SystemUnderTest } from './peers/common';
import { coldStarts } from './peers/cold';
import { idle } from './peers/idle';
import { lociSystems } from './peers/loci';
import { runConversations, runCorpus } from './peers/measure';
import { npmSystems } from './peers/npm';
import { pythonSystems } from './peers/python';
import { emptyResults, machine, printResults, save } from './peers/report';
import { conversations, corpus, makeQueries } from './peers/workload';

const ALL: SystemUnderTest[] = [...lociSystems, ...npmSystems, ...pythonSystems];
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** `--systems`: each name picks the system of that name, or else every one it begins. */
function selected(): SystemUnderTest[] {
  if (!opts.systems) return ALL;
  const picked = new Set<SystemUnderTest>();
  for (const want of opts.systems.map(slug)) {
    const exact = ALL.filter((s) => slug(s.name) === want);
    const some = exact.length ? exact : ALL.filter((s) => slug(s.name).startsWith(`${want}-`));
    if (!some.length) {
      log(`--systems: no system "${want}"; there are ${ALL.map((s) => slug(s.name)).join(', ')}`);
      process.exit(2);
    }
    for (const s of some) picked.add(s);
  }
  return ALL.filter((s) => picked.has(s));
}

const results = emptyResults();

/** Installs and checks each system; those that cannot run are reported and left out. */
async function prepared(systems: SystemUnderTest[]): Promise<SystemUnderTest[]> {
  const ok: SystemUnderTest[] = [];
  for (const s of systems) {
    try {
      await s.prepare?.();
      ok.push(s);
      results.systems.push({ name: s.name, about: s.about, model: s.model });
    } catch (e) {
      const why = (e as Error).message;
      log(`${s.name}: cannot run here: ${why}`);
      results.skipped.push({ system: s.name, why });
    }
  }
  return ok;
}

/** Runs `fn` unless the overall deadline is nearer than `worstS`; a failure is noted, not thrown. */
async function attempt<T>(what: string, worstS: number, fn: () => Promise<T>): Promise<T | null> {
  if (secondsLeft() < worstS) {
    const note = `${what}: skipped, ${Math.round(secondsLeft())} s left of the overall deadline and it may take ${Math.round(worstS)} s.`;
    log(note);
    results.notes.push(note);
    return null;
  }
  try {
    return await fn();
  } catch (e) {
    const note = `${what}: failed: ${(e as Error).message}`;
    log(note);
    results.notes.push(note);
    return null;
  }
}

async function peers(): Promise<void> {
  const systems = await prepared(selected());
  const startS = opts.startBudgetS;
  if (opts.phases.has('corpus')) {
    for (const size of opts.sizes) {
      const contents = corpus(size);
      const queries = makeQueries(contents, opts.queries);
      for (const s of systems) {
        log(`${s.name}: ${size.toLocaleString('en')} memories…`);
        const worst =
          startS + opts.loadBudgetS + opts.searchBudgetS + (s.settle ? opts.settleBudgetS : 0);
        const row = await attempt(`${s.name} at ${size.toLocaleString('en')}`, worst, () =>
          runCorpus(s, contents, queries),
        );
        if (row) {
          log(`  ${JSON.stringify(row)}`);
          results.corpus.push(row);
        }
      }
    }
  }
  if (opts.phases.has('conversations')) {
    const convs = await attempt('the conversations', 0, async () => conversations());
    for (const s of convs ? systems : []) {
      log(`${s.name}: conversations…`);
      const worst =
        convs!.length *
        (startS +
          opts.convLoadBudgetS +
          opts.convSearchBudgetS +
          (s.settle ? opts.settleBudgetS : 0));
      const row = await attempt(`${s.name} on the conversations`, worst, () =>
        runConversations(s, convs!),
      );
      if (row) {
        log(`  ${JSON.stringify(row)}`);
        results.conversations.push(row);
      }
    }
  }
  if (opts.phases.has('cold')) {
    const worst = opts.coldRuns * systems.length * 20;
    const cold = await attempt('the cold start', worst, () => coldStarts(systems));
    if (cold) results.cold = cold;
  }
  finish('peers.json');
}

async function cold(): Promise<void> {
  results.cold = await coldStarts(await prepared(selected()));
  finish('cold.json');
}

function finish(file: string): void {
  printResults(results);
  save(file, {
    machine: machine(),
    date: new Date().toISOString(),
    options: { ...opts, phases: [...opts.phases] },
    ...results,
  });
}

if (opts.list) {
  for (const s of ALL) console.log(`${slug(s.name)}\t${s.name}`);
  process.exit(0);
}
// The whole run stops at the deadline, printing what it has measured.
const deadline = setTimeout(() => {
  log(`bench:peers: over the overall deadline (${opts.deadlineMs / 60_000} min); stopping.`);
  results.notes.push(
    'The run was stopped at the overall deadline: what follows is what it had measured.',
  );
  if (!opts.idleOnly) finish(opts.coldOnly ? 'cold.json' : 'peers.json');
  removeTemps();
  process.exit(1);
}, opts.deadlineMs);
deadline.unref();
try {
  await (opts.idleOnly ? idle() : opts.coldOnly ? cold() : peers());
} finally {
  removeTemps();
}
process.exit(0);
