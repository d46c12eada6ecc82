#!/usr/bin/env node
// npm run test:pack — the npm package as a user gets it: packs it (scripts/pack.mjs),
// installs the tarball into an empty folder offline (from the npm cache `npm ci` filled),
// then runs the installed `loci`:
//   a. `loci mcp` over stdio with the MCP SDK's client: initialize, tools/list, remember,
//      recall;
//   b. `loci serve` on 127.0.0.1 (a free port): the observatory at /, /mcp refused
//      without the token and working with it (Streamable HTTP), a clean stop;
//   c. the MCP Inspector CLI against both: tools/list, tools/call remember and recall,
//      resources/list, prompts/list, each answer parsed as JSON and checked.
// Every check is a named case; `--report` writes {passed, failed, cases, timings}.
// Everything is bounded in time; child processes are killed and temporary folders
// removed on every exit.
//
//   node scripts/pack-test.mjs [--report <file.json>] [--timeout <seconds>] [--keep]
//
// The install: a published package's npm-shrinkwrap.json is honoured because the
// registry marks the version as shrinkwrapped (`_hasShrinkwrap`); npm does not look for
// one in a local tarball (`npm install ./x.tgz` resolves every dependency afresh, from
// package metadata). So the empty folder gets a package.json and a package-lock.json that
// name the tarball with `hasShrinkwrap: true`, exactly what npm records for a
// shrinkwrapped package from the registry, and `npm install --offline` takes the tree
// from the tarball's npm-shrinkwrap.json.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    report: { type: 'string' },
    timeout: { type: 'string', default: '1200' },
    keep: { type: 'boolean', default: false },
  },
});
const totalMs = Number(opts.timeout) * 1000;
if (!Number.isFinite(totalMs) || totalMs <= 0) {
  console.error(`pack-test: --timeout must be a number of seconds, got "${opts.timeout}"`);
  process.exit(2);
}

/** Per step: the install compiles better-sqlite3 where no prebuilt binary comes down. */
const LIMITS = { pack: 180_000, install: 900_000, call: 30_000, serve: 60_000, inspector: 60_000 };
const TOOLS = ['remember', 'recall', 'read', 'forget', 'map', 'verify'];
const inspectorBuild = join(root, 'node_modules/@modelcontextprotocol/inspector-cli/build');

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'loci-pack-test-'));
const cases = [];
const timings = {};
/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** @type {Set<{ close(): Promise<void> }>} */
const clients = new Set();

function log(line) {
  process.stdout.write(`pack-test: ${line}\n`);
}

function phase(name) {
  log(`── ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** One named case: runs `fn` within `ms`, records the outcome, returns fn's value or null. */
async function check(name, fn, ms = LIMITS.call) {
  const t0 = Date.now();
  try {
    const value = await withTimeout(Promise.resolve().then(fn), ms, name);
    const elapsed = Date.now() - t0;
    cases.push({ name, ok: true, ms: elapsed });
    log(`ok    ${name} (${elapsed} ms)`);
    return value ?? true;
  } catch (err) {
    const elapsed = Date.now() - t0;
    const error = err instanceof Error ? err.message : String(err);
    cases.push({ name, ok: false, ms: elapsed, error });
    log(`FAIL  ${name} (${elapsed} ms): ${error}`);
    return null;
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Runs a command in its own process group (a compile's children are killed with it) and
 * resolves with {code, stdout, stderr}; rejects after `ms`.
 */
function run(command, args, { cwd, env, ms, input } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.stdin.end(input ?? '');
    const timer = setTimeout(() => {
      killTree(child);
      reject(
        new Error(
          `${command} ${args.join(' ')}: still running after ${ms / 1000} s\n${tail(stderr)}`,
        ),
      );
    }, ms);
    child.on('error', (err) => {
      clearTimeout(timer);
      children.delete(child);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolvePromise({ code: code ?? (signal ? 128 : 0), signal, stdout, stderr });
    });
  });
}

/** An abort signal that fires after `ms` (a request must not outlive its case). */
function timeoutSignal(ms) {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms).unref();
  return controller.signal;
}

function tail(text, lines = 15) {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function killTree(child, signal = 'SIGKILL') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function waitForExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => resolvePromise(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise(true);
    });
  });
}

let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    for (const client of clients) await client.close().catch(() => {});
    for (const child of children) {
      killTree(child, 'SIGTERM');
      if (!(await waitForExit(child, 5_000))) killTree(child);
    }
    if (opts.keep) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  })();
  return cleaning;
}

async function finish(extraFailure) {
  if (extraFailure)
    cases.push({ name: extraFailure.name, ok: false, ms: 0, error: extraFailure.error });
  await cleanup();
  timings.total_s = Math.round((Date.now() - started) / 100) / 10;
  const passed = cases.filter((c) => c.ok).length;
  const failed = cases.length - passed;
  if (opts.report) {
    const file = resolve(opts.report);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ passed, failed, timings, cases }, null, 2)}\n`);
  }
  log(
    `${passed} passed, ${failed} failed in ${timings.total_s} s (install ${timings.install_s ?? '–'} s)`,
  );
  process.exit(failed > 0 ? 1 : 0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`interrupted (${signal})`);
    void finish({ name: 'the run was not interrupted', error: signal });
  });
}
setTimeout(() => {
  log(`the whole run took longer than ${totalMs / 1000} s; stopping`);
  void finish({ name: `the whole run ends within ${totalMs / 1000} s`, error: 'timed out' });
}, totalMs).unref();

