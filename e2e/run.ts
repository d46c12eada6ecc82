// Browser end-to-end tests: builds if stale, seeds a temporary data directory through a
// real `loci serve` (the built bin/loci.js, serving out/renderer), drives Debian's
// Chromium with playwright-core (never a downloaded browser), runs every exported test
// of e2e/*.spec.ts in declaration order with a time bound, and writes
// .ci/out/e2e.json (counted by scripts/ci-summary.mjs). Exits non-zero on any failure.
//   npm run e2e [-- --grep <text>] [--keep] [--no-report]
//   (--keep leaves the data directory; --no-report leaves .ci/out/e2e.json alone, for
//   `npm run bench:atlas`, which runs only the Atlas's frame-rate sampling)
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createApi } from './harness/api';
import { formatViolations, runAxe } from './harness/axe';
import { startDaemon, type RunningDaemon } from './harness/daemon';
import { seed } from './harness/seed';
import { SkipTest, type E2EContext, type E2ETest } from './harness/types';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEST_TIMEOUT_MS = 45_000;
const RUN_TIMEOUT_MS = 10 * 60_000;
const VIEWPORT = { width: 1280, height: 800 };
const CHROMIUM = process.env.LOCI_CHROMIUM ?? '/usr/bin/chromium';

const argv = process.argv.slice(2);
// For the watchdog: a run that gives up must not leave a daemon behind.
let activeDaemon: RunningDaemon | null = null;
const grep = argv.includes('--grep') ? argv[argv.indexOf('--grep') + 1] : undefined;
const keep = argv.includes('--keep');
const report = !argv.includes('--no-report');

interface Result {
  spec: string;
  name: string;
  ok: boolean;
  duration_ms: number;
  error?: string;
  /** Why the test did not run here (it counts as neither passed nor failed). */
  skipped?: string;
}

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function ensureBuilt(): void {
  const html = join(ROOT, 'out/renderer/index.html');
  const cli = join(ROOT, 'out/main/cli.js');
  const built =
    existsSync(html) && existsSync(cli)
      ? Math.min(statSync(html).mtimeMs, statSync(cli).mtimeMs)
      : 0;
  if (built > newest(join(ROOT, 'src'))) return;
  console.log('e2e: building (out/ is older than src/)…');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('e2e: the build failed');
}

