// One system through one workload, on a fresh data directory, each phase under its time
// budget: a capped phase stops and the row says how far it got.
import { log, opts, pct, r1, rssMiB, tempDir, type SystemUnderTest } from './common';
import type { ConversationWork, Query } from './workload';

export interface CorpusRow {
  system: string;
  size: number;
  /** Write calls made (a capped load made a prefix of them). */
  loaded: number;
  /** Of those, memories the system refused to keep (near duplicates, noise). */
  refused: number;
  load_s: number;
  load_capped: boolean;
  writes_per_s: number;
  /** Seconds its background indexing took to catch up after the load (null: none to wait for). */
  settle_s: number | null;
  settle_capped: boolean;
  searches: number;
  /** Queries whose target was loaded (those asked when not capped). */
  usable: number;
  search_capped: boolean;
  p50_ms: number;
  p95_ms: number;
  rss_mib: number | null;
  hit_phrase: number;
  hit_keywords: number;
}

export interface ConversationRow {
  system: string;
  conversations: number;
  turns: number;
  stored: number;
  refused: number;
  load_s: number;
  load_capped: boolean;
  questions: number;
  asked: number;
  search_capped: boolean;
  p50_ms: number;
  /** Mean over the questions asked of the share of their evidence turns in the top 10. */
  recall_at_10: number;
}

const since = (t: number) => (performance.now() - t) / 1000;

async function settle(system: SystemUnderTest, dir: string) {
  if (!system.settle) return { s: null, capped: false };
  const t = performance.now();
  const done = await system.settle(dir, opts.settleBudgetS);
  return { s: r1(since(t)), capped: !done };
}

export async function runCorpus(
  system: SystemUnderTest,
  contents: string[],
  queries: Query[],
): Promise<CorpusRow> {
  const dir = tempDir(system.name);
  const session = await system.start(dir);
  try {
    const keys: (string | null)[] = [];
    const started = performance.now();
    let capped = false;
    for (let i = 0; i < contents.length; i++) {
      keys.push(await system.write(session.client, i, contents[i] as string));
      if (since(started) > opts.loadBudgetS) {
        capped = i + 1 < contents.length;
        break;
      }
    }
    const loadS = since(started);
    const settled = await settle(system, dir);
    // Only queries whose target was loaded count (a capped load loaded a prefix).
    const usable = queries.filter((q) => q.target < keys.length);
    const times: number[] = [];
    const hits = { phrase: [0, 0], keywords: [0, 0] };
    const searchStart = performance.now();
    let searchCapped = false;
    for (const q of usable) {
      const t = performance.now();
      const top = await system.search(session.client, q.text);
      times.push(performance.now() - t);
      const h = hits[q.kind];
      h[1]!++;
      const key = keys[q.target];
      if (key != null && top.includes(key)) h[0]!++;
      if (since(searchStart) > opts.searchBudgetS) {
        searchCapped = times.length < usable.length;
        break;
      }
    }
    return {
      system: system.name,
      size: contents.length,
      loaded: keys.length,
      refused: keys.filter((k) => k === null).length,
      load_s: r1(loadS),
      load_capped: capped,
      writes_per_s: Math.round(keys.length / loadS),
      settle_s: settled.s,
      settle_capped: settled.capped,
      searches: times.length,
      usable: usable.length,
      search_capped: searchCapped,
      p50_ms: r1(pct(times, 50)),
      p95_ms: r1(pct(times, 95)),
      rss_mib: rssMiB(session.pid),
      hit_phrase: hits.phrase[1] ? hits.phrase[0]! / hits.phrase[1] : 0,
      hit_keywords: hits.keywords[1] ? hits.keywords[0]! / hits.keywords[1] : 0,
    };
  } catch (e) {
    const why = session.stderrTail().trim().split('\n').at(-1);
    throw new Error(`${(e as Error).message}${why ? ` (stderr: ${why.slice(0, 200)})` : ''}`);
  } finally {
    await session.stop();
  }
}

/**
 * Each conversation in a store of its own: its turns stored one call each, then its
 * questions asked one search each. A question counts when all its evidence turns were
 * stored (a capped load stored a prefix).
 */
export async function runConversations(
  system: SystemUnderTest,
  convs: ConversationWork[],
): Promise<ConversationRow> {
  const row: ConversationRow = {
    system: system.name,
    conversations: 0,
    turns: 0,
    stored: 0,
    refused: 0,
    load_s: 0,
    load_capped: false,
    questions: 0,
    asked: 0,
    search_capped: false,
    p50_ms: 0,
    recall_at_10: 0,
  };
  const times: number[] = [];
  let recallSum = 0;
  for (const c of convs) {
    const dir = tempDir(system.name);
    const session = await system.start(dir);
    try {
      const byKey = new Map<string, Set<string>>();
      const loaded = new Set<string>();
      const started = performance.now();
      for (let i = 0; i < c.turns.length; i++) {
        const turn = c.turns[i]!;
        const key = await system.write(session.client, i, turn.content, { conversation: c.id });
        loaded.add(turn.id);
        if (key === null) row.refused++;
        else byKey.set(key, (byKey.get(key) ?? new Set()).add(turn.id));
        if (since(started) > opts.convLoadBudgetS) {
          row.load_capped ||= i + 1 < c.turns.length;
          break;
        }
      }
      row.load_s += since(started);
      row.turns += c.turns.length;
      row.stored += loaded.size;
      await settle(system, dir);
      const usable = c.questions.filter((q) => q.evidence.every((e) => loaded.has(e)));
      row.questions += c.questions.length;
      const searchStart = performance.now();
      for (const q of usable) {
        const t = performance.now();
        const top = await system.search(session.client, q.text);
        times.push(performance.now() - t);
        // A key two turns share (same text) counts for both.
        const found = new Set(top.slice(0, 10).flatMap((k) => [...(byKey.get(k) ?? [])]));
        recallSum += q.evidence.filter((e) => found.has(e)).length / q.evidence.length;
        row.asked++;
        if (since(searchStart) > opts.convSearchBudgetS) {
          row.search_capped ||= row.asked < usable.length;
          break;
        }
      }
      row.conversations++;
      log(`  conversation ${c.id}: ${loaded.size} turns, ${usable.length} questions`);
    } finally {
      await session.stop();
    }
  }
  row.load_s = r1(row.load_s);
  row.p50_ms = r1(pct(times, 50));
  row.recall_at_10 = row.asked ? recallSum / row.asked : 0;
  return row;
}
