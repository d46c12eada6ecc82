// A typed event bus over Node's EventEmitter for the engine's change notifications.
// Listeners run after the change is committed; a throwing listener is isolated so it
// can never undo or block a write.
import { EventEmitter } from 'node:events';
import type { EventMap, EventName } from '../../shared/events';

export class EngineEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every SSE client and IPC window adds a listener; there is no leak to warn about.
    this.emitter.setMaxListeners(0);
  }

  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void {
    const safe = (payload: EventMap[E]) => {
      try {
        listener(payload);
      } catch (err) {
        process.emitWarning(`listener for ${event} failed: ${(err as Error).message}`);
      }
    };
    this.emitter.on(event, safe);
    return () => this.emitter.off(event, safe);
  }

  emit<E extends EventName>(event: E, payload: EventMap[E]): void {
    this.emitter.emit(event, payload);
  }
}
