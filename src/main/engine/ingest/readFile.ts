// Reads a file whole and makes sure it did not change meanwhile: size and modification
// time before and after, and the byte count. A file caught changing is read once more,
// then refused. Only regular files are read (checked on the open descriptor, so a file
// swapped for a pipe between the walk and the read cannot block the engine).
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export type StableRead =
  { ok: true; bytes: Uint8Array; mtimeMs: number } | { ok: false; reason: string };

const FLAGS =
  process.platform === 'win32' ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NONBLOCK;

async function readOnce(
  path: string,
  maxBytes: number,
  onRead?: () => Promise<void> | void,
): Promise<StableRead | 'changed'> {
  let handle;
  try {
    handle = await open(path, FLAGS);
  } catch (err) {
    return {
      ok: false,
      reason: `not readable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    };
  }
  try {
    const before = await handle.stat();
    if (!before.isFile())
      return { ok: false, reason: 'not a regular file (a device, socket or pipe)' };
    if (before.size > maxBytes)
      return { ok: false, reason: `too large: it grew past ${maxBytes} bytes` };
    const bytes = await handle.readFile();
    await onRead?.();
    const after = await stat(path);
    if (
      bytes.length !== before.size ||
      after.size !== before.size ||
      after.mtimeMs !== before.mtimeMs ||
      after.ino !== before.ino
    ) {
      return 'changed';
    }
    return { ok: true, bytes, mtimeMs: before.mtimeMs };
  } finally {
    await handle.close();
  }
}

/** `onRead` runs between the read and the second look (tests change the file there). */
export async function readStable(
  path: string,
  maxBytes: number,
  onRead?: (attempt: number) => Promise<void> | void,
): Promise<StableRead> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const r = await readOnce(path, maxBytes, onRead ? () => onRead(attempt) : undefined);
    if (r !== 'changed') return r;
  }
  return {
    ok: false,
    reason:
      'the file changed while it was being read (twice): not read; try again once it is saved',
  };
}
