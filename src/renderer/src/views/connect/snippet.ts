// The configuration snippet for one client, as `loci setup` would write it (the plan's
// `after` entry under the client's server container), and the masking that keeps bearer
// tokens off the screen until the user asks to see them.
import type { SetupPlan } from '../../../../shared/api';

/**
 * Where each client keeps its MCP servers. The plan does not say (it is in the engine's
 * client table); its diff does, as its first line (`mcpServers.loci`), when there is one.
 */
const CONTAINERS: Record<string, string[]> = {
  'claude-code': ['mcpServers'],
  'claude-desktop': ['mcpServers'],
  cursor: ['mcpServers'],
  vscode: ['servers'],
  windsurf: ['mcpServers'],
  zed: ['context_servers'],
};

export function containerOf(plan: Pick<SetupPlan, 'client' | 'diff' | 'entry'>): string[] {
  const first = plan.diff.split('\n', 1)[0] ?? '';
  const suffix = `.${plan.entry}`;
  if (first.endsWith(suffix) && !first.includes(' ')) {
    const path = first.slice(0, -suffix.length);
    if (path) return path.split('.');
  }
  return CONTAINERS[plan.client] ?? ['mcpServers'];
}

/** The JSON to paste: `{ "<container>": { "<entry>": { … } } }`, with the real token. */
export function snippetOf(plan: Pick<SetupPlan, 'client' | 'diff' | 'entry' | 'after'>): string {
  let value: unknown = { [plan.entry]: plan.after };
  for (const key of [...containerOf(plan)].reverse()) value = { [key]: value };
  return JSON.stringify(value, null, 2);
}

export const MASK = '•'.repeat(12);

/**
 * Hides bearer tokens: every `Bearer <token>` (the current token, or an old one found in
 * a configuration file), and the given token wherever else it appears.
 */
export function maskTokens(text: string, token?: string | null): string {
  let out = text.replace(/(Bearer\s+)[^\s"'\\]+/g, `$1${MASK}`);
  if (token && token.length >= 8) out = out.split(token).join(MASK);
  return out;
}
