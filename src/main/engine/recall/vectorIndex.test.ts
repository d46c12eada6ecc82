import Database from 'better-sqlite3-multiple-ciphers';
import * as sqliteVec from 'sqlite-vec';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/helpers/engine';
import { l2Normalize } from '../embed/pooling';
import { MIGRATIONS } from '../store/migrations';
import { binaryCode, searchVectors, VectorIndex } from './vectorIndex';

function unit(random: () => number, dims: number): Float32Array {
  return l2Normalize(Float32Array.from({ length: dims }, () => random() - 0.5));
}

function storeWith(vectors: Float32Array[]) {
  const db = new Database(':memory:');
  sqliteVec.load(db);
  db.pragma('foreign_keys = ON');
  db.exec(
    'CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER)',
  );
  for (const m of MIGRATIONS) m.up(db);
  const mem = db.prepare(
    `INSERT INTO memory (id, title, content, kind, source, created_at, updated_at, content_hash) VALUES (?, 't', 'c', 'semantic', 'user', 0, 0, 'h')`,
  );
  const emb = db.prepare(
    'INSERT INTO memory_embedding (rid, model, dims, vector, code, embedded_at) VALUES (?, ?, ?, ?, ?, 0)',
  );
  db.transaction(() => {
    vectors.forEach((v, i) => {
      const rid = Number(mem.run(`M${String(i).padStart(25, '0')}`).lastInsertRowid);
      emb.run(rid, 'm', v.length, Buffer.from(v.buffer), binaryCode(v));
    });
  })();
  return db;
}

const everything = { sql: '1', params: [] };

describe('binaryCode', () => {
  it('packs one sign bit per dimension, little-endian within a byte', () => {
    expect(Array.from(binaryCode(Float32Array.from([1, -1, 0, 2, -3, 4, 5, -6, 7])))).toEqual([
      0b01101001, 0b1,
    ]);
  });
});

describe('VectorIndex', () => {
  it('returns exactly the nearest by Hamming distance', () => {
    const r = seededRandom(3);
    const index = new VectorIndex('m', 64, 4);
    const vectors = Array.from({ length: 200 }, () => unit(r.next, 64));
    vectors.forEach((v, i) => index.upsert(i + 1, v));
    const q = unit(r.next, 64);
    const hamming = (v: Float32Array) =>
      v.reduce((d, x, i) => d + (x > 0 !== (q[i] as number) > 0 ? 1 : 0), 0);
    const got = index.candidates(q, 20);
    const worstTaken = Math.max(...got.map((rid) => hamming(vectors[rid - 1]!)));
    const bestLeft = Math.min(
      ...vectors.map((v, i) => (got.includes(i + 1) ? Infinity : hamming(v))),
    );
    expect(got).toHaveLength(20);
    expect(worstTaken).toBeLessThanOrEqual(bestLeft);
  });

  it('forgets removed vectors and reuses their slots', () => {
    const index = new VectorIndex('m', 8, 2);
    const v = (...xs: number[]) => l2Normalize(Float32Array.from(xs));
    index.upsert(1, v(1, 1, 1, 1, 1, 1, 1, 1));
    index.upsert(2, v(-1, -1, -1, -1, -1, -1, -1, -1));
    index.remove(1);
    index.upsert(3, v(-1, -1, -1, -1, 1, 1, 1, 1));
    expect(index.size).toBe(2);
    expect(index.candidates(Float32Array.from([1, 1, 1, 1, 1, 1, 1, 1]), 5).sort()).toEqual([2, 3]);
  });

  it('never returns removed vectors, and measures reused slots afresh', () => {
    const r = seededRandom(8);
    const dims = 384;
    const index = new VectorIndex('m', dims, 16);
    let vectors = new Map<number, Float32Array>();
    for (let rid = 1; rid <= 500; rid++) vectors.set(rid, unit(r.next, dims));
    for (const [rid, v] of vectors) index.upsert(rid, v);
    for (let rid = 1; rid <= 500; rid += 3) {
      index.remove(rid);
      vectors.delete(rid);
    }
    for (let rid = 501; rid <= 560; rid++) {
      const v = unit(r.next, dims);
      vectors.set(rid, v);
      index.upsert(rid, v);
    }
    vectors = new Map([...vectors].sort((a, b) => a[0] - b[0]));
    const q = unit(r.next, dims);
    const hamming = (v: Float32Array) =>
      v.reduce((d, x, i) => d + (x > 0 !== (q[i] as number) > 0 ? 1 : 0), 0);
    const got = index.candidates(q, 40);
    expect(got).toHaveLength(40);
    for (const rid of got) expect(vectors.has(rid)).toBe(true);
    const worstTaken = Math.max(...got.map((rid) => hamming(vectors.get(rid)!)));
    const bestLeft = Math.min(
      ...[...vectors].filter(([rid]) => !got.includes(rid)).map(([, v]) => hamming(v)),
    );
    expect(worstTaken).toBeLessThanOrEqual(bestLeft);
  });

  it('ranks candidates by int8 copies within a hair of the exact cosine', () => {
    const r = seededRandom(4);
    const dims = 384;
    const index = new VectorIndex('m', dims, 8);
    const vectors = Array.from({ length: 300 }, () => unit(r.next, dims));
    vectors.forEach((v, i) => index.upsert(i + 1, v));
    const q = unit(r.next, dims);
    const ranked = index.rescore(
      q,
      vectors.map((_, i) => i + 1),
    );
    expect(ranked).toHaveLength(300);
    for (const { rid, approx } of ranked) {
      const exact = vectors[rid - 1]!.reduce((s, x, j) => s + x * (q[j] as number), 0);
      expect(Math.abs(approx - exact)).toBeLessThan(0.01);
    }
    for (let i = 1; i < ranked.length; i++) {
      expect(ranked[i - 1]!.approx).toBeGreaterThanOrEqual(ranked[i]!.approx);
    }
  });

  it('refuses a vector of the wrong width', () => {
    expect(() => new VectorIndex('m', 8).upsert(1, new Float32Array(16))).toThrow(/16 dimensions/);
  });
});

