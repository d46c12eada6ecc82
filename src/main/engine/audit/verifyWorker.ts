// The verify worker thread: checks one range of a store's audit chain on its own
// read-only connection, so a long verification uses a second core. Posts progress per
// page and one `done` with the first problem position; it never writes.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey } from '../store/cipher';
import { sqliteBindingOptions } from '../store/native';
import { checkRange, type RangeSpec } from './verifyRange';

export interface VerifyWorkerData extends RangeSpec {
  file: string;
  /** The database's key (hex) when the store is encrypted. */
  dbKey: string | null;
  /** Key id → secret (base64). */
  keys: Record<string, string>;
}

export type VerifyWorkerMessage =
  | { op: 'progress'; checked: number }
  | { op: 'done'; checked: number; problemAt: number | null }
  | { op: 'error'; message: string };

const data = workerData as VerifyWorkerData;
const post = (m: VerifyWorkerMessage) => parentPort?.postMessage(m);
try {
  const db = new Database(data.file, {
    readonly: true,
    fileMustExist: true,
    ...sqliteBindingOptions(),
  });
  applyKey(db, data.dbKey ? Buffer.from(data.dbKey, 'hex') : null);
  try {
    const keys = new Map(
      Object.entries(data.keys).map(([id, b64]) => [id, Buffer.from(b64, 'base64')]),
    );
    const r = checkRange(db, keys, data, {
      onPage: (checked) => post({ op: 'progress', checked }),
    });
    post({ op: 'done', checked: r.checked, problemAt: r.problemAt });
  } finally {
    db.close();
  }
} catch (err) {
  post({ op: 'error', message: (err as Error).message });
}
