#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, server scenarios)
// against a real daemon: `loci serve` on 127.0.0.1, a free port, a throwaway data
// directory and no embedding model. Scenarios listed in conformance-baseline.yml are
// expected to fail (each says why); the run fails on any other failing scenario, and on
// a baselined one that now passes (the tool's own rule: a stale baseline is an error).
//
//   node scripts/conformance.mjs [--built] [--scenario <name>] [--baseline <file.yml>]
//                                [--report <file.json>] [--timeout <seconds>] [--verbose]
//
// --built      serve with the built CLI (bin/loci.js → out/main/cli.js) instead of the
//              sources through tsx.
// --scenario   run one scenario instead of the active suite.
// --baseline   the expected failures (default: conformance-baseline.yml at the root).
// --report     also write {passed, failed, expected_failures, scenarios} as JSON (CI's
//              summary reads it).
// --timeout    give up, and fail, after this many seconds in all (default 300).
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

const { values: opts } = parseArgs({
  options: {
    built: { type: 'boolean', default: false },
    scenario: { type: 'string' },
    baseline: { type: 'string' },
    report: { type: 'string' },
    timeout: { type: 'string', default: '300' },
    verbose: { type: 'boolean', default: false },
  },
});
const timeoutMs = Number(opts.timeout) * 1000;
if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
  console.error(`conformance: --timeout must be a number of seconds, got "${opts.timeout}"`);
  process.exit(2);
}

const baselinePath = resolve(opts.baseline ?? join(root, 'conformance-baseline.yml'));
if (!existsSync(baselinePath)) {
  console.error(`conformance: no baseline at ${baselinePath}`);
  process.exit(2);
}
const conformancePkgPath = require.resolve('@modelcontextprotocol/conformance/package.json');
const conformancePkg = JSON.parse(readFileSync(conformancePkgPath, 'utf8'));
const conformanceBin = join(dirname(conformancePkgPath), conformancePkg.bin.conformance);

const started = Date.now();
const deadline = started + timeoutMs;
const work = mkdtempSync(join(tmpdir(), 'loci-conformance-'));
const dataDir = join(work, 'home');
const resultsDir = join(work, 'results');
mkdirSync(dataDir);
mkdirSync(resultsDir);

/** @type {import('node:child_process').ChildProcess | undefined} */
let daemon;
/** @type {import('node:child_process').ChildProcess | undefined} */
let runner;
let daemonLog = '';

function log(line) {
  process.stdout.write(`conformance: ${line}\n`);
}

function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stop(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await waitForExit(child, graceMs))) {
    child.kill('SIGKILL');
    await waitForExit(child, 5_000);
  }
}

/** Stops both processes and removes the work directory; every caller awaits the same run. */
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    await stop(runner, 2_000);
    await stop(daemon);
    rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = true;
    log(`interrupted (${signal}); stopping`);
    void cleanup().then(() => process.exit(130));
  });
}

