// Fills in the vectors a store is missing for the active model: new memories, edited
// ones (their old vector is deleted with the edit) and, after a model change, all of
// them. The work list is a query, not a queue, so a crash loses nothing: the next run
// finds whatever is still missing. Batches are small and yield between them.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';
import { binaryCode, type VectorIndex } from '../recall/vectorIndex';
import type { Embedder, EmbedLane } from './types';

/** Memories embedded (and committed) together, unless the configuration says otherwise. */
export const BACKFILL_BATCH = 32;

/** What is embedded for a memory: its title when it adds to the content, then the content. */
export function embeddingText(title: string, content: string): string {
  const head = title.endsWith('…') ? title.slice(0, -1).trim() : title;
  return content.startsWith(head) || content.includes(head) ? content : `${title}\n${content}`;
}

export function missingCount(db: Db, model: string): number {
  return (
    stmt(
      db,
      `SELECT COUNT(*) AS n FROM memory m LEFT JOIN memory_embedding e ON e.rid = m.rid AND e.model = ?
        WHERE m.deleted_at IS NULL AND e.rid IS NULL`,
    ).get(model) as { n: number }
  ).n;
}

/**
 * Runs a write at synchronous=NORMAL. Vectors are derived data: a power cut may lose the
 * last batches (never corrupt the database, in WAL mode), and the next backfill finds
 * them missing and embeds them again. Memories themselves are always written at FULL;
 * skipping the fsync here keeps a backlog of cheap vectors from costing one fsync each
 * 32 memories.
 */
function withoutFsync<T>(db: Db, write: () => T): T {
  const previous = db.pragma('synchronous', { simple: true }) as number;
  if (previous <= 1) return write();
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma(`synchronous = ${previous}`);
  }
}

export interface BackfillProgress {
  model: string;
  done: number;
  total: number;
}

export interface BackfillOptions {
  onProgress?: (p: BackfillProgress) => void;
  shouldStop?: () => boolean;
  /**
   * Exactly the memories that miss a vector, when the caller knows them (the daemon
   * tracks its own writes): only those are read, instead of scanning the whole store.
   */
  rids?: readonly number[];
  /** Memories per embedding call and commit (`embedding.batch_size`). */
  batch?: number;
  /** `interactive`: a write waits for these (its own memories), ahead of any backlog. */
  lane?: EmbedLane;
  /** Waited for before each batch (the daemon's backfill gives way to a burst of writes). */
  giveWay?: () => Promise<void>;
}

type Row = { rid: number; title: string; content: string; hash: string };

/**
 * Embeds missing memories until none are left (or `shouldStop` says so). A memory edited
 * while its batch was being embedded keeps no stale vector: the write only lands if the
 * title and content are still the ones that were embedded.
 */
export async function backfill(
  db: Db,
  embedder: Embedder,
  index: VectorIndex,
  now: () => number,
  options: BackfillOptions = {},
): Promise<number> {
  const model = embedder.id;
  const shouldStop = options.shouldStop ?? (() => false);
  const batch = options.batch ?? BACKFILL_BATCH;
  const total = options.rids ? options.rids.length : missingCount(db, model);
  let done = 0;
  if (total === 0) return 0;
  options.onProgress?.({ model, done, total });
  const scan = stmt(
    db,
    `SELECT m.rid AS rid, m.title AS title, m.content AS content, m.content_hash AS hash
       FROM memory m LEFT JOIN memory_embedding e ON e.rid = m.rid AND e.model = ?
      WHERE m.deleted_at IS NULL AND e.rid IS NULL AND m.rid > ?
      ORDER BY m.rid LIMIT ?`,
  );
  const one = stmt(
    db,
    `SELECT m.rid AS rid, m.title AS title, m.content AS content, m.content_hash AS hash
       FROM memory m LEFT JOIN memory_embedding e ON e.rid = m.rid AND e.model = ?
      WHERE m.rid = ? AND m.deleted_at IS NULL AND e.rid IS NULL`,
  );
  const write = stmt(
    db,
    `INSERT OR REPLACE INTO memory_embedding (rid, model, dims, vector, code, embedded_at)
     SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (
       SELECT 1 FROM memory WHERE rid = ? AND content_hash = ? AND title = ? AND deleted_at IS NULL)`,
  );
  const known = options.rids ? [...options.rids].sort((a, b) => a - b) : null;
  let after = 0;
  let offset = 0;
  const nextBatch = (): Row[] => {
    if (!known) return scan.all(model, after, batch) as Row[];
    const rows: Row[] = [];
    while (rows.length < batch && offset < known.length) {
      const row = one.get(model, known[offset++]) as Row | undefined;
      if (row) rows.push(row);
    }
    return rows;
  };
  while (!shouldStop()) {
    if (options.giveWay) {
      await options.giveWay();
      if (shouldStop()) break;
    }
    const rows = nextBatch();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]?.rid ?? after;
    const vectors = await embedder.embed(
      rows.map((r) => embeddingText(r.title, r.content)),
      'passage',
      options.lane ?? 'background',
    );
    const at = now();
    const landed: [number, Float32Array][] = [];
    withoutFsync(db, () =>
      db.transaction(() => {
        rows.forEach((row, i) => {
          const v = vectors[i] as Float32Array;
          const info = write.run(
            row.rid,
            model,
            v.length,
            Buffer.from(v.buffer, v.byteOffset, v.byteLength),
            binaryCode(v),
            at,
            row.rid,
            row.hash,
            row.title,
          );
          if (info.changes > 0) landed.push([row.rid, v]);
        });
      })(),
    );
    // Only what committed joins the in-memory index.
    for (const [rid, v] of landed) index.upsert(rid, v);
    done += rows.length;
    options.onProgress?.({ model, done: Math.min(done, total), total });
    // Let recalls and other requests in between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}
