// npm run bench:transcript — one large agent session read into a journal: a synthetic
// Claude Code transcript of BENCH_TRANSCRIPT_MB (default 50) MiB, dominated as real ones
// are by tool outputs (test runs, file reads), with the requests, invocations and prose
// between them. Reports the import's wall time, the turns kept and clipped, and the
// process's peak heap and resident memory while it ran (sampled every 50 ms).
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { SingleBar, Presets } from 'cli-progress';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';

const MB = Number(process.env.BENCH_TRANSCRIPT_MB ?? 50);
const dir = mkdtempSync(join(tmpdir(), 'loci-bench-transcript-'));
const file = join(dir, 'session.jsonl');

async function writeTranscript(): Promise<void> {
  const out = createWriteStream(file);
  const base = { sessionId: 'bench-session', cwd: '/home/ada/code/big-repo' };
  let bytes = 0;
  let i = 0;
  const write = async (record: unknown) => {
    const line = `${JSON.stringify(record)}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  };
  while (bytes < MB * 1024 * 1024) {
    const at = new Date(Date.UTC(2026, 2, 1, 9, 0, i)).toISOString();
    await write({
      ...base,
      type: 'user',
      timestamp: at,
      message: { role: 'user', content: `Step ${i}: make the ${i % 7} suite pass again.` },
    });
    await write({
      ...base,
      type: 'assistant',
      timestamp: at,
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: `Running the suite for step ${i}.` },
          {
            type: 'tool_use',
            id: `t${i}`,
            name: 'Bash',
            input: { command: `npm test -- suite${i % 7}` },
          },
        ],
      },
    });
    // A test run's output: 2–200 KiB, most of the file.
    const size = 2048 + ((i * 7919) % (200 * 1024));
    const output = `${i % 5 === 0 ? 'Exit code 1\n' : ''}${'PASS src/case.test.ts (12 ms)\n'.repeat(Math.ceil(size / 30))}`;
    await write({
      ...base,
      type: 'user',
      timestamp: at,
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: `t${i}`,
            content: output,
            ...(i % 5 === 0 ? { is_error: true } : {}),
          },
        ],
      },
    });
    i++;
  }
  out.end();
  await once(out, 'finish');
}

await writeTranscript();
const size = statSync(file).size;
const engine = await Engine.open({ dataDir: join(dir, 'home'), owner: 'bench' });
const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
const bar = new SingleBar(
  { format: 'import [{bar}] {percentage}%', hideCursor: true },
  Presets.shades_classic,
);
bar.start(size, 0);
const off = engine.events.on('transcript.progressed', (p) => bar.update(p.bytes));
let peakHeap = 0;
let peakRss = 0;
const sample = setInterval(() => {
  const m = process.memoryUsage();
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakRss = Math.max(peakRss, m.rss);
}, 50);
const before = process.memoryUsage();
const t0 = performance.now();
const r = await client.call('transcript.import', { paths: [file] });
const ms = performance.now() - t0;
clearInterval(sample);
bar.update(size);
bar.stop();
off();
const f = r.files[0]!;
const mib = (n: number) => Math.round(n / 1024 / 1024);
console.log(
  `\n| transcript | lines | turns | clipped | import | peak heap (start) | peak RSS (start) |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|`);
console.log(
  `| ${mib(size)} MiB Claude Code | ${f.lines} | ${f.accounting?.turns} | ${f.accounting?.truncated} | ${(ms / 1000).toFixed(1)} s | ${mib(peakHeap)} MiB (${mib(before.heapUsed)}) | ${mib(peakRss)} MiB (${mib(before.rss)}) |`,
);
console.log(
  `\n${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}; status ${f.status}.`,
);
await engine.close();
rmSync(dir, { recursive: true, force: true });
