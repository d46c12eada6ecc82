// What a process that holds no engine (the `loci mcp` forwarder) takes of the engine's
// memory management: the idle trim, with nothing of its own to release but the heap.
// A module of its own, apart from host.ts, so that the forwarder loads no engine.
export { Footprint } from '../engine/footprint';
