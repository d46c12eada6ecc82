// The heaps of a process that stays up (the daemon, `loci mcp`, the desktop app). V8
// grows its young generation to 32 MiB under a burst of allocation and keeps it, and
// garbage left when a process goes quiet stays resident until the next allocation
// triggers a collection, which in an idle daemon never comes. A full collection once the
// process is quiet returns both (engine/footprint.ts), and the C allocator's free pages
// are then handed back too. Nothing here changes what the program computes; only when
// memory is returned.
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

type Trim = (pad: number) => number;
let trimNative: Trim | null | undefined;

/**
 * Gives the C allocator's free pages back to the system (glibc's `malloc_trim`), and
 * says whether it could. SQLite, V8's compilers and collectors on their helper threads and
 * every worker thread allocate through malloc; glibc keeps what they free in per-thread
 * arenas and returns only the free space at an arena's end, so after a burst of work a
 * quiet process holds tens of MiB it no longer uses (measured: 8 to 23 MiB of a
 * `loci mcp` idling at 113 to 133 MiB). Node has no call for it; koffi, an optional dependency, calls
 * the C function. False on other C libraries and systems (macOS's allocator returns
 * freed pages itself), or where koffi is not installed; nothing else changes then.
 */
export async function returnFreedNativeMemory(): Promise<boolean> {
  if (trimNative === undefined) trimNative = await loadTrim();
  if (!trimNative) return false;
  trimNative(0);
  return true;
}

async function loadTrim(): Promise<Trim | null> {
  if (process.platform !== 'linux') return null;
  try {
    const { default: koffi } = await import('koffi');
    // glibc's soname; musl has no malloc_trim, and loading or finding it throws there.
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    return null;
  }
}
