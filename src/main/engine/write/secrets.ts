// Credential detection for the write path (DESIGN.md §5, step 2): secretlint's
// maintained recommended preset plus Loci's own rules (secretRules.ts). A hit makes the
// memory `quarantined`. Only rule ids leave this module; matched values never do, and
// secretlint runs with masking on so that not even its messages carry them.
// The scan itself runs in a worker thread (scanHost.ts), never on the daemon's thread;
// this module is what that worker runs.
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { isPlaceholder, matchSecretRules, matchSecretSpans, type SecretSpan } from './secretRules';

// secretlint marks every step of every lint in the process-wide performance timeline (and
// keeps each entry in its profiler's own list); nothing ever trims them, as it is built
// for one-shot CLI runs. In the daemon that grows without bound and each lint gets slower
// (measured: half the daemon's CPU after a few thousand writes). Loci never reads that
// profile, so its marks go nowhere.
(secretLintProfiler as unknown as { perf: unknown }).perf = {
  mark: () => undefined,
  measure: () => undefined,
};

const SECRETLINT_CONFIG = {
  rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }],
};

/** `@secretlint/secretlint-rule-github` → `secretlint:github`. */
function shortRuleId(ruleId: string): string {
  return `secretlint:${ruleId.replace(/^@secretlint\/secretlint-rule-/, '')}`;
}

export interface SecretScan {
  /** Rule ids that matched, sorted, without duplicates. Empty when clean. */
  rules: string[];
  /**
   * Where the credentials are, sorted and merged where they overlap (offsets, never the
   * values). Absent when the scan did not finish (a timeout): where is then unknown.
   */
  spans?: SecretSpan[];
}

/** Sorted, overlapping spans merged (the first rule's id kept). */
export function mergeSpans(spans: readonly SecretSpan[]): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** Between texts scanned together. No rule of the preset matches across it in practice. */
const SEPARATOR = '\n\n\u0000\u0000\n\n';

async function runPreset(content: string) {
  const result = await lintSource({
    source: { content, filePath: 'memory.txt', ext: '.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.filter((m) => m.type === 'message' && m.severity !== 'info');
}

/**
 * Scans many texts at once. secretlint costs ~150 µs a call whatever the size, so the
 * texts go through it as one document and each finding is given back to the text(s)
 * its range overlaps (a finding that spans two texts quarantines both: the safe side).
 */
export async function scanTexts(texts: readonly string[]): Promise<SecretScan[]> {
  const found = texts.map((text) => new Set(matchSecretRules(text)));
  // Spans are looked for only in texts that have a finding: the write path stays fast.
  const spans: SecretSpan[][] = texts.map((text, i) =>
    found[i]?.size ? matchSecretSpans(text) : [],
  );
  const starts: number[] = [];
  let offset = 0;
  for (const text of texts) {
    starts.push(offset);
    offset += text.length + SEPARATOR.length;
  }
  const joined = texts.join(SEPARATOR);
  for (const message of await runPreset(joined)) {
    const [from, to] = message.range;
    // The preset takes `xoxb-your-bot-token` and `ghp_xxxx…` for tokens; Loci's own rules
    // do not, and neither does this (the value is looked at here and never kept).
    if (isPlaceholder(joined.slice(from, to))) continue;
    for (let i = 0; i < texts.length; i++) {
      const start = starts[i] as number;
      const end = start + (texts[i] as string).length;
      if (from < end && to > start) {
        const rule = shortRuleId(message.ruleId);
        found[i]?.add(rule);
        spans[i]?.push({ rule, start: Math.max(0, from - start), end: Math.min(end, to) - start });
      }
    }
  }
  return found.map((rules, i) => ({ rules: [...rules].sort(), spans: mergeSpans(spans[i] ?? []) }));
}
