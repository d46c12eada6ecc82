// The Activity view's arithmetic, kept pure: merging feed pages and live events (newest
// first, no duplicates, capped), the filters, per-client summaries (calls, errors, p50
// duration), and reading what `activity.get` returns (payloads may be shortened past
// 16 KB by the engine: `{ truncated, chars, head }`).
import type { ActivitySummary, ScoreBreakdown } from '../../../../shared/api';

/** Calls kept in the page at most (the daemon keeps 2,000). */
export const FEED_CAP = 1000;

/** Newest first by id, each call once, at most `cap`. */
export function mergeNewest(
  incoming: readonly ActivitySummary[],
  existing: readonly ActivitySummary[],
  cap = FEED_CAP,
): ActivitySummary[] {
  const seen = new Set<number>();
  const out: ActivitySummary[] = [];
  for (const item of [...incoming, ...existing].sort((a, b) => b.id - a.id)) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    out.push(item);
    if (out.length >= cap) break;
  }
  return out;
}

export type Outcome = 'all' | 'ok' | 'error';

export interface ActivityFilters {
  /** An actor (`mcp:cursor`), '' for every client. */
  client: string;
  tool: string;
  outcome: Outcome;
  text: string;
}

export const NO_FILTERS: ActivityFilters = { client: '', tool: '', outcome: 'all', text: '' };

export function isFiltered(f: ActivityFilters): boolean {
  return f.client !== '' || f.tool !== '' || f.outcome !== 'all' || f.text.trim() !== '';
}

export function applyFilters(
  items: readonly ActivitySummary[],
  f: ActivityFilters,
): ActivitySummary[] {
  const words = f.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return items.filter((item) => {
    if (f.client && item.actor !== f.client) return false;
    if (f.tool && item.tool !== f.tool) return false;
    if (f.outcome === 'ok' && !item.ok) return false;
    if (f.outcome === 'error' && item.ok) return false;
    if (words.length) {
      const hay =
        `${item.actor} ${item.tool} ${item.transport} ${item.error_code ?? ''} #${item.id} ${
          item.ok ? 'ok' : 'error'
        }`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return false;
    }
    return true;
  });
}

/** `mcp:cursor` → `cursor`; other actors (`ui`, `cli`) as they are. */
export function actorLabel(actor: string): string {
  return actor.startsWith('mcp:') ? actor.slice(4) : actor;
}

/** The median of some numbers (the lower middle for an even count, as a p50 is read). */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1] as number;
}

export interface ClientSummary {
  actor: string;
  calls: number;
  errors: number;
  p50_ms: number | null;
}

/** Per client, most calls first. */
export function summarizeClients(items: readonly ActivitySummary[]): ClientSummary[] {
  const by = new Map<string, { calls: number; errors: number; durations: number[] }>();
  for (const item of items) {
    let s = by.get(item.actor);
    if (!s) by.set(item.actor, (s = { calls: 0, errors: 0, durations: [] }));
    s.calls++;
    if (!item.ok) s.errors++;
    s.durations.push(item.duration_ms);
  }
  return [...by.entries()]
    .map(([actor, s]) => ({ actor, calls: s.calls, errors: s.errors, p50_ms: median(s.durations) }))
    .sort((a, b) => b.calls - a.calls || a.actor.localeCompare(b.actor));
}

export function distinct(items: readonly ActivitySummary[], key: 'actor' | 'tool'): string[] {
  return [...new Set(items.map((i) => i[key]))].sort();
}

/** 0.4 → "0.4 ms", 12.34 → "12 ms", 1530 → "1.5 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A payload the engine shortened (past 16 KB). */
export interface Shortened {
  truncated: true;
  chars: number;
  head: string;
}

export function isShortened(value: unknown): value is Shortened {
  const v = value as Partial<Shortened> | null;
  return typeof v === 'object' && v !== null && v.truncated === true && typeof v.head === 'string';
}

export interface Received {
  /** The text the client read (the tool result's text content). */
  text: string | null;
  /** The structured content, when the call succeeded. */
  structured: unknown;
  /** The whole result was shortened: only its head (JSON text) is left. */
  shortened: Shortened | null;
}

/** What the client received, from an activity item's `result`. */
export function readReceived(result: unknown): Received {
  if (isShortened(result)) {
    // The head is the start of `{"text":"…","structured":…}`: try to pull the text out.
    const m = /^\{"text":"((?:[^"\\]|\\.)*)"/.exec(result.head);
    let text: string | null = null;
    if (m?.[1] !== undefined) {
      try {
        text = JSON.parse(`"${m[1]}"`) as string;
      } catch {
        text = null;
      }
    }
    return { text, structured: undefined, shortened: result };
  }
  const r = (result ?? {}) as { text?: unknown; structured?: unknown };
  return {
    text: typeof r.text === 'string' ? r.text : null,
    structured: r.structured,
    shortened: null,
  };
}

/** A recall's structured answer as the MCP `recall` tool returns it. */
export interface RecallStructured {
  how: string;
  abstained: boolean;
  semantic: string;
  degraded: string[];
  omitted: number;
  results: {
    id: string;
    title: string;
    content: string;
    tags: string[];
    kind: string;
    score: number;
    why: string;
    breakdown?: ScoreBreakdown;
  }[];
}

export function asRecallStructured(value: unknown): RecallStructured | null {
  const v = value as Partial<RecallStructured> | null;
  if (typeof v !== 'object' || v === null) return null;
  if (typeof v.how !== 'string' || typeof v.abstained !== 'boolean' || !Array.isArray(v.results))
    return null;
  return {
    how: v.how,
    abstained: v.abstained,
    semantic: typeof v.semantic === 'string' ? v.semantic : 'off',
    degraded: Array.isArray(v.degraded) ? v.degraded.filter((d) => typeof d === 'string') : [],
    omitted: typeof v.omitted === 'number' ? v.omitted : 0,
    results: v.results.filter(
      (r): r is RecallStructured['results'][number] =>
        typeof r?.id === 'string' && typeof r.title === 'string' && typeof r.score === 'number',
    ),
  };
}