/** The text of a tool result's first content block. */
function textOf(result) {
  const block = (result?.content ?? []).find((c) => c.type === 'text');
  return block?.text ?? '';
}

/** remember, then recall the same fact with other words; the memory must come back. */
async function rememberRecall(callTool, label, fact, query) {
  const id = await check(`${label}: tools/call remember stores a memory`, async () => {
    const result = await callTool('remember', { content: fact });
    assert(!result.isError, `remember failed: ${textOf(result)}`);
    const memoryId = result.structuredContent?.id ?? /[0-9A-Z]{26}/.exec(textOf(result))?.[0];
    assert(memoryId, `no memory id in the answer: ${JSON.stringify(result).slice(0, 300)}`);
    return memoryId;
  });
  await check(`${label}: tools/call recall finds it`, async () => {
    assert(id, 'nothing was remembered');
    const result = await callTool('recall', { query });
    assert(!result.isError, `recall failed: ${textOf(result)}`);
    const answer = JSON.stringify(result);
    assert(
      answer.includes(id),
      `recall "${query}" did not return ${id}: ${textOf(result).slice(0, 300)}`,
    );
  });
}

async function sdkSession(label, transport) {
  const client = new Client({ name: 'loci-pack-test', version: '1.0.0' });
  clients.add(client);
  try {
    const ok = await check(`${label}: initialize`, async () => {
      await client.connect(transport);
      const info = client.getServerVersion();
      assert(info?.name, `no server info: ${JSON.stringify(info)}`);
      assert(client.getServerCapabilities()?.tools, 'the server declares no tools');
    });
    if (!ok) return;
    await check(`${label}: tools/list has ${TOOLS.join(', ')}`, async () => {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of TOOLS) assert(names.includes(name), `no ${name} in ${names.join(', ')}`);
    });
    await rememberRecall(
      (name, args) => client.callTool({ name, arguments: args }),
      label,
      `The ${label} test service answers on port 7311.`,
      `${label} service port`,
    );
  } finally {
    await client.close().catch(() => {});
    clients.delete(client);
  }
}

