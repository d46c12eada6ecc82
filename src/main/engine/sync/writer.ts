// Who is writing, for the replication log's triggers: the store's triggers call the
// SQL function `loci_actor()` (registered on every connection), which reads it here.
// The handler registry runs each call inside `asWriter`; work a call starts (a batch,
// a dream it asked for) inherits it. Background work outside any call writes as `system`
// unless it names itself.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../store/database';

const writers = new AsyncLocalStorage<string>();

export function asWriter<T>(actor: string, fn: () => T): T {
  return writers.run(actor, fn);
}

export function currentWriter(): string {
  return writers.getStore() ?? 'system';
}

/** Registers `loci_actor()` on a connection (a trigger may only call what is registered). */
export function registerWriterFunction(db: Db): void {
  db.function('loci_actor', { deterministic: false, varargs: false }, () => currentWriter());
}
