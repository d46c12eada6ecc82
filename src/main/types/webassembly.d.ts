// The part of the WebAssembly JavaScript API the engine uses. Node has it all, but
// @types/node 20 declares none of it and the DOM library would bring in far more.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
}
type BufferSource = ArrayBufferView | ArrayBuffer;