/** One Inspector CLI call; its stdout must be JSON. */
async function inspector(targetArgs, method, extra = [], env = process.env) {
  const args = [
    join(inspectorBuild, 'cli.js'),
    '--cli',
    ...targetArgs,
    '--method',
    method,
    ...extra,
  ];
  // The Inspector reads its own package.json as "../package.json" of the working folder.
  const r = await run(process.execPath, args, { cwd: inspectorBuild, env, ms: LIMITS.inspector });
  assert(r.code === 0, `exit ${r.code}: ${tail(r.stderr || r.stdout)}`);
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON: ${r.stdout.slice(0, 300)}`);
  }
}

async function inspectorSuite(label, targetArgs, env) {
  await check(
    `${label}: tools/list`,
    async () => {
      const out = await inspector(targetArgs, 'tools/list', [], env);
      const names = (out.tools ?? []).map((t) => t.name);
      for (const name of TOOLS) assert(names.includes(name), `no ${name} in ${names.join(', ')}`);
    },
    LIMITS.inspector,
  );
  const fact = `The ${label.replace(/\W+/g, ' ')} check stores its results in bucket eleven.`;
  const id = await check(
    `${label}: tools/call remember`,
    async () => {
      const out = await inspector(
        targetArgs,
        'tools/call',
        ['--tool-name', 'remember', '--tool-arg', `content=${fact}`],
        env,
      );
      assert(!out.isError, `remember failed: ${textOf(out)}`);
      const memoryId = out.structuredContent?.id;
      assert(
        /^[0-9A-Z]{26}$/.test(memoryId ?? ''),
        `no memory id: ${JSON.stringify(out).slice(0, 300)}`,
      );
      return memoryId;
    },
    LIMITS.inspector,
  );
  await check(
    `${label}: tools/call recall`,
    async () => {
      assert(id, 'nothing was remembered');
      const out = await inspector(
        targetArgs,
        'tools/call',
        ['--tool-name', 'recall', '--tool-arg', 'query=bucket eleven results'],
        env,
      );
      assert(!out.isError, `recall failed: ${textOf(out)}`);
      assert(
        JSON.stringify(out).includes(id),
        `recall did not return ${id}: ${textOf(out).slice(0, 300)}`,
      );
    },
    LIMITS.inspector,
  );
  await check(
    `${label}: resources/list`,
    async () => {
      const out = await inspector(targetArgs, 'resources/list', [], env);
      const uris = (out.resources ?? []).map((r) => r.uri);
      assert(uris.includes('memory://map'), `no memory://map in ${JSON.stringify(uris)}`);
    },
    LIMITS.inspector,
  );
  await check(
    `${label}: prompts/list`,
    async () => {
      const out = await inspector(targetArgs, 'prompts/list', [], env);
      const names = (out.prompts ?? []).map((p) => p.name);
      assert(names.includes('bootstrap'), `no bootstrap prompt in ${JSON.stringify(names)}`);
    },
    LIMITS.inspector,
  );
}

