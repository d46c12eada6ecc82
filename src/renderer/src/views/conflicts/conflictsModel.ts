// What the Conflicts view says and marks, kept apart from the components so the words,
// the highlighting and the arguments are tested once: where a differing span stands in a
// memory's text, how a decision reads, and the conflict.resolve arguments of each choice.
import type {
  ConflictResolution,
  ConflictSpan,
  ConflictState,
  ConflictView,
} from '../../../../shared/api';
import { LIMITS } from '../../../../shared/constants';

export const CONTEXT_MAX_CHARS = LIMITS.contextMaxChars;
export const RESOLVE_MAX = LIMITS.conflictsResolveMax;

/** The tabs: waiting for a decision, or decided (one kind of decision, or any). */
export type ConflictFilter = 'open' | 'resolved' | 'superseded' | 'scoped' | 'dismissed';

export const RESOLVED_FILTERS: readonly (readonly [ConflictFilter, string])[] = [
  ['resolved', 'Every decision'],
  ['superseded', 'One replaces the other'],
  ['scoped', 'Both true in contexts'],
  ['dismissed', 'Not a conflict'],
];

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** "update" when the newer one says things changed, "contradiction" otherwise. */
export function relationLabel(relation: ConflictView['relation']): string {
  return relation === 'updating' ? 'update' : 'contradiction';
}

export function relationHint(relation: ConflictView['relation']): string {
  return relation === 'updating'
    ? 'The newer memory says something changed: it most likely replaces the older one.'
    : 'Nothing says which one holds: decide, or keep both in their contexts.';
}

export const SPAN_KIND_LABEL: Record<ConflictSpan['kind'], string> = {
  number: 'number',
  negation: 'negation',
  opposite: 'opposite',
  name: 'name',
};

export const STATE_LABEL: Record<ConflictState, string> = {
  open: 'open',
  superseded: 'superseded',
  scoped: 'both true in contexts',
  dismissed: 'not a conflict',
};

/** `detected_by` in words: found at write time, by a scan, by a dream, or by someone. */
export function detectedByLabel(by: string): string {
  if (by === 'write') return 'when the newer one was written';
  if (by === 'scan') return 'by a scan of the store';
  if (by === 'dream') return 'by a dream';
  return `by ${by}`;
}

/** A date and time, short, in the user's locale; '—' for none or nonsense. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** When a memory holds, in words. */
export function validityText(from: string | null, to: string | null): string {
  if (!from && !to) return 'No validity given: holds from when it was said, until replaced';
  if (from && to) return `Held from ${formatWhen(from)} until ${formatWhen(to)}`;
  if (from) return `Holds from ${formatWhen(from)}`;
  return `Held until ${formatWhen(to)}`;
}

/** A stretch of a memory's text: plain, or a differing span (marked). */
export interface Segment {
  text: string;
  mark: ConflictSpan['kind'] | null;
}

const WORD = /[\p{L}\p{N}_]/u;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The spellings to look for: a span's value may hold several (names joined by ", "), and
 * a number is given without its thousands separators ("1000" for "1,000").
 */
function needlePatterns(value: string, kind: ConflictSpan['kind']): string[] {
  const parts = kind === 'name' || kind === 'number' ? value.split(/,\s+/) : [value];
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) =>
      kind === 'number' && /^\d+(?:[.:]\d+)*$/.test(p)
        ? p
            .split('')
            .map((c) => (/\d/.test(c) ? `${c},?` : escapeRegExp(c)))
            .join('')
            .replace(/,\?$/, '')
        : escapeRegExp(p),
    );
}

/**
 * The text cut into plain stretches and marked ones: every occurrence of each span's value
 * on this side, as a whole word (a span "not" is not marked inside "another"), case
 * ignored. Where spans overlap the first one found keeps its mark.
 */
export function highlightSegments(
  text: string,
  spans: readonly ConflictSpan[],
  side: 'older' | 'newer',
): Segment[] {
  const hits: { start: number; end: number; kind: ConflictSpan['kind'] }[] = [];
  for (const span of spans) {
    const value = span[side];
    if (!value) continue;
    for (const pattern of needlePatterns(value, span.kind)) {
      const re = new RegExp(pattern, 'giu');
      for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[0].length === 0) {
          re.lastIndex++;
          continue;
        }
        const start = m.index;
        const end = start + m[0].length;
        const before = text[start - 1] ?? '';
        const after = text[end] ?? '';
        const wordStart = WORD.test(m[0][0] ?? '');
        const wordEnd = WORD.test(m[0][m[0].length - 1] ?? '');
        if ((wordStart && WORD.test(before)) || (wordEnd && WORD.test(after))) continue;
        if (hits.some((h) => start < h.end && end > h.start)) continue;
        hits.push({ start, end, kind: span.kind });
      }
    }
  }
  hits.sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let at = 0;
  for (const h of hits) {
    if (h.start > at) out.push({ text: text.slice(at, h.start), mark: null });
    out.push({ text: text.slice(h.start, h.end), mark: h.kind });
    at = h.end;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), mark: null });
  return out;
}

