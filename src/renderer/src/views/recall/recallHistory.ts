// The Recall lab's recent queries, kept for this tab only (sessionStorage): the query,
// its options and a one-line outcome, newest first, a few at most. Nothing secret is in
// a query the user typed into the lab, but it stays out of long-lived storage anyway.
import type { RecallResult } from '../../../../shared/api';
import type { RecallOptions } from './recallOptions';

export interface HistoryEntry {
  query: string;
  options: RecallOptions;
  at: string;
  how: RecallResult['how'];
  abstained: boolean;
  results: number;
}

const KEY = 'loci.recall.history';
export const HISTORY_MAX = 8;

export function loadHistory(): HistoryEntry[] {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(parsed)
      ? (parsed as HistoryEntry[]).filter((e) => typeof e?.query === 'string').slice(0, HISTORY_MAX)
      : [];
  } catch {
    return [];
  }
}

/** Puts an entry first (replacing the same query with the same options) and saves. */
export function pushHistory(list: HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  const same = (e: HistoryEntry) =>
    e.query === entry.query && JSON.stringify(e.options) === JSON.stringify(entry.options);
  const next = [entry, ...list.filter((e) => !same(e))].slice(0, HISTORY_MAX);
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // The history then lasts as long as the view.
  }
  return next;
}

export function clearHistory(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to clear.
  }
}
