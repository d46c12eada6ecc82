// The synced-folder transport: one person's devices replicate through a folder that a
// sync tool keeps in step (Syncthing, Dropbox, iCloud Drive, a git clone pushed and
// pulled by hand). There is no server and no shared clock, only files, so the layout is
// made for what sync tools do well (copy whole files that never change) and for what
// they do badly (copy files half-way, keep both sides of a conflict as a second file):
//
//   <folder>/loci/<store>/<device>/device.json     who the device is, what it wrote
//   <folder>/loci/<store>/<device>/00000001.seg    its operations, immutable segments
//
// A device writes only under its own directory, so two devices never write one file and
// the sync tool has no conflict to resolve; every other directory is read-only to it.
// Every file is written to a hidden temporary name in the same directory
// (`.<name>.<random>.tmp`, which readers skip, as they skip every dot-file: Syncthing's
// `.syncthing.*.tmp`, iCloud's `.*.icloud` placeholders), fsynced, then renamed into
// place, so a reader sees the old file or the new one, never a half-written one of ours.
//
// Segment format (UTF-8 text, every line ends with "\n"):
//
//   {"format":"loci-sync-segment","version":1,"device":"<id>","store":"<store>",
//    "segment":42,"created":<epoch ms>,"covers":["<sha256>",…]}          (one line)
//   <first 16 hex of sha256(JSON)> <JSON of one WireOp>                 (one per op)
//   end <count of op lines> <sha256 hex of every byte before this line>
//
// The per-line checksum finds the one line a hand edit or a bad copy changed (that op is
// refused, the rest of the file still applies); the closing line tells a complete file
// from one cut short, which is what a file still being copied looks like. `covers`, when
// present, lists the content hashes (the trailer's sha256) of segments this one only
// repeats (a merge of older segments, a segment rewritten without erased operations): a
// reader that has read all of them cleanly skips it instead of reading everything again.
//
// Readers take every `<8 digits>….seg` file, so the copies sync tools make of a file
// changed on two sides are read too: Dropbox `00000042 (conflicted copy 2026-12-01).seg`,
// Syncthing `00000042.sync-conflict-20261201-123456-ABCDEF.seg`, iCloud `00000042 2.seg`.
// Their operations are the device's (checked line by line like any other), and repeats
// are harmless: operations are idempotent by `h` in the replica.
//
// The pull cursor (opaque JSON) records, per file read, its size, mtime and inode (an
// unchanged file is not opened again), how many bytes were consumed and the sha256 of
// those bytes: a file that changed is read again, from where it stopped if those bytes
// are still its beginning (a truncated copy the sync tool has since completed), from the
// start otherwise. So a page ends exactly where the next begins, within a file too.
//
// Erasure: a tombstone (`x`: the memory was erased, or withdrawn from sync) stays in the
// folder, so devices that join later learn of it, but every older operation naming the
// memory is rewritten out of the segments of the device that made it: at once by the
// device that erases, and by every other device when it pulls the tombstone (and again
// when its replica calls `purge`), each in its own segments, the only files it may
// write. Erased content thus leaves the folder once every device holding some has
// synced. Beyond reach: a device that never comes back keeps its copy, and a git
// repository keeps every old version of a file in its history.
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  access,
  mkdir,
  open as openFile,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  unlink,
} from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { LociError } from '../../../shared/errors';
import { StoreNameSchema } from '../../../shared/schemas';
import { isDeviceId } from './hlc';
import type {
  DeviceSelf,
  PullResult,
  SyncDevice,
  SyncProblem,
  SyncTransport,
  WireOp,
} from './wire';

export interface FolderSyncOptions {
  /** The folder the sync tool keeps in step on every device. */
  folder: string;
  store: string;
  self: DeviceSelf;
  clock?: () => number;
  /** Operations per segment written by a push (at most). */
  segmentOps?: number;
  /** When this device has more segments than this, they are merged. */
  compactAfter?: number;
}

const SEGMENT_FORMAT = 'loci-sync-segment';
const SEGMENT_VERSION = 1;
const DEVICE_FORMAT = 'loci-sync-device';
const DEVICE_VERSION = 1;
const CURSOR_VERSION = 1;

const MiB = 1024 * 1024;
/** A larger segment is refused unread: none of ours gets near it. */
const MAX_SEGMENT_BYTES = 64 * MiB;
/** A longer line is refused unparsed (a memory is at most 64 KiB of content). */
const MAX_LINE_BYTES = 1 * MiB;
/** What one written segment holds at most, whatever the op count (merges included). */
const WRITE_SEGMENT_BYTES = 16 * MiB;
/** A segment this large is not merged again (a merge would copy it for nothing). */
const MERGE_KEEP_BYTES = 4 * MiB;
const MAX_DEVICE_FILE_BYTES = 1 * MiB;
const DEFAULT_SEGMENT_OPS = 2000;
const DEFAULT_COMPACT_AFTER = 32;
/**
 * A pull refreshes `last_seen` in device.json at most this often: each write is a change
 * the sync tool carries to every device, and pulls come every few seconds.
 */
const SEEN_REFRESH_MS = 10 * 60_000;

/** A segment as sync tools may name it: ours, or a conflicted copy of one. */
const SEGMENT_NAME = /^(\d{8})(?:[ .][^/\\]*)?\.seg$/;
const OWN_SEGMENT_NAME = /^\d{8}\.seg$/;
const TEMP_NAME = /^\..*\.tmp$/;
const TRAILER = /^end (\d+) ([0-9a-f]{64})$/;
const LINE_SUM = /^[0-9a-f]{16}$/;

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const lineSum = (json: Buffer): string => sha256(json).slice(0, 16);
const segmentName = (n: number): string => `${String(n).padStart(8, '0')}.seg`;

const DAMAGED_FIX = (device: string) =>
  `Wait for the sync tool to finish copying it. If it stays, delete the file on this device and republish on device ${device} (its sync settings): that device still has the operations and writes them again into fresh segments.`;
const NEWER_FIX =
  'Update Loci on this device to the version the other device runs; the file is read then.';
