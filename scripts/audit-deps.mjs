#!/usr/bin/env node
// npm run audit:deps — `npm audit --omit=dev` against audit-waivers.json: every advisory
// for a production dependency must be fixed or waived there with a reason; a waiver that
// no longer matches an advisory is reported as stale. When the registry's audit endpoint
// cannot be reached (some mirrors refuse it), it says so and exits 2: not clean, not failed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const waivers = JSON.parse(readFileSync(new URL('../audit-waivers.json', import.meta.url), 'utf8'));
let out;
try {
  out = execFileSync('npm', ['audit', '--omit=dev', '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
} catch (err) {
  // npm audit exits 1 when it finds advisories; its JSON is still on stdout.
  out = err.stdout ?? '';
}
let report;
try {
  report = JSON.parse(out);
} catch {
  report = null;
}
if (!report || report.error || !report.vulnerabilities) {
  const why = report?.error?.summary || report?.message || 'no JSON answer';
  console.log(`audit:deps: npm audit could not run here (${why}); nothing was checked.`);
  process.exit(2);
}
const found = Object.values(report.vulnerabilities).flatMap((v) =>
  v.via
    .filter((via) => typeof via === 'object')
    .map((via) => ({
      package: v.name,
      advisory: via.url,
      severity: via.severity,
      title: via.title,
    })),
);
const waived = new Set(waivers.waivers.map((w) => `${w.package} ${w.advisory}`));
const open = found.filter((f) => !waived.has(`${f.package} ${f.advisory}`));
const stale = waivers.waivers.filter(
  (w) => !found.some((f) => f.package === w.package && f.advisory === w.advisory),
);
for (const f of open)
  console.log(`NOT WAIVED  ${f.severity}  ${f.package}: ${f.title} (${f.advisory})`);
for (const w of stale) console.log(`STALE WAIVER  ${w.package} ${w.advisory}: remove it`);
console.log(
  `audit:deps: ${found.length} advisories, ${found.length - open.length} waived, ${open.length} open, ${stale.length} stale waivers.`,
);
process.exit(open.length > 0 || stale.length > 0 ? 1 : 0);
