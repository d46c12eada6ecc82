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

export interface CollectOptions {
  /**
   * Empties every page that has free space into others and returns it. V8's own rule,
   * tuned for a process at work, moves objects only out of pages that are mostly empty,
   * and a quiet process keeps the rest as they are: a daemon after 1,000 writes and 20
   * recalls kept 21 MiB of old space for 19 MiB of objects, and 3.8 MiB of code space
   * for 3.2 (with this, 19.5 and 3.3). Costs a few milliseconds more per megabyte moved.
   */
  compact?: boolean;
}

/**
 * A full garbage collection now. V8 offers it to scripts only behind --expose-gc; the
 * flag is set here and the function taken from a fresh context, so `gc` never appears on
 * this process's global object. Compacting sets V8's --compact-on-every-full-gc for this
 * one collection. False when the runtime refuses (the flag is unknown to it).
 */
export function collectGarbage(options: CollectOptions = {}): boolean {
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
  if (options.compact) setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    if (options.compact) setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return true;
}

/** glibc's allocator, as koffi calls it. */
interface NativeHeap {
  /** malloc_trim(pad): returns free pages inside every arena's heap to the system. */
  trim(pad: number): number;
  /** mallopt(param, value): 1 when the setting was taken. */
  mallopt(param: number, value: number): number;
}
let native: NativeHeap | null | undefined;
let quiet = false;

/** mallopt's M_TRIM_THRESHOLD and M_ARENA_MAX (glibc's malloc.h). */
const M_TRIM_THRESHOLD = -1;
const M_ARENA_MAX = -8;
/** Quiet: free space past this at the end of a heap goes back to the system when freed. */
export const QUIET_TRIM_THRESHOLD = 1024 * 1024;
/**
 * Working: the free end a heap keeps for reuse while the process works. glibc's own
 * rule raises it to twice the largest block freed, up to 64 MiB, and that cost a daemon
 * up to 19 MiB at idle: one helper thread's heap grew to 20 MiB in every run, its end
 * was freed while the threshold stood higher, and as nothing freed there afterwards,
 * the idle trim did not reach it (malloc_trim gives back free pages between blocks, not
 * a thread heap's free end). Some idle daemons read 98 to 105 MiB instead of 86 (2 of 6
 * in two bench:idle runs, 1 of 11 in alternating probes). Set from the start, in 6 runs
 * that heap peaked at 14.5 MiB and kept 1.1 to 3.8 (before, 9 runs of 16 kept 16 to 17
 * MiB of it, most of it given back only when it lay between blocks). Batched writes
 * measured the same with 4 MiB as with glibc's rule (2 MiB: about 5 % slower).
 */
export const WORKING_TRIM_THRESHOLD = 4 * 1024 * 1024;

/**
 * Makes the C allocator give back the free end of its heaps as memory is freed, once the
 * process is quiet (glibc, Linux): the collections of an idle trim free memory in the
 * heaps of threads other than the main one (V8's compiler and collector threads, the
 * worker threads), and with this set, their ends go back. False where it cannot be set.
 */
export async function quietNativeHeap(): Promise<boolean> {
  const heap = await nativeHeap();
  if (!heap) return false;
  quiet = heap.mallopt(M_TRIM_THRESHOLD, QUIET_TRIM_THRESHOLD) === 1;
  return quiet;
}

/**
 * Sets the free end a heap keeps while the process works (WORKING_TRIM_THRESHOLD) in
 * place of glibc's rule, which lets it grow to 64 MiB. Called when a long-running engine
 * starts; the C library's rule holds until then. False where it cannot be set.
 */
export async function workingNativeHeap(): Promise<boolean> {
  const heap = await nativeHeap();
  return heap ? working(heap) : false;
}

/**
 * Work began after a quiet spell: freed memory is kept for reuse again (a little: giving
 * it back as it goes costs time, and batched writes were about 5 % slower with the quiet
 * threshold).
 */
export function busyNativeHeap(): void {
  if (quiet && native) working(native);
}

/** The working threshold set, and the heap no longer quiet. */
function working(heap: NativeHeap): boolean {
  quiet = false;
  return heap.mallopt(M_TRIM_THRESHOLD, WORKING_TRIM_THRESHOLD) === 1;
}

/**
 * Gives the C allocator's free pages back to the system (glibc's `malloc_trim`), and
 * says whether it could. SQLite, V8's compilers and collectors on their helper threads
 * and every worker thread allocate through malloc; what they free between blocks still
 * in use stays resident (measured: 8 to 23 MiB of a `loci mcp` idling at 113 to 133
 * MiB). Node has no call for it; koffi, an optional dependency, calls the C function.
 * False on other systems and C libraries, or where koffi is not installed; nothing else
 * changes then.
 */
export async function returnFreedNativeMemory(): Promise<boolean> {
  const heap = await nativeHeap();
  if (!heap) return false;
  heap.trim(0);
  return true;
}

/**
 * Caps the malloc arenas this process's threads share (glibc makes up to eight per core:
 * a thread that allocates while another holds its arena gets one of its own). What a
 * thread allocated and something else still holds (a message's buffers, a worker's
 * leftovers) pins pages across all of them, which no trim gives back: a daemon idling
 * after 1,000 writes kept 3.7 to 9 MiB in arenas, 0.8 to 1 MiB with two, and batched
 * writes measured the same. Arenas made before the call stay: call it early in a
 * long-running process. False where the cap could not be set (no glibc, no koffi).
 */
export async function limitNativeArenas(max: number): Promise<boolean> {
  const heap = await nativeHeap();
  if (!heap) return false;
  return heap.mallopt(M_ARENA_MAX, max) === 1;
}

async function nativeHeap(): Promise<NativeHeap | null> {
  if (native === undefined) native = await loadNativeHeap();
  return native;
}

async function loadNativeHeap(): Promise<NativeHeap | null> {
  if (process.platform !== 'linux') return null;
  try {
    const { default: koffi } = await import('koffi');
    // glibc's soname; musl has neither function, and loading or finding them throws there.
    const libc = koffi.load('libc.so.6');
    return {
      trim: libc.func('int malloc_trim(size_t pad)') as NativeHeap['trim'],
      mallopt: libc.func('int mallopt(int param, int value)') as NativeHeap['mallopt'],
    };
  } catch {
    return null;
  }
}
