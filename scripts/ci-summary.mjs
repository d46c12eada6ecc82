#!/usr/bin/env node
// Prints CI's last line, `N passed, N failed`, from the JSON reports in .ci/out (vitest,
// MCP conformance, the npm package's checks, the browser tests of e2e/run.ts in
// Playwright's stats shape) plus the number of steps (build, lint, …) that failed outright.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = Number(process.argv[2] ?? 0);

const vitest = '.ci/out/vitest.json';
if (existsSync(vitest)) {
  const r = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
}
const e2e = '.ci/out/e2e.json';
if (existsSync(e2e)) {
  const r = JSON.parse(readFileSync(e2e, 'utf8'));
  passed += r.stats?.expected ?? 0;
  failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
}
// scripts/conformance.mjs --report: scenarios that passed, and unexpected failures plus
// stale baseline entries (expected failures count as neither).
const conformance = '.ci/out/conformance.json';
if (existsSync(conformance)) {
  const r = JSON.parse(readFileSync(conformance, 'utf8'));
  passed += r.passed ?? 0;
  failed += r.failed ?? 0;
}
// scripts/pack-test.mjs --report: the checks of the npm package, installed and run.
const pack = '.ci/out/pack.json';
if (existsSync(pack)) {
  const r = JSON.parse(readFileSync(pack, 'utf8'));
  passed += r.passed ?? 0;
  failed += r.failed ?? 0;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