/** Spans whose value this side lacks: "not" only in the other one. */
export function absentSpans(
  spans: readonly ConflictSpan[],
  side: 'older' | 'newer',
): ConflictSpan[] {
  const other = side === 'older' ? 'newer' : 'older';
  return spans.filter((s) => !s[side] && s[other]);
}

/** The two memories of a conflict, by id. */
export function sideOf(conflict: ConflictView, id: string): 'older' | 'newer' | null {
  if (conflict.older.id === id) return 'older';
  if (conflict.newer.id === id) return 'newer';
  return null;
}

/** What the card says about which of the two holds now. */
export function currentText(conflict: ConflictView): string {
  if (conflict.state === 'scoped') return 'Both hold, each in its context.';
  if (conflict.state === 'dismissed') return 'Both hold: they do not conflict.';
  const side = conflict.current ? sideOf(conflict, conflict.current) : null;
  if (!side) return 'Neither is marked as holding now.';
  if (conflict.state === 'open')
    return `The ${side} one holds for now: the latest word wins until someone decides.`;
  return `The ${side} one holds now.`;
}

/** A decided conflict in one sentence: who decided what, and when. */
export function decisionText(conflict: ConflictView): string {
  const r = conflict.resolution;
  if (!r) return '';
  const title = (id: string | undefined) =>
    id === conflict.older.id
      ? `“${conflict.older.title}”`
      : id === conflict.newer.id
        ? `“${conflict.newer.title}”`
        : 'the other';
  let what: string;
  if (r.kind === 'supersede') {
    const winner = r.winner ?? conflict.current ?? conflict.newer.id;
    const loser = winner === conflict.older.id ? conflict.newer.id : conflict.older.id;
    what = `${title(winner)} replaces ${title(loser)}${r.at ? `, which stopped holding ${formatWhen(r.at)}` : ''}`;
  } else if (r.kind === 'scope') {
    what = r.contexts
      ? `both true: the older one in “${r.contexts.older}”, the newer one in “${r.contexts.newer}”`
      : 'both true, each in its context';
  } else {
    what = 'not a conflict';
  }
  return `${what}.`;
}

/** The conflict.resolve arguments of a choice on one or more cards. */
export interface ResolveChoice {
  resolution: ConflictResolution;
  /** supersede: the one that holds (one conflict only; the newer one when absent). */
  winner?: string;
  /** supersede: when the other stopped holding, as the datetime-local input gives it. */
  at?: string;
  contexts?: { older: string; newer: string };
  reason?: string;
}

/** A datetime-local value ("2026-03-01T09:30") as the contract's timestamp, or null. */
export function localToIso(local: string): string | null {
  if (!local) return null;
  const t = new Date(local).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** What is wrong with a context label (null: fine), as the contract would say it. */
export function contextProblem(label: string): string | null {
  const t = label.trim();
  if (!t) return 'Say in which context it holds.';
  if (t.length > CONTEXT_MAX_CHARS) return `At most ${CONTEXT_MAX_CHARS} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f,]/.test(t)) return 'No commas or control characters.';
  return null;
}

export function resolveArgs(
  store: string | null,
  ids: string[],
  choice: ResolveChoice,
): {
  store?: string;
  ids: string[];
  resolution: ConflictResolution;
  winner?: string;
  at?: string;
  contexts?: { older: string; newer: string };
  reason?: string;
} {
  const at = choice.resolution === 'supersede' && choice.at ? localToIso(choice.at) : null;
  const reason = choice.reason?.trim();
  return {
    ...(store ? { store } : {}),
    ids,
    resolution: choice.resolution,
    ...(choice.resolution === 'supersede' && choice.winner && ids.length === 1
      ? { winner: choice.winner }
      : {}),
    ...(at ? { at } : {}),
    ...(choice.resolution === 'scope' && choice.contexts && ids.length === 1
      ? { contexts: { older: choice.contexts.older.trim(), newer: choice.contexts.newer.trim() } }
      : {}),
    ...(reason ? { reason } : {}),
  };
}

/** The toast after a decision. */
export function resolvedMessage(resolution: ConflictResolution, n: number): string {
  const what =
    resolution === 'supersede'
      ? 'one replaces the other'
      : resolution === 'scope'
        ? 'both true in their contexts'
        : 'not a conflict';
  return n === 1 ? `Conflict resolved: ${what}.` : `${plural(n, 'conflict')} resolved: ${what}.`;
}
