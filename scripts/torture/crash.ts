// npm run torture — the full crash-durability run: 200 SIGKILLs of `loci serve` while
// 8 MCP clients write (TORTURE_KILLS, TORTURE_CLIENTS, TORTURE_SEED to change). Every
// restart is checked (see crashHarness.ts); the first failed check stops the run with
// exit code 1. Writes bench-results/torture-crash.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { runCrashTorture } from './crashHarness';

const kills = Number(process.env.TORTURE_KILLS ?? 200);
const clients = Number(process.env.TORTURE_CLIENTS ?? 8);
const seed = Number(process.env.TORTURE_SEED ?? Date.now() % 100_000);

process.stdout.write(`crash torture: ${kills} kills, ${clients} clients, seed ${seed}\n`);
try {
  const report = await runCrashTorture({
    kills,
    clients,
    minKillMs: 100,
    maxKillMs: 1500,
    seed,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    'bench-results/torture-crash.json',
    `${JSON.stringify({ seed, machine, ...report }, null, 2)}\n`,
  );
  process.stdout.write(
    `${report.kills} kills in ${(report.duration_ms / 1000).toFixed(0)} s: every check passed after every restart. ` +
      `Acknowledged: ${JSON.stringify(report.acknowledged)}; in-flight updates found committed: ${report.inflight_committed}; ` +
      `final store ${report.memories} memories, ${report.audit_entries} audit entries.\n`,
  );
} catch (err) {
  process.stderr.write(`crash torture FAILED (seed ${seed}): ${(err as Error).message}\n`);
  process.exit(1);
}
