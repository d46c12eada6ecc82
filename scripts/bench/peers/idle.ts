// npm run bench:idle — what Loci's long-running processes keep resident once quiet, no
// model: `loci mcp` on its own data directory, `loci serve`, and `loci mcp` forwarding
// to a running daemon (the forwarder's own RSS). Each loads N memories one call at a
// time, answers 20 recalls, then is left alone for --idle-seconds (60); RSS is read
// before and after. At 1,000 memories every process is measured --idle-runs times (3)
// and the median and largest are given; at 10,000 once, for the RSS a store's memories
// cost (the difference, per 10,000). Loaded that fast, 10,000 memories leave the
// contradiction check of the burst running in the background for a while (about 50 s
// here), and a process gives memory back only once that is done too: the 10,000 rows are
// read after --idle-seconds and again after --quiet-seconds (180), and the cost per
// 10,000 is taken from the quiet reading.
import { baseEnv, log, opts, rssMiB, tempDir, type SystemUnderTest } from './common';
import { lociBin, lociSystems, startDaemon } from './loci';
import { machine, save } from './report';
import { stdioSession } from './stdio';
import { corpus } from './workload';

interface IdleRow {
  process: string;
  memories: number;
  runs: { loaded: number | null; idle: number | null; quiet?: number | null }[];
}

const standalone = lociSystems.find((s) => s.name === 'Loci (stdio)') as SystemUnderTest;
const daemon = lociSystems.find((s) => s.name === 'Loci (HTTP daemon)') as SystemUnderTest;

/** `loci mcp` started beside a running daemon: it forwards, and its RSS is what is read. */
const forwarding: SystemUnderTest = {
  ...standalone,
  name: 'Loci (stdio, forwarding to the daemon)',
  async start(dir) {
    const { proc } = await startDaemon(dir);
    const session = await stdioSession({
      command: process.execPath,
      args: [lociBin, 'mcp'],
      env: { ...baseEnv, LOCI_HOME: dir },
    });
    return {
      ...session,
      async stop() {
        await session.stop();
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      },
    };
  },
};

const PROCESSES: [string, SystemUnderTest][] = [
  ['`loci mcp` on its own', standalone],
  ['`loci serve` (the daemon)', daemon],
  ['`loci mcp` forwarding to the daemon', forwarding],
];

async function measure(system: SystemUnderTest, contents: string[], quietS = 0) {
  const session = await system.start(tempDir('idle'));
  try {
    for (let i = 0; i < contents.length; i++) {
      await system.write(session.client, i, contents[i] as string);
    }
    for (let q = 0; q < 20; q++) await system.search(session.client, contents[q]!.slice(0, 40));
    const loaded = rssMiB(session.pid);
    log(
      `${system.name}, ${contents.length.toLocaleString('en')} memories: idle for ${opts.idleS} s…`,
    );
    await new Promise((r) => setTimeout(r, opts.idleS * 1000));
    const idle = rssMiB(session.pid);
    if (quietS <= opts.idleS) return { loaded, idle };
    await new Promise((r) => setTimeout(r, (quietS - opts.idleS) * 1000));
    return { loaded, idle, quiet: rssMiB(session.pid) };
  } finally {
    await session.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function idle(): Promise<void> {
  const rows: IdleRow[] = [];
  const small = corpus(1000);
  // Runs interleaved (process after process), so a busy moment does not fall on one only.
  for (const [label] of PROCESSES) rows.push({ process: label, memories: 1000, runs: [] });
  for (let run = 0; run < opts.idleRuns; run++) {
    for (const [i, [, system]] of PROCESSES.entries()) {
      rows[i]?.runs.push(await measure(system, small));
    }
  }
  const large = corpus(10_000);
  for (const [label, system] of PROCESSES.slice(0, 2)) {
    rows.push({
      process: label,
      memories: 10_000,
      runs: [await measure(system, large, opts.quietS)],
    });
  }

  console.log(
    `\n${machine()}; no embedding model; N memories loaded one call at a time, then 20 recalls\n`,
  );
  console.log(
    `| process | memories | RSS after load (MiB) | RSS after ${opts.idleS} s idle (MiB), median | largest | after ${opts.quietS} s | runs |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const idleRss = r.runs.map((x) => x.idle ?? 0);
    const loaded = r.runs.map((x) => x.loaded ?? 0);
    const quiet = r.runs[0]?.quiet;
    console.log(
      `| ${r.process} | ${r.memories.toLocaleString('en')} | ${median(loaded)} | ${median(idleRss)} | ${Math.max(...idleRss)} | ${quiet ?? '—'} | ${r.runs.length} |`,
    );
  }
  // At 1,000 the process is quiet after --idle-seconds; at 10,000 the quiet reading counts.
  const per10k = PROCESSES.slice(0, 2).map(([label]) => {
    const at = (n: number) =>
      median(
        rows
          .find((r) => r.process === label && r.memories === n)
          ?.runs.map((x) => x.quiet ?? x.idle ?? 0) ?? [],
      );
    return {
      process: label,
      mib_per_10k: Math.round(((at(10_000) - at(1000)) / 9) * 10 * 10) / 10,
    };
  });
  console.log(
    "\nRSS a store's memories cost once quiet (from 1,000 to 10,000 memories, per 10,000):",
  );
  for (const p of per10k) console.log(`- ${p.process}: ${p.mib_per_10k} MiB`);
  save('idle.json', {
    machine: machine(),
    idle_s: opts.idleS,
    quiet_s: opts.quietS,
    rows,
    per10k,
  });
}