const LOST_FIX =
  "Republish this device's operations (the republish action of its sync settings): they are written again into fresh segments that every device reads.";

// ---------------------------------------------------------------------------------------
// Segments: writing and reading

interface SegmentHeader {
  format: string;
  version: number;
  device: string;
  store: string;
  segment: number;
  created: number;
  covers?: string[];
}

/** One op line of a parsed segment: the operation, or why it was refused. */
interface SegmentLine {
  /** 1-based, the header being line 1. */
  line: number;
  /** Byte offsets of the line in the file, `end` after its newline. */
  start: number;
  end: number;
  op?: WireOp;
  problem?: string;
}

interface ParsedSegment {
  header: SegmentHeader | null;
  /** Why the header was refused; `newer`: written by a later format this build cannot read. */
  headerProblem: { message: string; newer: boolean } | null;
  lines: SegmentLine[];
  /** A closing line was found (the writer finished; what it says may still disagree). */
  complete: boolean;
  /** The line at which a file without a closing line stops (cut short, or still copying). */
  truncatedAt: number | null;
  /** What the closing line disagrees with, lines after it. */
  endProblems: { line: number; message: string }[];
  /** sha256 of the bytes before the closing line: the segment's content hash. */
  contentSha: string;
  /** Complete and not one line, header or closing line refused. */
  clean: boolean;
}

/** The op as it is written: its known fields only, in a fixed order. */
function wireShape(op: WireOp): WireOp {
  return op.x
    ? { h: op.h, d: op.d, e: op.e, r: op.r, x: true, b: op.b }
    : { h: op.h, d: op.d, e: op.e, r: op.r, b: op.b };
}

/** Why a parsed value is not an operation of `device`, or null when it is one. */
function opProblem(v: unknown, device: string): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'is not an operation';
  const o = v as Record<string, unknown>;
  if (typeof o.h !== 'string' || o.h.length > 100) return 'has no valid clock (h)';
  if (typeof o.d !== 'string') return 'names no device (d)';
  if (typeof o.e !== 'string' || o.e.length > 1000) return 'names no entity (e)';
  if (!Array.isArray(o.r) || !o.r.every((id) => typeof id === 'string'))
    return 'has no list of memory ids (r)';
  if (o.x !== undefined && o.x !== true) return 'has an erase flag (x) that is not true';
  if (!('b' in o)) return 'has no body (b)';
  if (o.d !== device)
    return `claims device ${o.d.slice(0, 40)} but sits in device ${device}'s folder`;
  if (!o.h.endsWith(`-${device}`))
    return `has clock ${o.h.slice(0, 60)}, which is not one of device ${device}'s`;
  return null;
}

/** The memory ids a tombstone erases: the memory of its entity (`m:<id>`), else its `r`. */
function erasedBy(op: WireOp): string[] {
  return op.e.startsWith('m:') ? [op.e.slice(2)] : op.r;
}

/**
 * Per memory id, the latest tombstone's clock: what it makes obsolete is every other
 * operation naming the memory that is older. Not the newer ones: a tombstone also marks
 * a memory withdrawn (made private, quarantined), and one that is shared again later
 * rejoins with new operations, which must travel.
 */
type Cut = Map<string, string>;

/** Records a tombstone in a cut; true when it moved the cut. */
function addTombstone(cut: Cut, op: WireOp): boolean {
  let moved = false;
  for (const id of erasedBy(op)) {
    const at = cut.get(id);
    if (at === undefined || at < op.h) {
      cut.set(id, op.h);
      moved = true;
    }
  }
  return moved;
}

/** A non-tombstone operation older than a tombstone of a memory it names. */
function isErased(op: WireOp, cut: ReadonlyMap<string, string>): boolean {
  if (op.x || cut.size === 0) return false;
  return op.r.some((id) => {
    const at = cut.get(id);
    return at !== undefined && op.h < at;
  });
}

/** Clock order is string order; no clock sorts after this. */
const END_OF_TIME = '\uffff';

