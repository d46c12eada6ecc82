// What the preload adds to the observatory's window: `window.loci`, typed from the
// shared contract (src/shared/bridge.ts). The renderer declares the same global in
// src/renderer/src/lib/bridge.d.ts.
import type { LociBridge } from '../shared/bridge';

declare global {
  interface Window {
    loci?: LociBridge;
  }
}

export {};
