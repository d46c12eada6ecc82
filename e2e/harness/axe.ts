// Accessibility check with axe-core, injected into the page through the DevTools
// protocol (so the daemon's strict CSP stays on). Serious and critical violations fail
// the test; minor and moderate ones are reported as warnings.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | null = null;

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

export interface AxeReport {
  failures: AxeViolation[];
  warnings: AxeViolation[];
}

export function formatViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `      ${JSON.stringify(n.target)}${n.failureSummary ? `\n        ${n.failureSummary.replace(/\n/g, '\n        ')}` : ''}`,
        )
        .join('\n');
      return `    [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} element${v.nodes.length === 1 ? '' : 's'})\n${nodes}`;
    })
    .join('\n');
}

export async function runAxe(page: Page): Promise<AxeReport> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(source);
  const violations = (await page.evaluate(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
  })))`)) as AxeViolation[];
  return {
    failures: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    warnings: violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical'),
  };
}