function encodeSegment(header: SegmentHeader, ops: WireOp[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(header)}\n`)];
  for (const op of ops) {
    const json = Buffer.from(JSON.stringify(wireShape(op)));
    parts.push(Buffer.from(`${lineSum(json)} `), json, Buffer.from('\n'));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, Buffer.from(`end ${ops.length} ${sha256(body)}\n`)]);
}

/** The bytes of one op line, for the size checks of a write. */
function opLineBytes(op: WireOp): number {
  return Buffer.byteLength(JSON.stringify(wireShape(op))) + 18;
}

function parseHeader(
  text: string,
  device: string,
  store: string,
): { header: SegmentHeader | null; problem: { message: string; newer: boolean } | null } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return {
      header: null,
      problem: { message: 'its first line is not a segment header', newer: false },
    };
  }
  const h = v as Partial<SegmentHeader> | null;
  if (typeof h !== 'object' || h === null || h.format !== SEGMENT_FORMAT)
    return { header: null, problem: { message: 'it is not a Loci segment', newer: false } };
  if (typeof h.version !== 'number' || h.version > SEGMENT_VERSION)
    return {
      header: null,
      problem: {
        message: `it was written in segment format ${String(h.version)}, newer than this Loci reads (${SEGMENT_VERSION})`,
        newer: true,
      },
    };
  if (h.device !== device)
    return {
      header: null,
      problem: {
        message: `its header names device ${String(h.device).slice(0, 40)}, not ${device} whose folder it is in`,
        newer: false,
      },
    };
  if (h.store !== store)
    return {
      header: null,
      problem: {
        message: `its header names store ${String(h.store).slice(0, 70)}, not ${store}`,
        newer: false,
      },
    };
  const covers =
    Array.isArray(h.covers) && h.covers.every((c) => typeof c === 'string') ? h.covers : undefined;
  return {
    header: {
      format: SEGMENT_FORMAT,
      version: h.version,
      device,
      store,
      segment: typeof h.segment === 'number' ? h.segment : 0,
      created: typeof h.created === 'number' ? h.created : 0,
      ...(covers ? { covers } : {}),
    },
    problem: null,
  };
}

/** Reads a whole segment, line by line; never throws on what the file holds. */
function parseSegment(buf: Buffer, device: string, store: string): ParsedSegment {
  const out: ParsedSegment = {
    header: null,
    headerProblem: null,
    lines: [],
    complete: false,
    truncatedAt: null,
    endProblems: [],
    contentSha: '',
    clean: false,
  };
  const first = buf.indexOf(10);
  if (first < 0) {
    out.truncatedAt = 1;
    out.contentSha = sha256(buf);
    return out;
  }
  if (first > MAX_LINE_BYTES) {
    out.headerProblem = { message: 'its first line is longer than 1 MiB', newer: false };
  } else {
    const parsed = parseHeader(buf.toString('utf8', 0, first), device, store);
    out.header = parsed.header;
    out.headerProblem = parsed.problem;
  }
  let refused = out.headerProblem !== null;
  let pos = first + 1;
  let line = 2;
  let trailerAt = -1;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) {
      out.truncatedAt = line;
      break;
    }
    if (trailerAt >= 0) {
      out.endProblems.push({ line, message: 'there is more after its closing line' });
      refused = true;
      break;
    }
    if (nl - pos > MAX_LINE_BYTES) {
      out.lines.push({ line, start: pos, end: nl + 1, problem: 'is longer than 1 MiB; not read' });
      refused = true;
    } else if (buf[pos] === 0x65 /* e */ && buf.toString('latin1', pos, pos + 4) === 'end ') {
      trailerAt = pos;
      out.complete = true;
      out.contentSha = sha256(buf.subarray(0, pos));
      const m = TRAILER.exec(buf.toString('latin1', pos, nl));
      if (!m) {
        out.endProblems.push({ line, message: 'its closing line is damaged' });
        refused = true;
      } else if (Number(m[1]) !== out.lines.length) {
        out.endProblems.push({
          line,
          message: `its closing line counts ${m[1]} operations but ${out.lines.length} lines are there (lines were added or removed)`,
        });
        refused = true;
      } else if (m[2] !== out.contentSha) {
        // Reported only when no line was refused: a refused line already says what changed.
        if (!refused)
          out.endProblems.push({
            line,
            message: 'it was changed after it was written (the closing checksum does not match)',
          });
        refused = true;
      }
    } else {
      const entry: SegmentLine = { line, start: pos, end: nl + 1 };
      const sum = buf.toString('latin1', pos, pos + 16);
      const json = buf.subarray(pos + 17, nl);
      if (!LINE_SUM.test(sum) || buf[pos + 16] !== 0x20) {
        entry.problem = 'is not an operation line';
      } else if (lineSum(json) !== sum) {
        entry.problem = 'does not match its checksum (it was changed after it was written)';
      } else {
        let v: unknown;
        try {
          v = JSON.parse(json.toString('utf8'));
        } catch {
          v = undefined;
          entry.problem = 'is not valid JSON';
        }
        if (!entry.problem) {
          const problem = opProblem(v, device);
          if (problem) entry.problem = `holds an operation that ${problem}`;
          else entry.op = wireShape(v as WireOp);
        }
      }
      if (entry.problem) refused = true;
      out.lines.push(entry);
    }
    pos = nl + 1;
    line += 1;
  }
  if (!out.complete) {
    out.truncatedAt ??= line;
    out.contentSha = sha256(buf);
  }
  out.clean = out.complete && !refused;
  return out;
}

// ---------------------------------------------------------------------------------------
// Files

interface Listed {
  name: string;
  /** The segment number its name starts with. */
  n: number;
  z: number;
  m: number;
  i: number;
}

function fsCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** A file-system failure as the person should hear it, naming the path. */
function fsFailure(err: unknown, path: string, doing: string): LociError {
  const code = fsCode(err) ?? 'error';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new LociError(
      'environment',
      `cannot ${doing} ${path}: permission denied (${code}). Make the sync folder writable by this user, or choose another folder.`,
      { path, code },
    );
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new LociError(
      'environment',
      `cannot ${doing} ${path}: the disk is full (${code}). Free some space and sync again.`,
      { path, code },
    );
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return new LociError(
      'environment',
      `cannot ${doing} ${path}: a file stands where Loci keeps a folder (${code}). Move that file away and try again.`,
      { path, code },
    );
  return new LociError(
    'unavailable',
    `cannot ${doing} ${path} (${code}). Check that the sync folder is reachable (a network or removable drive may be disconnected).`,
    { path, code },
  );
}

/** Writes through a hidden temporary name, fsynced, renamed into place (atomic). */
async function writeAtomic(dir: string, name: string, data: Buffer | string): Promise<void> {
  const tmp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fh = await openFile(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, join(dir, name));
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw fsFailure(err, join(dir, name), 'write');
  }
  await syncDir(dir);
}

/** Makes a rename or unlink durable; best effort (Windows cannot open a directory). */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await openFile(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* not supported here */
  }
}

/** The segment files of a device directory, in segment order (a name's copies after it). */
async function listSegments(dir: string): Promise<Listed[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: Listed[] = [];
  for (const ent of entries) {
    // Regular files only: a symlink could point anywhere on this machine.
    if (!ent.isFile()) continue;
    const m = SEGMENT_NAME.exec(ent.name);
    if (!m) continue;
    try {
      const st = await stat(join(dir, ent.name));
      out.push({ name: ent.name, n: Number(m[1]), z: st.size, m: st.mtimeMs, i: st.ino });
    } catch {
      /* removed meanwhile */
    }
  }
  return out.sort((a, b) => {
    if (a.n !== b.n) return a.n - b.n;
    const ao = OWN_SEGMENT_NAME.test(a.name) ? 0 : 1;
    const bo = OWN_SEGMENT_NAME.test(b.name) ? 0 : 1;
    if (ao !== bo) return ao - bo;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

// ---------------------------------------------------------------------------------------
// device.json

interface DeviceFile {
  format: string;
  format_version: number;
  id: string;
  name: string;
  /** The Loci version. */
  version: string;
  store: string;
  /** Epoch ms of the device's own clock: there is no other in a folder. */
  last_seen: number | null;
  last_push: number | null;
  /** Operations pushed to this store, in total. */
  ops: number;
  /** The segments it wrote, by name, with their content hash: it notices one lost. */
  segments: Record<string, string>;
}

async function readDeviceFile(file: string): Promise<Partial<DeviceFile> | null> {
  try {
    const st = await stat(file);
    if (!st.isFile() || st.size > MAX_DEVICE_FILE_BYTES) return null;
    const v: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    const o = v as Record<string, unknown>;
    const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
    const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
    const segments: Record<string, string> = {};
    if (typeof o.segments === 'object' && o.segments !== null) {
      for (const [k, s] of Object.entries(o.segments as Record<string, unknown>))
        if (OWN_SEGMENT_NAME.test(k) && typeof s === 'string') segments[k] = s;
    }
    return {
      id: str(o.id),
      name: str(o.name),
      version: str(o.version),
      last_seen: num(o.last_seen) ?? null,
      last_push: num(o.last_push) ?? null,
      ops: num(o.ops) ?? 0,
      segments,
    };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------
// The cursor

/** What a pull knows of one file of another device. */
interface FileMark {
  /** Size, mtime and inode when last read: unchanged, it is not opened again. */
  z: number;
  m: number;
  i: number;
  /** Bytes consumed, and their sha256: a changed file resumes there if they still match. */
  o: number;
  p: string;
  /** Read to its closing line. */
  k?: 1;
  /** Its content hash, when it was read whole without a problem (for `covers`). */
  t?: string;
}

interface Cursor {
  v: number;
  s: string;
  f: Record<string, FileMark>;
}

function decodeCursor(cursor: string | null, store: string): Cursor {
  if (cursor === null) return { v: CURSOR_VERSION, s: store, f: {} };
  let v: unknown;
  try {
    v = JSON.parse(cursor);
  } catch {
    v = null;
  }
  const c = v as Partial<Cursor> | null;
  const ok =
    typeof c === 'object' &&
    c !== null &&
    c.v === CURSOR_VERSION &&
    c.s === store &&
    typeof c.f === 'object' &&
    c.f !== null &&
    Object.values(c.f).every(
      (m: Partial<FileMark> | null) =>
        typeof m === 'object' &&
        m !== null &&
        typeof m.z === 'number' &&
        typeof m.m === 'number' &&
        typeof m.i === 'number' &&
        typeof m.o === 'number' &&
        typeof m.p === 'string',
    );
  if (!ok)
    throw new LociError(
      'invalid-args',
      `not a cursor of the synced folder for store ${store}; pull from the beginning (cursor null) instead`,
      { field: 'cursor' },
    );
  return c as Cursor;
}

const sameFile = (mark: FileMark, f: Listed) => mark.z === f.z && mark.m === f.m && mark.i === f.i;

// ---------------------------------------------------------------------------------------
// The transport

/** What this device knows of one of its own segment files. */
interface OwnFile extends Listed {
  contentSha: string;
  clean: boolean;
  /** The clocks of its valid operations. */
  hs: string[];
  /** Memory ids its non-tombstone operations name (what an erasure may purge). */
  refs: Set<string>;
  /** The content hashes its header says it repeats. */
  covers: string[];
}

export class FolderSync implements SyncTransport {
  readonly kind = 'folder' as const;
  readonly target: string;

  private readonly folder: string;
  private readonly store: string;
  private readonly self: DeviceSelf;
  private readonly clock: () => number;
  private readonly segmentOps: number;
  private readonly compactAfter: number;
  private readonly storeDir: string;
  private readonly ownDir: string;

  private state: 'new' | 'open' | 'closed' = 'new';
  /** Calls run one at a time: a purge from a pull must not race a push's write. */
  private chain: Promise<unknown> = Promise.resolve();

  private own = new Map<string, OwnFile>();
  /** Clocks of the operations this device's segments hold (a push skips them). */
  private written = new Set<string>();
  /** Tombstones known (own, and those pulled since open), by memory id. */
  private readonly erased: Cut = new Map();
  /** The segments this device wrote, with their content hash (kept in device.json). */
  private recorded: Record<string, string> = {};
  /** Own segments deleted or changed by someone else: the others may lack their ops. */
  private lost: string[] = [];
  private nextSegment = 1;
  private opsTotal = 0;
  private lastPush: number | null = null;
  private lastSeen: number | null = null;

  constructor(options: FolderSyncOptions) {
    if (!isDeviceId(options.self.id))
      throw new LociError('invalid-args', `not a device id: ${options.self.id.slice(0, 40)}`, {
        field: 'self.id',
      });
    if (!StoreNameSchema.safeParse(options.store).success)
      throw new LociError('invalid-args', `not a store name: ${options.store.slice(0, 70)}`, {
        field: 'store',
      });
    const segmentOps = options.segmentOps ?? DEFAULT_SEGMENT_OPS;
    const compactAfter = options.compactAfter ?? DEFAULT_COMPACT_AFTER;
    if (!Number.isInteger(segmentOps) || segmentOps < 1)
      throw new LociError('invalid-args', 'segmentOps is a whole number of at least 1', {
        field: 'segmentOps',
      });
    if (!Number.isInteger(compactAfter) || compactAfter < 2)
      throw new LociError('invalid-args', 'compactAfter is a whole number of at least 2', {
        field: 'compactAfter',
      });
    this.folder = resolve(options.folder);
    this.target = this.folder;
    this.store = options.store;
    this.self = options.self;
    this.clock = options.clock ?? Date.now;
    this.segmentOps = segmentOps;
    this.compactAfter = compactAfter;
    this.storeDir = join(this.folder, 'loci', this.store);
    this.ownDir = join(this.storeDir, this.self.id);
  }

  open(): Promise<void> {
    return this.serial(async () => {
      if (this.state === 'closed')
        throw new LociError('unavailable', 'this folder sync was closed; make a new one');
      await this.checkFolder();
      try {
        await mkdir(this.ownDir, { recursive: true, mode: 0o700 });
      } catch (err) {
        throw fsFailure(err, this.ownDir, 'create');
      }
      // Only this process writes here, so any temporary file is a crash's leftover.
      for (const name of await readdir(this.ownDir).catch(() => [] as string[]))
        if (TEMP_NAME.test(name)) await unlink(join(this.ownDir, name)).catch(() => undefined);
      const read = await readDeviceFile(join(this.ownDir, 'device.json'));
      const known = read && read.id === this.self.id ? read : null;
      this.own.clear();
      this.lost = [];
      if (known) {
        this.recorded = known.segments ?? {};
        this.opsTotal = known.ops ?? 0;
        this.lastPush = known.last_push ?? null;
      } else {
        this.recorded = {};
        this.opsTotal = 0;
        this.lastPush = null;
      }
      await this.refreshOwn();
      if (!known) {
        // No record (first open, or device.json deleted): what is there now is the baseline.
        for (const f of this.own.values())
          if (OWN_SEGMENT_NAME.test(f.name) && f.clean) this.recorded[f.name] = f.contentSha;
        this.opsTotal = this.written.size;
      }
      this.state = 'open';
      await this.compact(0);
      this.lastSeen = this.clock();
      await this.writeDeviceFile();
    });
  }

  push(ops: WireOp[]): Promise<void> {
    return this.serial(async () => {
      this.requireOpen();
      for (const op of ops) this.checkOwnOp(op);
      await this.refreshOwn();
      // Tombstones of this batch first: what they obsolete (in this batch too, or in a
      // batch replayed after the purge) never reaches the folder.
      const moved = new Set<string>();
      for (const op of ops) {
        if (op.x && addTombstone(this.erased, op)) for (const id of erasedBy(op)) moved.add(id);
      }
      const fresh: WireOp[] = [];
      const inBatch = new Set<string>();
      for (const op of ops) {
        if (this.written.has(op.h) || inBatch.has(op.h)) continue;
        if (isErased(op, this.erased)) continue;
        inBatch.add(op.h);
        fresh.push(wireShape(op));
      }
      const chunks = this.chunk(fresh);
      let changed = await this.compact(chunks.length);
      if (chunks.length > 0) {
        await this.writeSegments(chunks);
        this.opsTotal += fresh.length;
        this.lastPush = this.clock();
        changed = true;
      }
      // The tombstone is in the folder first; then what it obsoletes leaves.
      if (moved.size > 0 && (await this.purgeOwn(moved, this.erased))) changed = true;
      await this.touch(changed);
    });
  }

  pull(cursor: string | null, limit: number): Promise<PullResult> {
    return this.serial(async () => {
      this.requireOpen();
      if (!Number.isInteger(limit) || limit < 1)
        throw new LociError('invalid-args', 'limit is a whole number of at least 1', {
          field: 'limit',
        });
      const prev = decodeCursor(cursor, this.store);
      await this.checkFolder();
      await this.refreshOwn();
      const problems: SyncProblem[] = this.lost.map((name) => ({
        where: this.rel(this.self.id, name),
        message: `segment ${name} of this device was deleted or changed in the synced folder (by hand or by a sync tool); the other devices may be missing the operations it held`,
        fix: LOST_FIX,
      }));
      const next: Record<string, FileMark> = {};
      const ops: WireOp[] = [];
      const seen = new Set<string>();
      const moved = new Set<string>();
      let stopped = false;

      for (const device of await this.otherDevices()) {
        const dir = join(this.storeDir, device);
        const files = await listSegments(dir);
        const prefix = `${device}/`;
        // The segments of this device already read whole and clean, by content hash.
        const cleanShas = new Set<string>();
        for (const [key, mark] of Object.entries(prev.f))
          if (key.startsWith(prefix) && mark.k && mark.t) cleanShas.add(mark.t);
        for (const f of files) {
          const key = prefix + f.name;
          const mark = prev.f[key];
          if (stopped || (mark?.k && sameFile(mark, f))) {
            if (mark) next[key] = mark;
            continue;
          }
          const stamp = { z: f.z, m: f.m, i: f.i };
          if (f.z > MAX_SEGMENT_BYTES) {
            problems.push({
              where: this.rel(device, f.name),
              message: `segment is ${Math.round(f.z / MiB)} MiB, more than the ${MAX_SEGMENT_BYTES / MiB} MiB a segment may be; not read`,
              fix: DAMAGED_FIX(device),
            });
            next[key] = { ...stamp, o: 0, p: '', k: 1 };
            continue;
          }
          let buf: Buffer;
          try {
            buf = await readFile(join(dir, f.name));
          } catch {
            continue; // removed since the listing: a compaction, a device leaving
          }
          let start = 0;
          if (mark && mark.o <= buf.length && sha256(buf.subarray(0, mark.o)) === mark.p)
            start = mark.o;
          if (mark?.k && start === buf.length) {
            next[key] = { ...mark, ...stamp }; // touched, not changed
            continue;
          }
          const seg = parseSegment(buf, device, this.store);
          if (
            start === 0 &&
            seg.clean &&
            seg.header?.covers?.length &&
            seg.header.covers.every((sha) => cleanShas.has(sha))
          ) {
            next[key] = { ...stamp, o: buf.length, p: sha256(buf), k: 1, t: seg.contentSha };
            continue;
          }
          if (seg.headerProblem) {
            problems.push({
              where: this.rel(device, f.name, 1),
              message: `segment refused: ${seg.headerProblem.message}`,
              fix: seg.headerProblem.newer ? NEWER_FIX : DAMAGED_FIX(device),
            });
            // A newer format is read once this device is updated: it stays unread.
            if (!seg.headerProblem.newer)
              next[key] = { ...stamp, o: buf.length, p: sha256(buf), k: 1 };
            continue;
          }
          let consumed = start;
          for (const line of seg.lines) {
            if (line.start < start) continue;
            if (line.op) {
              if (ops.length >= limit) {
                stopped = true;
                break;
              }
              if (!seen.has(line.op.h)) {
                seen.add(line.op.h);
                ops.push(line.op);
                if (line.op.x && addTombstone(this.erased, line.op))
                  for (const id of erasedBy(line.op)) moved.add(id);
              }
            } else {
              problems.push({
                where: this.rel(device, f.name, line.line),
                message: `line ${line.line} ${line.problem ?? 'is damaged'}; its operation was skipped`,
                fix: DAMAGED_FIX(device),
              });
            }
            consumed = line.end;
          }
          if (stopped) {
            next[key] = { ...stamp, o: consumed, p: sha256(buf.subarray(0, consumed)) };
            continue;
          }
          for (const p of seg.endProblems)
            problems.push({
              where: this.rel(device, f.name, p.line),
              message: `segment ${p.message}`,
              fix: DAMAGED_FIX(device),
            });
          if (seg.complete) {
            next[key] = {
              ...stamp,
              o: buf.length,
              p: sha256(buf),
              k: 1,
              ...(seg.clean ? { t: seg.contentSha } : {}),
            };
          } else {
            // Cut short looks the same as still being copied: not marked read, so a later
            // pull reads it again, from the last whole line if its beginning is unchanged.
            problems.push({
              where: this.rel(device, f.name, seg.truncatedAt ?? 1),
              message: `segment ends at line ${seg.truncatedAt ?? 1} without its closing line (it is still being copied, or it was cut short); the whole lines before were read`,
              fix: DAMAGED_FIX(device),
            });
            next[key] = { ...stamp, o: consumed, p: sha256(buf.subarray(0, consumed)) };
          }
        }
      }

      // Another device erased (or withdrew) memories: this device's own older operations
      // on them leave the folder now, before the replica has even applied the tombstone.
      const changed = moved.size > 0 && (await this.purgeOwn(moved, this.erased));
      await this.touch(changed);
      return {
        ops,
        cursor: JSON.stringify({ v: CURSOR_VERSION, s: this.store, f: next } satisfies Cursor),
        more: stopped,
        problems,
      };
    });
  }

  /**
   * The replica erased or withdrew these memories on hearing of it from another device:
   * every operation of this device's segments naming them goes (tombstones stay). The
   * pull that brought the tombstone already dropped those older than it; this also takes
   * what the replica's own log no longer holds. Later operations are not held back: a
   * withdrawn memory shared again rejoins.
   */
  purge(ids: string[]): Promise<void> {
    return this.serial(async () => {
      this.requireOpen();
      if (ids.length === 0) return;
      await this.refreshOwn();
      const cut: Cut = new Map(ids.map((id) => [id, END_OF_TIME]));
      await this.touch(await this.purgeOwn(new Set(ids), cut));
    });
  }

  /**
   * Writes all of this device's operations again into fresh segments and removes the old
   * ones (the removal reaches every device, taking a damaged copy with it). For when a
   * device reports one of this device's segments damaged, or this device finds one of
   * its own lost (`needsRepublish`). `ops`: this device's operations as the replica
   * holds them, which restores what the folder lost; without them, what this device's
   * own segments still hold is written again. Returns how many operations were written.
   */
  republish(ops: WireOp[] = []): Promise<number> {
    return this.serial(async () => {
      this.requireOpen();
      for (const op of ops) this.checkOwnOp(op);
      await this.refreshOwn();
      const all = new Map<string, WireOp>();
      for (const op of ops) if (!all.has(op.h)) all.set(op.h, wireShape(op));
      const old = [...this.own.values()];
      for (const f of old)
        for (const op of await this.readOwnOps(f)) if (!all.has(op.h)) all.set(op.h, op);
      for (const op of all.values()) if (op.x) addTombstone(this.erased, op);
      const keep = [...all.values()]
        .filter((op) => !isErased(op, this.erased))
        .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
      const written = new Set(await this.writeSegments(this.chunk(keep)));
      this.lastSeen = this.clock();
      // What was lost is replaced: device.json lists the fresh segments only.
      for (const name of Object.keys(this.recorded))
        if (!written.has(name) && !this.own.has(name)) delete this.recorded[name];
      await this.removeOwn(old.map((f) => f.name).filter((name) => !written.has(name)));
      this.lost = [];
      await this.writeDeviceFile();
      return keep.length;
    });
  }

  /**
   * Some of this device's segments were deleted or changed in the folder since it wrote
   * them (a pull reports which): republish, with the replica's operations, to restore them.
   */
  needsRepublish(): boolean {
    return this.lost.length > 0;
  }

  devices(): Promise<SyncDevice[]> {
    return this.serial(async () => {
      this.requireOpen();
      const out: SyncDevice[] = [
        {
          id: this.self.id,
          name: this.self.name,
          last_seen: this.lastSeen,
          last_push: this.lastPush,
          ops: this.opsTotal,
          clock_skew_ms: null,
          version: this.self.version,
        },
      ];
      for (const id of await this.otherDevices()) {
        const dir = join(this.storeDir, id);
        const info = await readDeviceFile(join(dir, 'device.json'));
        // Until its device.json arrives (or if it is damaged), the files' times stand in
        // (the sync tools keep the writer's mtime).
        let newest: number | null = null;
        if (info?.last_seen == null || info.last_push == null) {
          for (const f of await listSegments(dir)) newest = Math.max(newest ?? 0, f.m);
        }
        const lastPush = info?.last_push ?? newest;
        out.push({
          id,
          name: info?.name ?? id,
          last_seen: info?.last_seen ?? lastPush,
          last_push: lastPush,
          ops: info?.ops ?? 0,
          // No shared clock: every time above is the device's own.
          clock_skew_ms: null,
          version: info?.version ?? null,
        });
      }
      return out;
    });
  }

  /**
   * Removes this device's directory. Its operations stay applied on the devices that
   * pulled them; a device that had not pulled them yet, or joins later, never gets them,
   * since the folder has no copy but this device's.
   */
  leave(): Promise<void> {
    return this.serial(async () => {
      this.requireOpen();
      try {
        await rm(this.ownDir, { recursive: true, force: true });
      } catch (err) {
        throw fsFailure(err, this.ownDir, 'remove');
      }
      this.own.clear();
      this.written.clear();
      this.recorded = {};
      this.lost = [];
      this.state = 'closed';
    });
  }

  close(): Promise<void> {
    return this.serial(() => {
      this.state = 'closed';
      return Promise.resolve();
    });
  }

  // -------------------------------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private requireOpen(): void {
    if (this.state !== 'open')
      throw new LociError(
        'unavailable',
        this.state === 'new'
          ? 'the folder sync is not open yet'
          : 'the folder sync is closed (or this device left the folder)',
      );
  }

  /** The folder exists, is a folder, and this user may write to it. */
  private async checkFolder(): Promise<void> {
    let st;
    try {
      st = await stat(this.folder);
    } catch (err) {
      if (fsCode(err) === 'ENOENT')
        throw new LociError(
          'environment',
          `the sync folder ${this.folder} does not exist. Create it, or choose the folder your sync tool (Syncthing, Dropbox, iCloud Drive, a git clone) keeps in step, then try again.`,
          { path: this.folder },
        );
      throw fsFailure(err, this.folder, 'reach');
    }
    if (!st.isDirectory())
      throw new LociError(
        'environment',
        `the sync folder ${this.folder} is a file, not a folder. Choose the folder your sync tool keeps in step.`,
        { path: this.folder },
      );
    try {
      await access(this.folder, constants.W_OK);
    } catch (err) {
      throw new LociError(
        'environment',
        `the sync folder ${this.folder} is not writable by this user (${fsCode(err) ?? 'error'}). Make it writable, or choose another folder.`,
        { path: this.folder },
      );
    }
  }

  private checkOwnOp(op: WireOp): void {
    const problem = opProblem(op, this.self.id);
    if (problem)
      throw new LociError('invalid-args', `operation ${String(op?.h).slice(0, 60)} ${problem}`, {
        field: 'ops',
      });
    const bytes = opLineBytes(op);
    if (bytes > MAX_LINE_BYTES)
      throw new LociError(
        'invalid-args',
        `operation ${op.h} is ${bytes} bytes as a segment line; a line holds at most ${MAX_LINE_BYTES}`,
        { field: 'ops' },
      );
  }

  private rel(device: string, name: string, line?: number): string {
    const path = `loci/${this.store}/${device}/${name}`;
    return line === undefined ? path : `${path}:${line}`;
  }

  /** The directories of the other devices of this store, by id. */
  private async otherDevices(): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.storeDir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries
      .filter((e) => e.isDirectory() && e.name !== this.self.id && isDeviceId(e.name))
      .map((e) => e.name)
      .sort();
  }

  /**
   * Brings what this device knows of its own segments up to date with the folder: a
   * sync tool may have removed one (deleted on another device), changed one, or put a
   * conflicted copy beside one. Only files whose size, mtime or inode changed are read.
   */
  private async refreshOwn(): Promise<void> {
    try {
      await mkdir(this.ownDir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw fsFailure(err, this.ownDir, 'create');
    }
    const listed = await listSegments(this.ownDir);
    const fresh = new Map<string, OwnFile>();
    for (const f of listed) {
      const cached = this.own.get(f.name);
      if (cached && cached.z === f.z && cached.m === f.m && cached.i === f.i) {
        fresh.set(f.name, cached);
        continue;
      }
      if (f.z > MAX_SEGMENT_BYTES) continue;
      let buf: Buffer;
      try {
        buf = await readFile(join(this.ownDir, f.name));
      } catch {
        continue;
      }
      fresh.set(f.name, this.describeOwn(f, parseSegment(buf, this.self.id, this.store)));
    }
    this.own = fresh;
    this.written = new Set();
    for (const f of fresh.values()) {
      for (const h of f.hs) this.written.add(h);
      this.nextSegment = Math.max(this.nextSegment, f.n + 1);
    }
    for (const name of Object.keys(this.recorded)) {
      const n = Number(name.slice(0, 8));
      this.nextSegment = Math.max(this.nextSegment, n + 1);
    }
    // A listed segment gone or changed is lost, unless a clean segment of ours repeats it
    // (a merge or a purge whose device.json did not make it to disk before a crash).
    const covered = new Set<string>();
    for (const f of fresh.values()) if (f.clean) for (const sha of f.covers) covered.add(sha);
    this.lost = [];
    for (const [name, sha] of Object.entries(this.recorded)) {
      const f = fresh.get(name);
      if (f && f.clean && f.contentSha === sha) continue;
      if (!covered.has(sha)) this.lost.push(name);
      else if (f && f.clean) this.recorded[name] = f.contentSha;
      else delete this.recorded[name];
    }
  }

  private describeOwn(f: Listed, seg: ParsedSegment): OwnFile {
    const hs: string[] = [];
    const refs = new Set<string>();
    for (const line of seg.lines) {
      if (!line.op) continue;
      hs.push(line.op.h);
      if (line.op.x) addTombstone(this.erased, line.op);
      else for (const id of line.op.r) refs.add(id);
    }
    return {
      ...f,
      contentSha: seg.contentSha,
      clean: seg.clean && !seg.headerProblem,
      hs,
      refs,
      covers: seg.header?.covers ?? [],
    };
  }

  /** The valid operations of one of this device's segments, read again from the folder. */
  private async readOwnOps(f: Listed): Promise<WireOp[]> {
    let buf: Buffer;
    try {
      buf = await readFile(join(this.ownDir, f.name));
    } catch {
      return [];
    }
    const seg = parseSegment(buf, this.self.id, this.store);
    if (seg.headerProblem) return [];
    return seg.lines.flatMap((l) => (l.op ? [l.op] : []));
  }

  /**
   * Writes operations into new segments and records them; returns their names. On a
   * failure, those of this call are removed again (all or none); after a crash the rest
   * are repeats, which a replayed push skips.
   */
  private async writeSegments(chunks: WireOp[][]): Promise<string[]> {
    const names: string[] = [];
    try {
      for (const c of chunks) {
        const n = this.nextSegment++;
        names.push(await this.writeOwn(segmentName(n), n, c));
      }
    } catch (err) {
      await this.removeOwn(names).catch(() => undefined);
      throw err;
    }
    return names;
  }

  /** Operations cut into segments: at most `segmentOps` and 16 MiB each. */
  private chunk(ops: WireOp[]): WireOp[][] {
    const chunks: WireOp[][] = [];
    let chunk: WireOp[] = [];
    let bytes = 0;
    for (const op of ops) {
      const size = opLineBytes(op);
      if (
        chunk.length > 0 &&
        (chunk.length >= this.segmentOps || bytes + size > WRITE_SEGMENT_BYTES)
      ) {
        chunks.push(chunk);
        chunk = [];
        bytes = 0;
      }
      chunk.push(op);
      bytes += size;
    }
    if (chunk.length > 0) chunks.push(chunk);
    return chunks;
  }

  /** Writes (or rewrites) one of this device's segment files and records it. */
  private async writeOwn(
    name: string,
    n: number,
    ops: WireOp[],
    covers?: string[],
  ): Promise<string> {
    const header: SegmentHeader = {
      format: SEGMENT_FORMAT,
      version: SEGMENT_VERSION,
      device: this.self.id,
      store: this.store,
      segment: n,
      created: this.clock(),
      ...(covers && covers.length > 0 ? { covers } : {}),
    };
    const data = encodeSegment(header, ops);
    await writeAtomic(this.ownDir, name, data);
    let st;
    try {
      st = await stat(join(this.ownDir, name));
    } catch (err) {
      throw fsFailure(err, join(this.ownDir, name), 'read');
    }
    const listed: Listed = { name, n, z: st.size, m: st.mtimeMs, i: st.ino };
    const file = this.describeOwn(listed, parseSegment(data, this.self.id, this.store));
    const previous = this.own.get(name);
    if (previous) for (const h of previous.hs) this.written.delete(h);
    this.own.set(name, file);
    for (const h of file.hs) this.written.add(h);
    if (OWN_SEGMENT_NAME.test(name)) this.recorded[name] = file.contentSha;
    return name;
  }

  /**
   * Deletes some of this device's segments. device.json stops listing them first: a crash
   * in between leaves unlisted files (repeats, merged away later), never listed files
   * missing, which would read as lost.
   */
  private async removeOwn(names: string[]): Promise<void> {
    if (names.length === 0) return;
    for (const name of names) {
      this.own.delete(name);
      delete this.recorded[name];
    }
    this.written = new Set([...this.own.values()].flatMap((f) => f.hs));
    await this.writeDeviceFile();
    for (const name of names) {
      try {
        await unlink(join(this.ownDir, name));
      } catch (err) {
        if (fsCode(err) !== 'ENOENT') throw fsFailure(err, join(this.ownDir, name), 'remove');
      }
    }
    await syncDir(this.ownDir);
  }

  /** Writes device.json when something changed, or to refresh an old `last_seen`. */
  private async touch(changed: boolean): Promise<void> {
    const now = this.clock();
    if (!changed && this.lastSeen !== null && now - this.lastSeen < SEEN_REFRESH_MS) return;
    this.lastSeen = now;
    await this.writeDeviceFile();
  }

  /**
   * Rewrites every segment of this device holding an operation that `cut` makes obsolete
   * (of a memory in `ids`), without it: the same name, renamed over (atomic); a segment
   * left empty is removed. Returns whether any file changed.
   */
  private async purgeOwn(
    ids: ReadonlySet<string>,
    cut: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    let changed = false;
    for (const f of [...this.own.values()]) {
      if (![...f.refs].some((id) => ids.has(id))) continue;
      const ops = await this.readOwnOps(f);
      const keep = ops.filter((op) => !isErased(op, cut));
      if (keep.length === ops.length) continue;
      if (keep.length === 0) await this.removeOwn([f.name]);
      else await this.writeOwn(f.name, f.n, keep, [f.contentSha]);
      changed = true;
    }
    return changed;
  }

  /**
   * When `adding` more segments would take this device past `compactAfter`, merges its
   * consecutive segments (up to 16 MiB a merge; one of 4 MiB or more is left as it is)
   * into a new one, then deletes them: the new one is in place first, so a reader sees
   * operations twice at worst, which is harmless, never none. Run before a push writes,
   * so a merge holds only segments the others may have read already: those that have
   * skip it (`covers`) instead of reading everything again after each merge.
   */
  private async compact(adding: number): Promise<boolean> {
    const files = [...this.own.values()].sort((a, b) =>
      a.n !== b.n ? a.n - b.n : a.name < b.name ? -1 : 1,
    );
    if (files.length + adding <= this.compactAfter) return false;
    const bins: OwnFile[][] = [];
    let bin: OwnFile[] = [];
    let bytes = 0;
    for (const f of files) {
      const big = f.z >= MERGE_KEEP_BYTES;
      if (bin.length > 0 && (big || bytes + f.z > WRITE_SEGMENT_BYTES)) {
        bins.push(bin);
        bin = [];
        bytes = 0;
      }
      if (big) continue;
      bin.push(f);
      bytes += f.z;
    }
    bins.push(bin);
    let changed = false;
    for (const group of bins) {
      if (group.length < 2) continue;
      const merged = new Map<string, WireOp>();
      for (const f of group)
        for (const op of await this.readOwnOps(f))
          if (!merged.has(op.h) && !isErased(op, this.erased)) merged.set(op.h, op);
      // A reader that read every source cleanly has all of it and may skip the merge. A
      // source damaged here is safe to list too: a reader's copy with that content hash
      // is damaged the same way, so it is never among the clean ones.
      if (merged.size > 0) {
        const n = this.nextSegment++;
        const covers = group.map((f) => f.contentSha);
        await this.writeOwn(segmentName(n), n, [...merged.values()], covers);
      }
      await this.removeOwn(group.map((f) => f.name));
      changed = true;
    }
    return changed;
  }

  private async writeDeviceFile(): Promise<void> {
    const file: DeviceFile = {
      format: DEVICE_FORMAT,
      format_version: DEVICE_VERSION,
      id: this.self.id,
      name: this.self.name,
      version: this.self.version,
      store: this.store,
      last_seen: this.lastSeen,
      last_push: this.lastPush,
      ops: this.opsTotal,
      segments: this.recorded,
    };
    await writeAtomic(this.ownDir, 'device.json', `${JSON.stringify(file, null, 2)}\n`);
  }
}
