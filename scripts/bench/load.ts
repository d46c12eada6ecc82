// npm run bench:load — 50 MCP clients over Streamable HTTP against `loci serve` (its own
// process, as users run it), 10,000 mixed calls in total (LOAD_CLIENTS, LOAD_OPS to
// change), the WAL file sampled throughout. Fails (exit 1) on any error or lost write.
// Prints recall p95 under load and the largest WAL seen; writes bench-results/load.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { findOwner } from '../../src/main/http/client';
import { runLoad } from './loadRun';

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 50);
const OPS = Number(process.env.LOAD_OPS ?? 10_000);
const DEADLINE_MS = Number(process.env.LOAD_DEADLINE_MS ?? 15 * 60_000);

const home = mkdtempSync(join(tmpdir(), 'loci-bench-load-'));
const root = new URL('../..', import.meta.url).pathname;
const daemon = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--port', '0'],
  {
    cwd: root,
    env: { ...process.env, LOCI_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const stop = async () => {
  if (daemon.exitCode !== null) return;
  daemon.kill('SIGTERM');
  await new Promise((r) => daemon.once('exit', r));
};
setTimeout(() => {
  process.stderr.write(`bench:load: still running after ${DEADLINE_MS / 1000} s; stopping.\n`);
  void stop().then(() => process.exit(1));
}, DEADLINE_MS).unref();

const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  daemon.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /MCP endpoint:\s+(\S+)/.exec(out);
    if (m) resolve(m[1] as string);
  });
  daemon.once('exit', (code) => reject(new Error(`the daemon exited (${code}) before serving`)));
});
const owner = findOwner(home);
if (!owner) throw new Error('the daemon is serving but left no lock file');

let last = 0;
const report = await runLoad({
  url,
  token: owner.token,
  dbFile: join(home, 'stores', 'default', 'loci.db'),
  clients: CLIENTS,
  ops: OPS,
  onProgress: (done) => {
    if (done - last >= 1000) {
      last = done;
      process.stderr.write(`  ${done}/${OPS}\n`);
    }
  },
});
await stop();
rmSync(home, { recursive: true, force: true });

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(
  join(root, 'bench-results/load.json'),
  `${JSON.stringify({ machine, ...report, errors: report.errors.slice(0, 20) }, null, 2)}\n`,
);
console.log(`\n${machine}`);
console.log(
  `${report.clients} clients, ${report.ops} calls in ${report.seconds} s (${report.ops_per_s}/s): ` +
    `${report.errors.length} errors, ${report.lost_writes} lost writes of ${report.writes}; ` +
    `WAL at most ${mib(report.wal_max_bytes)}, ${mib(report.wal_end_bytes)} at the end`,
);
console.log('| tool | p50 ms | p95 ms |\n|---|---:|---:|');
for (const k of Object.keys(report.p50_ms) as (keyof typeof report.p50_ms)[])
  console.log(`| ${k} | ${report.p50_ms[k]} | ${report.p95_ms[k]} |`);
if (report.errors.length) console.error(`first errors:\n${report.errors.slice(0, 5).join('\n')}`);
process.exit(report.errors.length === 0 && report.lost_writes === 0 ? 0 : 1);
