// The V8 heap of a process that stays up (the daemon, `loci mcp`, the desktop app). V8
// grows its young generation to 32 MiB under a burst of allocation and keeps it, and
// garbage left when a process goes quiet stays resident until the next allocation
// triggers a collection, which in an idle daemon never comes. A full collection once the
// process is quiet returns both (engine/footprint.ts). Nothing here changes what the
// program computes; only when memory is returned.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/**
 * A full garbage collection now (compacting, so emptied pages go back to the system).
 * V8 offers it to scripts only behind --expose-gc; the flag is set here and the function
 * taken from a fresh context, so `gc` never appears on this process's global object.
 * False when the runtime refuses (the flag is unknown to it).
 */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const fn = runInNewContext('typeof gc === "function" ? gc : null') as unknown;
      gc = typeof fn === 'function' ? (fn as () => void) : null;
    } catch {
      gc = null;
    }
  }
  if (!gc) return false;
  gc();
  return true;
}
