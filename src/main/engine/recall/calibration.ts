// Abstention (DESIGN.md §6, step 6) needs a bar for "the best evidence is too weak".
// Cosine similarities mean different things for different models and stores, so the bar
// is calibrated on the store itself: questions built from sampled memories (answerable)
// and off-topic questions with no lexical match in the store (unanswerable) go through
// the vector search, and the threshold that best separates their top similarities
// (highest balanced accuracy) is kept per store and model. Until a store is calibrated,
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

export const SETTING_KEY = 'calibration';
/** Bars when a store is not calibrated yet: the catalogue's per model, else these. */
// The hashing fallback's similarity is shared spelling: at 0.45 a shared word out of two
// does not pass, a mostly shared phrase does.
export const DEFAULT_THRESHOLDS: Record<string, number> = { [HASH_EMBEDDER_ID]: 0.45 };
const FALLBACK_THRESHOLD = 0.3;

export interface StoredCalibration {
  model: string;
  threshold: number;
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

export function threshold(
  store: OpenStore,
  model: string,
): { value: number; source: 'calibrated' | 'default' } {
  const calibrated = readCalibration(store, model);
  if (calibrated) return { value: calibrated.threshold, source: 'calibrated' };
  const fromCatalogue = catalogue().models.find((m) => m.id === model)?.abstain_below;
  return {
    value: fromCatalogue ?? DEFAULT_THRESHOLDS[model] ?? FALLBACK_THRESHOLD,
    source: 'default',
  };
}

/** Deterministic sampling (mulberry32) so a calibration can be reproduced. */
function sampler(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
      `SELECT COUNT(*) AS n FROM memory WHERE deleted_at IS NULL AND trust = 'trusted'`,
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
    `SELECT m.content AS content FROM memory m JOIN memory_embedding e ON e.rid = m.rid AND e.model = ?
      WHERE m.deleted_at IS NULL AND m.trust = 'trusted' ORDER BY m.rid`,
  ).all(embedder.id) as { content: string }[];
  const picked: string[] = [];
  const step = Math.max(1, rows.length / sample);
  for (let i = 0; i < rows.length && picked.length < sample; i += step)
    picked.push(questionFrom((rows[Math.floor(i)] as { content: string }).content, random));

  const everything = { sql: 'm.deleted_at IS NULL', params: [] };
  const unanswerableQueries = OFF_TOPIC_QUERIES.filter(
    (q) => lexicalSearch(store.db, parseQuery(q), everything, 1).hits.length === 0,
  );
  if (unanswerableQueries.length < 10) {
    throw new LociError(
      'conflict',
      'Too few off-topic questions are unanswerable in this store to calibrate against.',
    );
  }
  const top = async (queries: string[]) => {
    const vectors = await embedder.embed(queries, 'query');
    return vectors.map(
      (v) => searchVectors(store.db, index, v, 1, everything).hits[0]?.similarity ?? 0,
    );
  };
  const answerable = await top(picked);
  const unanswerable = await top(unanswerableQueries);
  const best = bestThreshold(answerable, unanswerable);
  const result: StoredCalibration = {
    model: embedder.id,
    threshold: Math.round(best.threshold * 10000) / 10000,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    balanced_accuracy: Math.round(best.balanced * 1000) / 1000,
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