describe('searchVectors', () => {
  it('is exact when the store is within the rescoring budget', () => {
    const r = seededRandom(5);
    const vectors = Array.from({ length: 150 }, () => unit(r.next, 32));
    const db = storeWith(vectors);
    const index = VectorIndex.load(db, 'm', 32);
    const q = unit(r.next, 32);
    const { hits, exact } = searchVectors(db, index, q, 10, everything);
    expect(exact).toBe(true);
    const truth = vectors
      .map((v, i) => ({ rid: i + 1, sim: v.reduce((s, x, j) => s + x * (q[j] as number), 0) }))
      .sort((a, b) => b.sim - a.sim)
      .slice(0, 10);
    expect(hits.map((h) => h.rid)).toEqual(truth.map((t) => t.rid));
    hits.forEach((h, i) => expect(h.similarity).toBeCloseTo(truth[i]!.sim, 5));
  });

  it('finds nearly all true neighbours with the binary pre-filter on clustered data', () => {
    // 5,000 vectors around 50 centres, as real embeddings cluster by topic.
    const r = seededRandom(11);
    const dims = 96;
    const centres = Array.from({ length: 50 }, () => unit(r.next, dims));
    const vectors = Array.from({ length: 5000 }, (_, i) => {
      const c = centres[i % 50]!;
      return l2Normalize(Float32Array.from(c, (x) => x + (r.next() - 0.5) * 0.12));
    });
    const db = storeWith(vectors);
    const index = VectorIndex.load(db, 'm', dims);
    let found = 0;
    const queries = 40;
    for (let n = 0; n < queries; n++) {
      const q = l2Normalize(
        Float32Array.from(centres[n % 50]!, (x) => x + (r.next() - 0.5) * 0.12),
      );
      const { hits, exact } = searchVectors(db, index, q, 10, everything);
      expect(exact).toBe(false);
      const truth = new Set(
        vectors
          .map((v, i) => ({ rid: i + 1, sim: v.reduce((s, x, j) => s + x * (q[j] as number), 0) }))
          .sort((a, b) => b.sim - a.sim)
          .slice(0, 10)
          .map((t) => t.rid),
      );
      found += hits.filter((h) => truth.has(h.rid)).length;
    }
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.98);
  });

  it('widens the pre-filter when the filter rejects candidates', () => {
    const r = seededRandom(9);
    const vectors = Array.from({ length: 2000 }, () => unit(r.next, 32));
    const db = storeWith(vectors);
    const index = VectorIndex.load(db, 'm', 32);
    // Only every 100th memory passes the filter: far fewer than the first candidate budget.
    const { hits } = searchVectors(db, index, unit(r.next, 32), 10, {
      sql: 'm.rid % 100 = 0',
      params: [],
    });
    expect(hits).toHaveLength(10);
    for (const h of hits) expect(h.rid % 100).toBe(0);
  });
});
