// The recall pipeline as it stands without an embedding model: parse the query,
// lexical candidates under the caller's filters, hydrate, fit the token budget, and
// hand what was returned to the rehearsal queue. The semantic tier (hybrid fusion,
// recognition, activation) builds on this; until then every answer says
// `semantic: off` and `how: lexical`.
import type { z } from 'zod';
import type { Actor, RecallHit, RecallResult } from '../../../shared/api';
import type { RecallArgsSchema } from '../../../shared/schemas';
import {
  iso,
  isPerson,
  MEMORY_COLUMNS,
  parseTags,
  parseTime,
  visibilityFilter,
  type MemoryRow,
} from '../memory/model';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { applyBudget, loadTokenCounter, truncateText } from './budget';
import { lexicalScore, lexicalSearch, type Filter } from './lexical';
import { parseQuery } from './terms';

export type ParsedRecall = z.output<typeof RecallArgsSchema>;

/** Compact answers carry about this many characters of each memory. */
export const COMPACT_CHARS = 320;

export const SEMANTIC_OFF_NOTE =
  'semantic: off — no embedding model is installed, so recall is lexical only (`loci models install`)';

function recallFilter(args: ParsedRecall, actor: Actor): Filter {
  const where: string[] = ['m.deleted_at IS NULL'];
  const params: unknown[] = [];
  const vis = visibilityFilter(actor);
  where.push(vis.sql);
  params.push(...vis.params);
  // Agents never see quarantined memories; a person may ask to include them.
  if (!(args.include_quarantined && isPerson(actor))) where.push(`m.trust = 'trusted'`);
  if (args.kinds && args.kinds.length > 0) {
    where.push(`m.kind IN (${args.kinds.map(() => '?').join(', ')})`);
    params.push(...args.kinds);
  }
  if (args.tags && args.tags.length > 0) {
    const tags = [...new Set(args.tags)];
    where.push(
      `m.rid IN (SELECT rid FROM memory_tag WHERE tag IN (${tags.map(() => '?').join(', ')})
                 GROUP BY rid HAVING COUNT(*) = ${tags.length})`,
    );
    params.push(...tags);
  }
  if (args.as_of) {
    const t = parseTime(args.as_of);
    where.push(
      '(m.valid_from IS NULL OR m.valid_from <= ?) AND (m.valid_to IS NULL OR m.valid_to > ?)',
    );
    params.push(t, t);
  }
  return { sql: where.join(' AND '), params };
}

function why(matched: number, units: number, row: MemoryRow, now: number): string {
  const terms =
    matched === units
      ? `matched all ${units} query term${units === 1 ? '' : 's'}`
      : `matched ${matched} of ${units} query terms`;
  const expired =
    row.valid_to !== null && row.valid_to <= now ? ` (valid until ${iso(row.valid_to)})` : '';
  return `${terms} (lexical)${expired}`;
}

export async function recallLexical(
  store: OpenStore,
  actor: Actor,
  args: ParsedRecall,
  now: number,
  rehearse: (rids: number[]) => void,
): Promise<RecallResult> {
  const t0 = performance.now();
  const count = await loadTokenCounter();
  const units = parseQuery(args.query);
  const tParse = performance.now();
  const degraded = [SEMANTIC_OFF_NOTE];
  const base = {
    store: store.name,
    how: 'lexical' as const,
    semantic: 'off' as const,
  };
  if (units.length === 0) {
    return {
      ...base,
      abstained: true,
      degraded: [...degraded, 'the query has no searchable words'],
      results: [],
      omitted: 0,
      tokens: { used: 0, max: args.max_tokens ?? null },
      timings: { total_ms: round(performance.now() - t0) },
    };
  }
  const lexical = lexicalSearch(store.db, units, recallFilter(args, actor), args.limit);
  const tLexical = performance.now();

  const rids = lexical.hits.map((h) => h.rid);
  const rows = rids.length
    ? (stmt(
        store.db,
        `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.rid IN (${rids.map(() => '?').join(', ')})`,
      ).all(...rids) as MemoryRow[])
    : [];
  const byRid = new Map(rows.map((r) => [r.rid, r]));
  const hits: (RecallHit & { rid: number })[] = [];
  for (const hit of lexical.hits) {
    const row = byRid.get(hit.rid);
    if (!row) continue;
    const verbose = args.format === 'verbose';
    const body = verbose
      ? { text: row.content, truncated: false }
      : truncateText(row.content, COMPACT_CHARS);
    hits.push({
      rid: row.rid,
      id: row.id,
      title: row.title,
      content: body.text,
      truncated: body.truncated,
      tags: parseTags(row),
      kind: row.kind,
      created_at: iso(row.created_at),
      score: round(lexicalScore(hit, lexical.units), 4),
      why: why(hit.matched, lexical.units, row, now),
      pinned: row.pinned === 1,
      quarantined: row.trust === 'quarantined',
      ...(verbose
        ? {
            breakdown: {
              lexical: round(hit.bm25, 4),
              matched_terms: hit.matched,
              query_terms: lexical.units,
            },
          }
        : {}),
    });
  }
  const tHydrate = performance.now();
  const budget = applyBudget(hits, args.max_tokens ?? null, count);
  const tBudget = performance.now();
  if (args.rehearse && budget.kept.length > 0) rehearse(budget.kept.map((h) => h.rid));
  const results = budget.kept.map(({ rid: _rid, ...hit }) => hit);
  if (budget.omitted > 0) {
    degraded.push(
      `${budget.omitted} more result${budget.omitted === 1 ? '' : 's'} left out to stay within max_tokens`,
    );
  }
  return {
    ...base,
    abstained: lexical.hits.length === 0,
    degraded,
    results,
    omitted: budget.omitted,
    tokens: { used: budget.used, max: args.max_tokens ?? null },
    timings: {
      parse_ms: round(tParse - t0),
      lexical_ms: round(tLexical - tParse),
      hydrate_ms: round(tHydrate - tLexical),
      budget_ms: round(tBudget - tHydrate),
      total_ms: round(performance.now() - t0),
    },
  };
}

function round(v: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
