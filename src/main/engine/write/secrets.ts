// Credential detection for the write path (DESIGN.md §5, step 2): secretlint's
// maintained recommended preset plus Loci's own rules (secretRules.ts). A hit makes the
// memory `quarantined`. Only rule ids leave this module; matched values never do, and
// secretlint runs with masking on so that not even its messages carry them.
import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { matchSecretRules } from './secretRules';

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
}

export async function scanSecrets(text: string): Promise<SecretScan> {
  const own = matchSecretRules(text);
  const result = await lintSource({
    source: { content: text, filePath: 'memory.txt', ext: '.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  const fromPreset = result.messages
    .filter((m) => m.type === 'message' && m.severity !== 'info')
    .map((m) => shortRuleId(m.ruleId));
  return { rules: [...new Set([...own, ...fromPreset])].sort() };
}