/** `loci serve` on 127.0.0.1 and a free port; resolves with {child, base, token, output()}. */
async function startServe(loci, env) {
  const child = spawn(loci, ['serve', '--host', '127.0.0.1', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (output += d));
  const until = Date.now() + LIMITS.serve;
  while (Date.now() < until) {
    if (child.exitCode !== null)
      throw new Error(`loci serve exited (${child.exitCode}):\n${tail(output)}`);
    // "  MCP endpoint:  http://127.0.0.1:<port>/mcp" and "  Observatory:   …/#token=<token>"
    const endpoint = /MCP endpoint:\s+(http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(output);
    const token = /Observatory:\s+\S+#token=([A-Za-z0-9_-]+)/.exec(output);
    if (endpoint && token) {
      const health = await fetch(`${endpoint[1]}/health`, {
        signal: timeoutSignal(2_000),
      }).catch(() => null);
      if (health?.ok) return { child, base: endpoint[1], token: token[1], output: () => output };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `loci serve did not print its endpoint and answer /health in time:\n${tail(output)}`,
  );
}

async function main() {
  // 1. Pack.
  phase('pack (scripts/pack.mjs)');
  const dist = join(work, 'dist');
  const tarball = await check(
    'pack: npm pack of the staged package',
    async () => {
      const t0 = Date.now();
      const r = await run(process.execPath, [join(root, 'scripts/pack.mjs'), '--out', dist], {
        cwd: root,
        ms: LIMITS.pack,
      });
      timings.pack_s = Math.round((Date.now() - t0) / 100) / 10;
      assert(r.code === 0, `exit ${r.code}: ${tail(r.stderr || r.stdout)}`);
      const path = r.stdout.trim().split('\n').pop();
      assert(path?.endsWith('.tgz') && existsSync(path), `no tarball: ${tail(r.stdout)}`);
      for (const line of r.stdout.split('\n')) if (line.startsWith('pack:')) log(`  ${line}`);
      return path;
    },
    LIMITS.pack,
  );
  if (!tarball) return;
  await check(
    'pack: the tarball holds the CLI, the observatory and npm-shrinkwrap.json',
    async () => {
      const r = await run('tar', ['-tzf', tarball], { ms: 30_000 });
      assert(r.code === 0, `tar: ${r.stderr}`);
      const files = new Set(r.stdout.split('\n').filter(Boolean));
      for (const need of [
        'package/package.json',
        'package/npm-shrinkwrap.json',
        'package/README.md',
        'package/LICENSE',
        'package/bin/loci.js',
        'package/out/main/cli.js',
        'package/out/main/hook.js',
        'package/out/main/embedWorker.js',
        'package/out/renderer/index.html',
      ])
        assert(files.has(need), `${need} is missing`);
      for (const never of ['package/out/main/index.js', 'package/out/preload/index.cjs'])
        assert(!files.has(never), `${never} should not be published`);
      assert(
        ![...files].some((f) => /\.(ts|tsx|map)$/.test(f)),
        'sources or source maps are in it',
      );
    },
  );

  // 2. Install offline, the way npm installs a shrinkwrapped package from the registry.
  phase('install the tarball offline (native modules compile here)');
  const app = join(work, 'app');
  mkdirSync(app);
  const pkg = JSON.parse(
    (await run('tar', ['-xzOf', tarball, 'package/package.json'], { ms: 30_000 })).stdout,
  );
  const shrinkwrap = JSON.parse(
    (await run('tar', ['-xzOf', tarball, 'package/npm-shrinkwrap.json'], { ms: 30_000 })).stdout,
  );
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  const spec = `file:${tarball}`;
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'loci-pack-test', version: '0.0.0', private: true, dependencies: { [pkg.name]: spec } }, null, 2)}\n`,
  );
  writeFileSync(
    join(app, 'package-lock.json'),
    `${JSON.stringify(
      {
        name: 'loci-pack-test',
        version: '0.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'loci-pack-test', version: '0.0.0', dependencies: { [pkg.name]: spec } },
          [`node_modules/${pkg.name}`]: {
            version: pkg.version,
            resolved: spec,
            integrity,
            hasShrinkwrap: true,
            license: pkg.license,
            bin: pkg.bin,
            engines: pkg.engines,
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  const installEnv = {
    ...process.env,
    npm_config_nodedir: '/usr',
    npm_config_onnxruntime_node_install: 'skip',
    ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
    npm_config_update_notifier: 'false',
  };
  let installLog = '';
  const installed = await check(
    'install: npm install --offline of the tarball succeeds',
    async () => {
      const t0 = Date.now();
      const r = await run(
        'npm',
        ['install', '--offline', '--no-audit', '--no-fund', '--loglevel', 'http'],
        {
          cwd: app,
          env: installEnv,
          ms: LIMITS.install,
        },
      );
      if (r.code === 0) timings.install_s = Math.round((Date.now() - t0) / 100) / 10;
      installLog = `${r.stdout}\n${r.stderr}`;
      writeFileSync(join(work, 'install.log'), installLog);
      assert(r.code === 0, `npm install exit ${r.code}:\n${tail(installLog, 25)}`);
      log(
        `  installed in ${timings.install_s} s: ${/added \d+ packages?[^\n]*/.exec(r.stdout)?.[0] ?? ''}`,
      );
    },
    LIMITS.install,
  );
  if (!installed) return;
  const pkgDir = join(app, 'node_modules', pkg.name);
  const loci = join(app, 'node_modules', '.bin', 'loci');
  await check('install: no package metadata was fetched (the shrinkwrap was used)', () => {
    // With --loglevel http npm logs each tarball it takes from the cache ("http cache"),
    // and each request for package metadata ("http fetch GET").
    const lines = installLog.split('\n');
    const fetches = lines.filter((l) => /http fetch GET/.test(l));
    assert(fetches.length === 0, `${fetches.length} metadata requests, e.g. ${fetches[0]}`);
    const fromCache = lines.filter((l) => /http cache .*\(cache hit\)/.test(l)).length;
    assert(
      fromCache > 0,
      'npm logged no tarball taken from the cache: is --loglevel http in effect?',
    );
  });
  await check('install: the installed tree is the shrinkwrap’s', () => {
    const hidden = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8'));
    const prefix = `node_modules/${pkg.name}/`;
    const got = new Set(
      Object.keys(hidden.packages)
        .filter((p) => p.startsWith(prefix))
        .map((p) => p.slice(prefix.length)),
    );
    for (const path of got)
      assert(shrinkwrap.packages[path], `${path} is not in npm-shrinkwrap.json`);
    for (const [path, entry] of Object.entries(shrinkwrap.packages)) {
      if (path === '' || entry.optional) continue;
      assert(got.has(path), `${path} was not installed`);
      const v = hidden.packages[prefix + path]?.version;
      assert(v === entry.version, `${path}: ${v} installed, ${entry.version} in the shrinkwrap`);
    }
  });
  await check('install: the native SQLite driver was built or downloaded', () => {
    const addon = join(
      pkgDir,
      'node_modules/better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node',
    );
    assert(existsSync(addon), `${addon} is missing: its install script did not run`);
    const warned = /install scripts not yet covered by allowScripts/.test(installLog);
    log(
      `  npm ${warned ? 'warned that' : 'did not warn that'} install scripts are not covered by allowScripts`,
    );
  });
  await check('install: `loci --help` runs from node_modules/.bin', async () => {
    const r = await run(loci, ['--help'], {
      env: { ...process.env, LOCI_HOME: join(work, 'home-help') },
      ms: 30_000,
    });
    assert(
      r.code === 0 && /serve/.test(r.stdout) && /mcp/.test(r.stdout),
      `exit ${r.code}: ${tail(r.stdout + r.stderr)}`,
    );
  });

  // a. stdio with the SDK's client.
  phase('a. loci mcp over stdio (MCP SDK client)');
  const stdioHome = join(work, 'home-stdio');
  mkdirSync(stdioHome);
  const stdioEnv = {
    ...getDefaultEnvironment(),
    LOCI_HOME: stdioHome,
    LOCI_MODEL_PATH: '',
    NO_COLOR: '1',
  };
  await sdkSession(
    'stdio',
    new StdioClientTransport({ command: loci, args: ['mcp'], env: stdioEnv, stderr: 'pipe' }),
  );

  // c (stdio). The Inspector CLI starts `loci mcp` itself.
  phase('c. MCP Inspector CLI over stdio');
  await inspectorSuite('inspector stdio', [loci, 'mcp'], { ...process.env, ...stdioEnv });

  // b. The daemon.
  phase('b. loci serve (observatory and Streamable HTTP)');
  const serveHome = join(work, 'home-serve');
  mkdirSync(serveHome);
  const serveEnv = { ...process.env, LOCI_HOME: serveHome, LOCI_MODEL_PATH: '', NO_COLOR: '1' };
  const daemon = await check(
    'serve: starts on 127.0.0.1 and answers /health',
    () => startServe(loci, serveEnv),
    LIMITS.serve,
  );
  if (!daemon) return;
  await check('serve: GET / is the observatory (HTML and its script)', async () => {
    const res = await fetch(`${daemon.base}/`, { signal: timeoutSignal(10_000) });
    assert(res.status === 200, `GET / → ${res.status}`);
    assert(
      /text\/html/.test(res.headers.get('content-type') ?? ''),
      `content-type ${res.headers.get('content-type')}`,
    );
    const html = await res.text();
    assert(/<html/i.test(html), 'no <html> in the page');
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    assert(script, 'the page names no script');
    const js = await fetch(new URL(script, `${daemon.base}/`), {
      signal: timeoutSignal(10_000),
    });
    assert(js.status === 200, `GET ${script} → ${js.status}`);
  });
  await check('serve: /mcp without the token is refused (401)', async () => {
    const res = await fetch(`${daemon.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      signal: timeoutSignal(10_000),
    });
    assert(res.status === 401, `status ${res.status}`);
  });
  await sdkSession(
    'http',
    new StreamableHTTPClientTransport(new URL(`${daemon.base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${daemon.token}` } },
    }),
  );

  // c (HTTP). The Inspector CLI against the daemon. (Its --server-url option is ignored in
  // --cli mode: the URL is the target.)
  phase('c. MCP Inspector CLI over Streamable HTTP');
  await inspectorSuite('inspector http', [
    `${daemon.base}/mcp`,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${daemon.token}`,
  ]);

  await check(
    'serve: stops cleanly on SIGTERM',
    async () => {
      process.kill(-daemon.child.pid, 'SIGTERM');
      const exited = await waitForExit(daemon.child, 15_000);
      assert(exited, `still running 15 s after SIGTERM:\n${tail(daemon.output())}`);
      assert(
        daemon.child.exitCode === 0,
        `exit ${daemon.child.exitCode ?? daemon.child.signalCode}:\n${tail(daemon.output())}`,
      );
      assert(/Stopping/.test(daemon.output()), 'it did not say it was stopping');
    },
    20_000,
  );
}

try {
  log(`working in ${work}`);
  await main();
} catch (err) {
  await finish({
    name: 'the run completes',
    error: err instanceof Error ? err.stack : String(err),
  });
}
await finish();
