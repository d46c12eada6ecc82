// The preload bridge the Electron window exposes as `window.loci` (src/preload; its
// contract is src/shared/bridge.ts). The renderer never touches it directly:
// lib/engineClient.ts does.
import type { LociBridge } from '../../../shared/bridge';

export type { LociBridge };

declare global {
  interface Window {
    loci?: LociBridge;
  }
}