function startDaemon() {
  const cli = opts.built
    ? [join(root, 'bin/loci.js')]
    : ['--import', 'tsx', join(root, 'src/main/cli.ts')];
  if (opts.built && !existsSync(join(root, 'out/main/cli.js'))) {
    throw new Error('--built: out/main/cli.js is missing; run `npm run build` first');
  }
  // --no-auth: the conformance client cannot send a bearer token. The daemon only
  // allows it on a loopback address, which is what the DNS-rebinding scenario expects.
  const args = [...cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--no-auth'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOCI_HOME: dataDir, LOCI_MODEL_PATH: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => (daemonLog += d));
  child.stderr.on('data', (d) => (daemonLog += d));
  return child;
}

async function waitForEndpoint(child) {
  // `loci serve` prints "MCP endpoint:  http://127.0.0.1:<port>/mcp" once it listens.
  const until = Math.min(deadline, Date.now() + 60_000);
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the daemon exited early (${child.exitCode ?? child.signalCode})`);
    }
    const m = /MCP endpoint:\s+(http:\/\/\S+)\/mcp/.exec(daemonLog);
    if (m) {
      const base = m[1];
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), 2_000);
      try {
        const res = await fetch(`${base}/health`, { signal: abort.signal });
        if (res.ok) return base;
      } catch {
        // not answering yet
      } finally {
        clearTimeout(timer);
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the daemon did not answer /health in time');
}

function runConformance(url) {
  const args = [conformanceBin, 'server', '--url', url, '--expected-failures', baselinePath];
  args.push('--output-dir', resultsDir);
  if (opts.scenario) args.push('--scenario', opts.scenario);
  if (opts.verbose) args.push('--verbose');
  log(`running ${opts.scenario ?? 'the active suite'} against ${url}`);
  const child = spawn(process.execPath, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  runner = child;
  child.stdout.pipe(process.stdout);
  child.stderr.pipe(process.stderr);
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        log(`timed out after ${Math.round(timeoutMs / 1000)} s; stopping the suite`);
        child.kill('SIGKILL');
      },
      Math.max(0, deadline - Date.now()),
    );
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** The baseline's `server:` list, read with the YAML parser the tool itself uses. */
function readBaseline() {
  const { parse } = createRequire(conformancePkgPath)('yaml');
  const doc = parse(readFileSync(baselinePath, 'utf8')) ?? {};
  return new Set(Array.isArray(doc.server) ? doc.server.map(String) : []);
}

/** Per scenario: its checks, from <results>/server-<scenario>-<timestamp>/checks.json. */
function readResults() {
  const scenarios = new Map();
  for (const dir of readdirSync(resultsDir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
    const file = join(resultsDir, dir, 'checks.json');
    if (!m || !existsSync(file)) continue;
    scenarios.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
  }
  return scenarios;
}

function summarize(exitCode) {
  const baseline = readBaseline();
  const results = readResults();
  const rows = [];
  for (const [name, checks] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
    // The tool's rule: a scenario fails on any FAILURE or WARNING check.
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const expected = baseline.has(name);
    const outcome = bad.length
      ? expected
        ? 'expected failure'
        : 'FAILED'
      : expected
        ? 'STALE (passes, remove from baseline)'
        : 'passed';
    rows.push({ name, outcome, bad });
  }
  const count = (o) => rows.filter((r) => r.outcome === o).length;
  const passed = count('passed');
  const expectedFailures = count('expected failure');
  const unexpected = rows.filter((r) => r.outcome === 'FAILED');
  const stale = rows.filter((r) => r.outcome.startsWith('STALE'));

  process.stdout.write('\n=== Loci MCP conformance ===\n');
  for (const r of rows) process.stdout.write(`  ${r.outcome.padEnd(16)} ${r.name}\n`);
  for (const r of unexpected) {
    process.stdout.write(`\n${r.name}:\n`);
    for (const c of r.bad) {
      process.stdout.write(`  [${c.status}] ${c.id}: ${c.errorMessage ?? c.description}\n`);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\n${rows.length} scenarios: ${passed} passed, ${expectedFailures} expected failures (baselined), ` +
      `${unexpected.length} unexpected failures, ${stale.length} stale baseline entries (${seconds} s)\n`,
  );
  if (rows.length === 0) log('no scenario produced results');
  const ok = exitCode === 0 && rows.length > 0 && unexpected.length === 0 && stale.length === 0;
  log(ok ? 'OK' : 'FAILED');
  if (opts.report) {
    mkdirSync(dirname(opts.report), { recursive: true });
    writeFileSync(
      opts.report,
      JSON.stringify(
        {
          ok,
          passed,
          failed: Math.max(unexpected.length + stale.length, ok ? 0 : 1),
          expected_failures: expectedFailures,
          scenarios: Object.fromEntries(rows.map((r) => [r.name, r.outcome])),
        },
        null,
        2,
      ),
    );
  }
  return ok;
}

let ok = false;
try {
  daemon = startDaemon();
  const base = await waitForEndpoint(daemon);
  log(`daemon up at ${base} (data in ${dataDir})`);
  const code = await runConformance(`${base}/mcp`);
  if (interrupted) await new Promise(() => {}); // the signal handler exits
  const died = daemon.exitCode !== null || daemon.signalCode !== null;
  if (died) {
    log('the daemon died during the run');
    process.stdout.write(daemonLog);
  }
  ok = summarize(died ? 1 : code);
} catch (err) {
  log(`error: ${err instanceof Error ? err.message : String(err)}`);
  if (daemonLog) process.stdout.write(`--- daemon output ---\n${daemonLog}\n---\n`);
  if (opts.report) {
    mkdirSync(dirname(opts.report), { recursive: true });
    writeFileSync(opts.report, JSON.stringify({ ok: false, passed: 0, failed: 1 }, null, 2));
  }
} finally {
  await cleanup();
}
process.exit(ok ? 0 : 1);
