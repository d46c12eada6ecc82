// Abstention (DESIGN.md §6, step 6) needs a bar for "the best evidence is too weak".
// Cosine similarities mean different things for different models and stores, so the bar
// is calibrated on the store itself. Questions are built from sampled memories; each is
// searched twice: with its memory in the store (answerable) and with it left out (the
// store's own near miss: what is closest when the fact is absent), and off-topic questions
// with no lexical match are added to the unanswerable side. The bar is the threshold that
// best separates the top similarities (highest balanced accuracy), lowered if needed so
// that at most 5 % of answerable questions fall below it — but never below the floor,
// the level under which vector neighbours are noise (off-topic). Where floor and budget
// conflict, the floor wins: the budget can then be exceeded, and the result says so in
// its balanced accuracy. Both are kept per store and model; until a store is calibrated,
// the model's catalogue default applies.
import type { CalibrationResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { Embedder } from '../embed/types';
import { catalogue } from '../embed/models';
import { HASH_EMBEDDER_ID } from '../embed/hashEmbedder';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { lexicalSearch } from './lexical';
import { OFF_TOPIC_QUERIES } from './offTopic';
import { parseQuery } from './terms';
import { searchVectors, type VectorIndex } from './vectorIndex';
import { mulberry32 } from '../../../shared/random';

export const SETTING_KEY = 'calibration';
/** Bars when a store is not calibrated yet: the catalogue's per model, else these. */
// The hashing fallback's similarity is shared spelling: at 0.45 a shared word out of two
// does not pass, a mostly shared phrase does.
export const DEFAULT_THRESHOLDS: Record<string, number> = { [HASH_EMBEDDER_ID]: 0.45 };
const FALLBACK_THRESHOLD = 0.3;

export interface StoredCalibration {
  model: string;
  /** Abstain when the best vector evidence is below this. */
  threshold: number;
  /** Vector neighbours below this are noise, not candidates (on-topic vs off-topic). */
  floor: number;
  answerable: number;
  unanswerable: number;
  balanced_accuracy: number;
  memories: number;
  calibrated_at: string;
}

export function readCalibration(store: OpenStore, model: string): StoredCalibration | null {
  const row = stmt(store.db, 'SELECT value FROM store_setting WHERE key = ?').get(
    `${SETTING_KEY}:${model}`,
  ) as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as StoredCalibration) : null;
}

export interface Thresholds {
  /** Abstain below this best similarity (when no memory matched every query term). */
  value: number;
  /** Vector neighbours below this are not candidates at all. */
  floor: number;
  source: 'calibrated' | 'default';
}

export function threshold(store: OpenStore, model: string): Thresholds {
  const calibrated = readCalibration(store, model);
  if (calibrated) {
    return {
      value: calibrated.threshold,
      floor: calibrated.floor ?? calibrated.threshold,
      source: 'calibrated',
    };
  }
  const fromCatalogue = catalogue().models.find((m) => m.id === model)?.abstain_below;
  const value = fromCatalogue ?? DEFAULT_THRESHOLDS[model] ?? FALLBACK_THRESHOLD;
  return { value, floor: value, source: 'default' };
}

/** Share of answerable questions the abstention bar may turn away, at most. */
export const FALSE_ABSTENTION_BUDGET = 0.05;

/** Deterministic sampling, so a calibration can be reproduced. */
const sampler = mulberry32;

/** A question made from a memory: a run of 6–10 words from somewhere in its content. */
export function questionFrom(content: string, random: () => number): string {
  const words = content.split(/\s+/).filter((w) => w.length > 0);
  if (words.length <= 8) return words.join(' ');
  const length = 6 + Math.floor(random() * 5);
  const start = Math.floor(random() * Math.max(1, words.length - length));
  return words.slice(start, start + length).join(' ');
}

/** The threshold with the best balanced accuracy (answerable ≥ t, unanswerable < t). */
export function bestThreshold(
  answerable: number[],
  unanswerable: number[],
): { threshold: number; balanced: number } {
  const candidates = [...new Set([...answerable, ...unanswerable])].sort((a, b) => a - b);
  let best = { threshold: candidates[0] ?? FALLBACK_THRESHOLD, balanced: 0 };
  for (let i = 0; i < candidates.length; i++) {
    // Place the bar halfway to the next lower observed value, so it does not sit on a data point.
    const t =
      i === 0
        ? (candidates[0] as number)
        : ((candidates[i - 1] as number) + (candidates[i] as number)) / 2;
    const tpr = answerable.filter((s) => s >= t).length / Math.max(1, answerable.length);
    const tnr = unanswerable.filter((s) => s < t).length / Math.max(1, unanswerable.length);
    const balanced = (tpr + tnr) / 2;
    if (balanced > best.balanced) best = { threshold: t, balanced };
  }
  return best;
}