/** Exported test functions in the order the file declares them. */
async function loadSpec(file: string): Promise<[string, E2ETest][]> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const declared = [
    ...readFileSync(file, 'utf8').matchAll(/^export\s+(?:async\s+)?function\s+(\w+)/gm),
  ].map((m) => m[1] as string);
  const names = [...new Set([...declared, ...Object.keys(mod).sort()])];
  return names.filter((n) => typeof mod[n] === 'function').map((n) => [n, mod[n] as E2ETest]);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function runTest(
  browser: Browser,
  daemon: RunningDaemon,
  shared: Pick<E2EContext, 'api' | 'ids' | 'dataDir'>,
  spec: string,
  name: string,
  test: E2ETest,
): Promise<Result> {
  const start = Date.now();
  const context = await browser.newContext({
    viewport: VIEWPORT,
    colorScheme: 'light',
    // No transitions: axe must not measure a colour halfway through a theme change.
    reducedMotion: 'reduce',
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  // Two frames: the new colour scheme has been styled and painted.
  const nextFrames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const t: E2EContext = {
    page,
    baseUrl: daemon.baseUrl,
    observatoryUrl: daemon.observatoryUrl,
    token: daemon.token,
    ...shared,
    async open(route = '/') {
      const url =
        route === '/'
          ? daemon.observatoryUrl
          : `${daemon.observatoryUrl}&route=${encodeURIComponent(route)}`;
      await page.goto(url);
      await page.locator('.shell').waitFor();
    },
    async screenshot(shot) {
      const dir = join(ROOT, 'docs/screenshots');
      mkdirSync(dir, { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await nextFrames();
        const file = join(dir, scheme === 'light' ? `${shot}.png` : `${shot}-dark.png`);
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    },
    async checkA11y(label) {
      const problems: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await nextFrames();
        const report = await runAxe(page);
        if (report.warnings.length)
          console.log(
            `    axe (${label}, ${scheme}) warnings:\n${formatViolations(report.warnings)}`,
          );
        if (report.failures.length)
          problems.push(`axe (${label}, ${scheme}):\n${formatViolations(report.failures)}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      if (problems.length)
        throw new Error(`Accessibility violations (serious or critical):\n${problems.join('\n')}`);
    },
    skip(reason) {
      throw new SkipTest(reason);
    },
  };
  let error: string | undefined;
  let skipped: string | undefined;
  try {
    await withTimeout(test(t), TEST_TIMEOUT_MS, `${spec} › ${name}`);
    if (pageErrors.length) error = `Uncaught errors in the page:\n  ${pageErrors.join('\n  ')}`;
  } catch (err) {
    if (err instanceof SkipTest) skipped = err.message;
    else error = (err as Error)?.stack ?? String(err);
  }
  if (error) {
    const dir = join(ROOT, 'e2e/artifacts');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${spec}-${name}.png`) }).catch(() => undefined);
  }
  await context.close().catch(() => undefined);
  return {
    spec,
    name,
    ok: !error,
    duration_ms: Date.now() - start,
    ...(error ? { error } : {}),
    ...(skipped ? { skipped } : {}),
  };
}

async function main(): Promise<number> {
  const started = Date.now();
  const specs = readdirSync(join(ROOT, 'e2e'))
    .filter((f) => f.endsWith('.spec.ts'))
    .sort()
    .map((f) => join(ROOT, 'e2e', f));
  if (!existsSync(CHROMIUM))
    throw new Error(
      `e2e: no Chromium at ${CHROMIUM} (apt-get install chromium, or set LOCI_CHROMIUM)`,
    );
  ensureBuilt();

  const dataDir = mkdtempSync(join(tmpdir(), 'loci-e2e-'));
  let daemon: RunningDaemon | null = null;
  let browser: Browser | null = null;
  const results: Result[] = [];
  try {
    daemon = await startDaemon(ROOT, dataDir);
    activeDaemon = daemon;
    const api = createApi(daemon.baseUrl, daemon.token);
    const ids = await withTimeout(seed(api), 60_000, 'seeding');
    console.log(
      `e2e: daemon at ${daemon.baseUrl}, ${Object.keys(ids).length} memories seeded in ${dataDir}`,
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    for (const file of specs) {
      const spec = basename(file, '.spec.ts');
      for (const [name, test] of await loadSpec(file)) {
        if (grep && !`${spec} ${name}`.includes(grep)) continue;
        const r = await runTest(browser, daemon, { api, ids, dataDir }, spec, name, test);
        results.push(r);
        const secs = (r.duration_ms / 1000).toFixed(1);
        if (r.skipped) console.log(`  - ${spec} › ${name} skipped: ${r.skipped}`);
        else console.log(`${r.ok ? '  ✓' : '  ✗'} ${spec} › ${name} (${secs} s)`);
        if (r.error) console.log(`    ${r.error.replace(/\n/g, '\n    ')}`);
      }
    }
  } catch (err) {
    results.push({
      spec: 'harness',
      name: 'setup',
      ok: false,
      duration_ms: 0,
      error: (err as Error)?.stack ?? String(err),
    });
    console.log(`  ✗ harness: ${(err as Error)?.message ?? err}`);
    // The token of a throwaway data directory, but still: no tokens in logs.
    if (daemon)
      console.log(`    daemon output:\n${daemon.output().replaceAll(daemon.token, '<token>')}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await daemon?.stop();
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
    else console.log(`e2e: data directory kept at ${dataDir}`);
  }

  const skipped = results.filter((r) => r.skipped).length;
  const passed = results.filter((r) => r.ok && !r.skipped).length;
  const failed = results.filter((r) => !r.ok).length;
  // Playwright's report shape (stats.expected / unexpected / flaky), which ci-summary reads.
  if (report) mkdirSync(join(ROOT, '.ci/out'), { recursive: true });
  if (report)
    writeFileSync(
      join(ROOT, '.ci/out/e2e.json'),
      `${JSON.stringify({ stats: { expected: passed, unexpected: failed, flaky: 0, skipped, duration: Date.now() - started }, tests: results }, null, 2)}\n`,
    );
  console.log(
    `e2e: ${passed} passed, ${failed} failed, ${skipped} skipped (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return failed > 0 || results.length === 0 ? 1 : 0;
}

const watchdog = setTimeout(() => {
  console.error(`e2e: the run took longer than ${RUN_TIMEOUT_MS / 60_000} minutes; giving up`);
  activeDaemon?.child.kill('SIGKILL');
  process.exit(1);
}, RUN_TIMEOUT_MS);
watchdog.unref();

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error)?.stack ?? err);
    process.exit(1);
  },
);
