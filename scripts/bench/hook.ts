// npm run bench:hook — how long an editor waits for `loci hook prompt-submit`: the built
// hook (node bin/loci.js hook …, as Claude Code runs it) spawned BENCH_HOOKS times
// against a daemon on loopback holding 2,000 memories, the wall time of each process from
// spawn to exit (p50, p95, max); the same with no daemon running (it must exit 0 within a
// second and print nothing). Needs `npm run build` (out/main/hook.js).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInProcessClient } from '../../src/main/api';
import { startDaemon } from '../../src/main/daemon';
import { generator } from './corpus';

const N = Number(process.env.BENCH_HOOKS ?? 100);
const ROOT = new URL('../..', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'loci-bench-hook-'));
const empty = mkdtempSync(join(tmpdir(), 'loci-bench-hook-none-'));
const daemon = await startDaemon({ dataDir: home, port: 0, env: {}, owner: 'bench' });
const client = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
const next = generator(11);
const items = Array.from({ length: 2000 }, () => next());
for (let i = 0; i < items.length; i += 500) {
  await client.call('memory.rememberMany', {
    items: items.slice(i, i + 500).map((m) => ({ content: m.content })),
  });
}

// Measured once the background embedding of the seeded memories is done (steady state).
for (let i = 0; i < 600; i++) {
  const s = await client.call('stats.get', {});
  if ((s.vectors?.pending ?? 0) === 0) break;
  await new Promise((r) => setTimeout(r, 100));
}

function once(
  dataDir: string,
  prompt: string,
): Promise<{ ms: number; code: number | null; out: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [join(ROOT, 'bin/loci.js'), 'hook', 'prompt-submit'], {
      env: { ...process.env, LOCI_HOME: dataDir },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ ms: performance.now() - t0, code, out }));
    child.stdin.end(
      JSON.stringify({ prompt, session_id: 'bench', hook_event_name: 'UserPromptSubmit' }),
    );
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const withDaemon: number[] = [];
let answered = 0;
for (let i = 0; i < N; i++) {
  const r = await once(
    home,
    `${items[(i * 37) % items.length]!.content.split(' ').slice(0, 8).join(' ')}?`,
  );
  if (r.code !== 0) throw new Error(`hook exited ${r.code}`);
  if (r.out) answered++;
  withDaemon.push(r.ms);
}
const without: number[] = [];
for (let i = 0; i < Math.min(N, 30); i++) {
  const r = await once(empty, 'How do we deploy to staging?');
  if (r.code !== 0 || r.out)
    throw new Error('with no daemon the hook must print nothing and exit 0');
  without.push(r.ms);
}
await daemon.close();
rmSync(home, { recursive: true, force: true });
rmSync(empty, { recursive: true, force: true });

const f = (x: number) => `${x.toFixed(0)} ms`;
console.log('| `loci hook prompt-submit` (a process per prompt) | runs | p50 | p95 | max |');
console.log('|---|---:|---:|---:|---:|');
console.log(
  `| daemon running, 2,000 memories (${answered} answered with memories) | ${N} | ${f(pct(withDaemon, 50))} | ${f(pct(withDaemon, 95))} | ${f(Math.max(...withDaemon))} |`,
);
console.log(
  `| no daemon (prints nothing, exit 0) | ${without.length} | ${f(pct(without, 50))} | ${f(pct(without, 95))} | ${f(Math.max(...without))} |`,
);
console.log(
  `\n${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}.`,
);