export async function calibrate(
  store: OpenStore,
  embedder: Embedder,
  index: VectorIndex,
  sample: number,
  now: number,
): Promise<CalibrationResult> {
  const live = (
    stmt(
      store.db,
      // Every live memory has a vector (quarantined ones too): the same count the index
      // holds, which recalibration compares against.
      'SELECT COUNT(*) AS n FROM memory WHERE deleted_at IS NULL',
    ).get() as { n: number }
  ).n;
  if (index.size < 10) {
    throw new LociError(
      'conflict',
      `Store "${store.name}" has ${index.size} embedded memories; calibration needs at least 10. Until then the model's default bar applies.`,
    );
  }
  const random = sampler(live);
  const rows = stmt(
    store.db,
    `SELECT m.rid AS rid, m.content AS content FROM memory m JOIN memory_embedding e ON e.rid = m.rid AND e.model = ?
      WHERE m.deleted_at IS NULL AND m.trust = 'trusted' ORDER BY m.rid`,
  ).all(embedder.id) as { rid: number; content: string }[];
  const picked: { rid: number; question: string }[] = [];
  const step = Math.max(1, rows.length / sample);
  for (let i = 0; i < rows.length && picked.length < sample; i += step) {
    const row = rows[Math.floor(i)] as { rid: number; content: string };
    picked.push({ rid: row.rid, question: questionFrom(row.content, random) });
  }

  const everything = { sql: 'm.deleted_at IS NULL', params: [] };
  const offTopic = OFF_TOPIC_QUERIES.filter(
    (q) => lexicalSearch(store.db, parseQuery(q), everything, 1).hits.length === 0,
  );
  const best1 = (v: Float32Array, filter: { sql: string; params: unknown[] }) =>
    searchVectors(store.db, index, v, 1, filter).hits[0]?.similarity ?? 0;
  // Behind any recall's query: calibration is background work.
  const vectors = await embedder.embed(
    picked.map((p) => p.question),
    'query',
    'background',
  );
  // Answerable: the question with its memory in the store. Unanswerable, the store's own
  // near misses: the same question with that memory left out (what is closest when the
  // fact is not there), plus off-topic questions.
  const answerable = vectors.map((v) => best1(v, everything));
  const unanswerable = vectors.map((v, i) =>
    best1(v, {
      sql: 'm.deleted_at IS NULL AND m.rid <> ?',
      params: [(picked[i] as { rid: number }).rid],
    }),
  );
  for (const v of await embedder.embed(offTopic, 'query', 'background'))
    unanswerable.push(best1(v, everything));
  // The floor separates on-topic from off-topic; the bar separates found from near miss,
  // but may turn away at most 5 % of the answerable questions: an agent is better served
  // by a weak answer it can judge than by a silence it cannot.
  const offTopicScores = unanswerable.slice(vectors.length);
  const floor = offTopicScores.length > 0 ? bestThreshold(answerable, offTopicScores).threshold : 0;
  const best = bestThreshold(answerable, unanswerable);
  const sorted = [...answerable].sort((a, b) => a - b);
  const budgetBar = sorted[Math.floor(FALSE_ABSTENTION_BUDGET * sorted.length)] ?? best.threshold;
  const bar = Math.max(floor, Math.min(best.threshold, budgetBar));
  const tpr = answerable.filter((v) => v >= bar).length / Math.max(1, answerable.length);
  const tnr = unanswerable.filter((v) => v < bar).length / Math.max(1, unanswerable.length);
  const result: StoredCalibration = {
    model: embedder.id,
    threshold: Math.round(bar * 10000) / 10000,
    floor: Math.round(floor * 10000) / 10000,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    balanced_accuracy: Math.round(((tpr + tnr) / 2) * 1000) / 1000,
    memories: live,
    calibrated_at: new Date(now).toISOString(),
  };
  stmt(
    store.db,
    `INSERT INTO store_setting (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(`${SETTING_KEY}:${embedder.id}`, JSON.stringify(result), now);
  return { store: store.name, ...result };
}
