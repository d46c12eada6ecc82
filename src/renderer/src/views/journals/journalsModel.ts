// What the Journals view derives from the contract's answers: sessions grouped by project,
// the spans of a turn that candidates quoted, and how a candidate's status reads.
import type { JournalCandidateView, JournalSummary } from '../../../../shared/api';

/** The last part of a session's folder: the project it belongs to. */
export function projectOf(j: Pick<JournalSummary, 'cwd'>): string {
  const cwd = j.cwd?.replace(/[\\/]+$/, '');
  return cwd ? (cwd.split(/[\\/]/).at(-1) ?? cwd) : 'No project folder';
}

/** Sessions by project, the project with the newest session first. */
export function groupByProject(journals: readonly JournalSummary[]): [string, JournalSummary[]][] {
  const groups = new Map<string, JournalSummary[]>();
  for (const j of journals) {
    const p = projectOf(j);
    groups.set(p, [...(groups.get(p) ?? []), j]);
  }
  return [...groups.entries()];
}

export interface Span {
  start: number;
  end: number;
  /** The candidates (their `n`) quoting it. */
  candidates: number[];
}

/** Where in a turn's text the candidates' quotes stand, merged where they overlap. */
export function quotedSpans(
  seq: number,
  text: string,
  candidates: readonly JournalCandidateView[],
): Span[] {
  const spans: Span[] = [];
  for (const c of candidates) {
    for (const q of c.quotes) {
      if (q.seq !== seq || !q.quote) continue;
      const start = text.indexOf(q.quote);
      if (start >= 0) spans.push({ start, end: start + q.quote.length, candidates: [c.n] });
    }
  }
  spans.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      last.candidates = [...new Set([...last.candidates, ...s.candidates])];
    } else merged.push({ ...s });
  }
  return merged;
}

export const STATUS_LABEL: Record<JournalCandidateView['status'], string> = {
  written: 'Written',
  proposed: 'In the review inbox',
  duplicate: 'Already known',
  rejected: 'Refused by the gate',
};

export const EXTRACTOR_LABEL: Record<string, string> = {
  instruction: 'Instruction',
  correction: 'Correction',
  'error-remedy': 'Error → remedy',
  config: 'Configuration',
  agent: 'Proposed by the agent',
  sampling: "The client's model",
  llm: 'The configured model',
};

export const CLASS_HINT = {
  USER: 'The person’s own words: licenses what they decided, asked or prefer',
  TOOL: 'A tool’s output: the only source of measurements',
  ACT: 'An invocation the agent made: licenses that something was done',
  SELF: 'The agent’s own prose: backs only a memory marked as its judgement',
} as const;
