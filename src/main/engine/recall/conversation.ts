// What recall knows about conversations (DESIGN.md §10): who speaks in a store, which
// speakers a query names, and the turns said just before and after a memory in its
// session. The answer to a question is often split over two turns ("is billing still on
// 8080?" … "nope, 8081 since today"), so a match lends some of its score to its neighbours.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';
import type { Filter } from './lexical';

/** Distinct speakers of a store, cached per database until a write names a new one. */
const speakerCache = new WeakMap<Db, { names: string[]; stale: boolean }>();

export function storeSpeakers(db: Db): string[] {
  const cached = speakerCache.get(db);
  if (cached && !cached.stale) return cached.names;
  const names = (
    stmt(
      db,
      `SELECT DISTINCT speaker FROM memory INDEXED BY memory_speaker
        WHERE speaker IS NOT NULL LIMIT 5000`,
    ).all() as { speaker: string }[]
  ).map((r) => r.speaker);
  speakerCache.set(db, { names, stale: false });
  return names;
}

/** A write may have added a speaker: read them again at the next recall. */
export function speakersChanged(db: Db): void {
  const cached = speakerCache.get(db);
  if (cached) cached.stale = true;
}

const WORD = /[\p{L}\p{N}]+/gu;
const fold = (s: string) => s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

/**
 * The speakers a query names: a speaker's whole name, or its first word (three letters
 * or more), among the query's words ("what did Caroline's mum say" names "Caroline").
 * Names are compared without case or accents.
 */
export function namedSpeakers(query: string, speakers: readonly string[]): Set<string> {
  const words = new Set(
    (fold(query).match(WORD) ?? []).flatMap((w) => (w.endsWith('s') ? [w, w.slice(0, -1)] : [w])),
  );
  const text = ` ${(fold(query).match(WORD) ?? []).join(' ')} `;
  const named = new Set<string>();
  for (const speaker of speakers) {
    const parts = fold(speaker).match(WORD) ?? [];
    if (parts.length === 0) continue;
    const whole = parts.join(' ');
    const first = parts[0] as string;
    if (text.includes(` ${whole} `) || (first.length >= 3 && words.has(first))) named.add(speaker);
  }
  return named;
}

/** A session's order (the expression of the `memory_session` index, so a step is a seek). */
const AT = 'COALESCE(m.occurred_at, m.created_at)';

export interface Neighbour {
  rid: number;
  /** The memory it sits next to. */
  of: number;
}

/**
 * The turns just before and after each memory in its session (ordered by when they
 * happened, else when they were stored, then by row), among those the caller may see.
 * Each is one step along the `memory_session` index.
 */
export function sessionNeighbours(db: Db, rids: readonly number[], filter: Filter): Neighbour[] {
  if (rids.length === 0) return [];
  const base = stmt(
    db,
    `SELECT rid, session, COALESCE(occurred_at, created_at) AS at FROM memory
      WHERE rid IN (${rids.map(() => '?').join(', ')}) AND session IS NOT NULL`,
  ).all(...rids) as { rid: number; session: string; at: number }[];
  if (base.length === 0) return [];
  const before = stmt(
    db,
    `SELECT m.rid AS rid FROM memory m INDEXED BY memory_session
      WHERE m.session = ? AND m.session IS NOT NULL
        AND ${AT} <= ? AND (${AT} < ? OR m.rid < ?) AND ${filter.sql}
      ORDER BY ${AT} DESC, m.rid DESC LIMIT 1`,
  );
  const after = stmt(
    db,
    `SELECT m.rid AS rid FROM memory m INDEXED BY memory_session
      WHERE m.session = ? AND m.session IS NOT NULL
        AND ${AT} >= ? AND (${AT} > ? OR m.rid > ?) AND ${filter.sql}
      ORDER BY ${AT}, m.rid LIMIT 1`,
  );
  const out: Neighbour[] = [];
  for (const b of base) {
    for (const q of [before, after]) {
      const row = q.get(b.session, b.at, b.at, b.rid, ...filter.params) as
        { rid: number } | undefined;
      if (row) out.push({ rid: row.rid, of: b.rid });
    }
  }
  return out;
}
