// Handlers of the `audit.*` methods: the chain listed, verified, anchored and exported,
// the key rotated, and the MCP clients' reads.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerAuditHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('audit.list', (args) => engine.audit.list(args));
  registry.register('audit.verify', (args) => engine.audit.verify(args));
  registry.register('audit.anchor', (args) => engine.audit.anchor(args));
  registry.register('audit.export', (args) => engine.audit.export(args));
  registry.register('audit.access', (args) => engine.audit.access(args));
  registry.register('audit.rotateKey', (args, ctx) => engine.audit.rotateKey(args, ctx.actor));
}
