// Handlers of the `doctor.*` methods: the report, and one safe fix by check id.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerDoctorHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('doctor.run', (args, ctx) => engine.doctor.run(args.store, ctx));
  registry.register('doctor.fix', (args) => engine.doctor.fix(args.store, args.check));
}
