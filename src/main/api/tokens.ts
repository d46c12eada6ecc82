// Handler of `token.rotate`: a new daemon token; the running daemon takes it at once (it
// re-reads the file), and every client configured with the old one must be set up again.
import type { Engine } from '../engine/engine';
import { rotateToken } from '../engine/store/token';
import type { HandlerRegistry } from './registry';

export function registerTokenHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('token.rotate', () => rotateToken(engine.dataDir));
}
