// createHandlers(engine): every method of the contract, registered once by its domain's
// slice against the engine core and validated with the shared schemas, ready for any
// transport. Also the in-process client the CLI and tests use.
import type { Engine } from '../engine/engine';
import { registerAuditHandlers } from './audit';
import { registerConflictHandlers } from './conflicts';
import { registerDoctorHandlers } from './doctor';
import { registerSyncHandlers } from './sync';
import { registerDreamHandlers } from './dream';
import { registerEvalHandlers } from './eval';
import { registerIngestHandlers } from './ingest';
import { registerLinkHandlers } from './links';
import { registerMemoryHandlers } from './memory';
import { registerModelHandlers } from './models';
import { registerRecallHandlers } from './recall';
import { HandlerRegistry } from './registry';
import { registerSetupHandlers } from './setup';
import { registerStoreHandlers } from './stores';
import { registerSystemHandlers } from './system';
import { registerTokenHandlers } from './tokens';
import { registerAccessHandlers } from './access';
import { registerTranscriptHandlers } from './transcripts';

export { HandlerRegistry } from './registry';
export { createInProcessClient } from './inProcess';

export function createHandlers(engine: Engine): HandlerRegistry {
  // Background work (the contradiction check of batches) waits while calls are served.
  const registry = new HandlerRegistry(
    engine.conflicts,
    (fn) => engine.inCall(fn),
    (method, args, ctx) => engine.access.authorize(method, args, ctx.actor),
  );
  registerMemoryHandlers(registry, engine);
  registerRecallHandlers(registry, engine);
  registerLinkHandlers(registry, engine);
  registerStoreHandlers(registry, engine);
  registerSystemHandlers(registry, engine);
  registerTokenHandlers(registry, engine);
  registerAccessHandlers(registry, engine);
  registerSetupHandlers(registry, engine);
  registerModelHandlers(registry, engine);
  registerIngestHandlers(registry, engine);
  registerAuditHandlers(registry, engine);
  registerDoctorHandlers(registry, engine);
  registerSyncHandlers(registry, engine);
  registerDreamHandlers(registry, engine);
  registerEvalHandlers(registry, engine);
  registerTranscriptHandlers(registry, engine);
  registerConflictHandlers(registry, engine);
  registry.assertComplete();
  return registry;
}
