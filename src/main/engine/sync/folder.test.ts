// The synced-folder transport on real temporary folders. Two (or three) FolderSync
// instances share one folder, which is what a sync tool makes of the devices' copies
// once it has caught up; what a sync tool does on the way (a half-copied file, a
// conflicted copy, its temporary files) is made here by hand. Segments are built by an
// encoder of this file, from the format documented in folder.ts, not by the code tested.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LociError } from '../../../shared/errors';
import { FolderSync } from './folder';
import type { PullResult, WireOp } from './wire';

const A = 'devicea1';
const B = 'deviceb2';
const C = 'devicec3';
const STORE = 'default';
const T0 = Date.parse('2026-03-01T09:00:00Z');

const dirs: string[] = [];
const syncs: FolderSync[] = [];
afterEach(async () => {
  for (const s of syncs.splice(0)) await s.close();
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o700);
    rmSync(d, { recursive: true, force: true });
  }
});

function tempFolder(): string {
  const d = mkdtempSync(join(tmpdir(), 'loci-folder-'));
  dirs.push(d);
  return d;
}

const clock = { now: T0 };

async function device(
  folder: string,
  id: string,
  extra: { segmentOps?: number; compactAfter?: number } = {},
): Promise<FolderSync> {
  const s = new FolderSync({
    folder,
    store: STORE,
    self: { id, name: `laptop ${id}`, version: '0.1.0' },
    clock: () => clock.now,
    ...extra,
  });
  syncs.push(s);
  await s.open();
  return s;
}

let counter = 0;
/** An operation of `dev` on memory `mem` (its clock increases with each call). */
function op(dev: string, mem: string, body: unknown = { k: 'set', n: counter }): WireOp {
  counter += 1;
  const h = `${T0.toString(36).padStart(11, '0')}${counter.toString(36).padStart(4, '0')}-${dev}`;
  return { h, d: dev, e: `m:${mem}`, r: [mem], b: body };
}

function tombstone(dev: string, mem: string): WireOp {
  return { ...op(dev, mem, { k: 'gone', id: mem, why: 'erased' }), x: true };
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** A segment as folder.ts documents it; `trailer: false` leaves the closing line off. */
function encode(
  dev: string,
  segment: number,
  lines: string[],
  options: { trailer?: boolean; header?: Record<string, unknown> } = {},
): string {
  const header = JSON.stringify({
    format: 'loci-sync-segment',
    version: 1,
    device: dev,
    store: STORE,
    segment,
    created: T0,
    ...options.header,
  });
  const body = [header, ...lines].map((l) => `${l}\n`).join('');
  return options.trailer === false ? body : `${body}end ${lines.length} ${sha(body)}\n`;
}

/** One op line: its checksum and its JSON. */
function line(o: WireOp | string): string {
  const json = typeof o === 'string' ? o : JSON.stringify(o);
  return `${sha(json).slice(0, 16)} ${json}`;
}

const devDir = (folder: string, dev: string) => join(folder, 'loci', STORE, dev);
const segFiles = (folder: string, dev: string) =>
  readdirSync(devDir(folder, dev))
    .filter((n) => n.endsWith('.seg'))
    .sort();

/** Every segment file under the folder, with its text. */
function allSegments(folder: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const root = join(folder, 'loci', STORE);
  for (const dev of readdirSync(root))
    for (const name of readdirSync(join(root, dev)))
      if (name.endsWith('.seg'))
        out.push({ path: join(dev, name), text: readFileSync(join(root, dev, name), 'utf8') });
  return out;
}

/** Pulls until nothing is left; every page's ops and problems, and the last cursor. */
async function pullAll(
  s: FolderSync,
  cursor: string | null = null,
  limit = 1000,
): Promise<{
  ops: WireOp[];
  problems: PullResult['problems'];
  cursor: string | null;
  pages: number;
}> {
  const ops: WireOp[] = [];
  const problems: PullResult['problems'] = [];
  let pages = 0;
  for (;;) {
    const res = await s.pull(cursor, limit);
    pages += 1;
    ops.push(...res.ops);
    problems.push(...res.problems);
    cursor = res.cursor;
    if (!res.more) break;
    expect(res.ops.length).toBe(limit);
    if (pages > 1000) throw new Error('pull does not end');
  }
  return { ops, problems, cursor, pages };
}

const hs = (ops: WireOp[]) => ops.map((o) => o.h);

async function caught(p: Promise<unknown>): Promise<LociError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LociError);
    return err as LociError;
  }
  throw new Error('expected a LociError');
}

describe('FolderSync: exchange', () => {
  it('two devices exchange operations both ways, by pages, and the cursor resumes exactly', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 3 });
    const b = await device(folder, B);
    const fromA = Array.from({ length: 7 }, (_, i) => op(A, `m${i}`));
    const fromB = Array.from({ length: 3 }, (_, i) => op(B, `n${i}`));
    await a.push(fromA);
    await b.push(fromB);
    expect(segFiles(folder, A)).toEqual(['00000001.seg', '00000002.seg', '00000003.seg']);

    const atB = await pullAll(b, null, 2);
    expect(atB.pages).toBe(4);
    expect(atB.ops).toEqual(fromA); // in order, whole, none of B's own
    expect(atB.problems).toEqual([]);
    const atA = await pullAll(a, null, 2);
    expect(atA.ops).toEqual(fromB);

    // Only what came after the cursor; a pull with nothing new returns nothing.
    const later = [op(A, 'm7'), op(A, 'm8')];
    await a.push(later);
    const again = await b.pull(atB.cursor, 10);
    expect(again.ops).toEqual(later);
    expect(again.more).toBe(false);
    const idle = await b.pull(again.cursor, 10);
    expect(idle.ops).toEqual([]);
    expect(idle.problems).toEqual([]);
  });

  it('a limit that ends exactly at the last operation says there is no more', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    await a.push([op(A, 'x'), op(A, 'y')]);
    const res = await b.pull(null, 2);
    expect(res.ops).toHaveLength(2);
    expect(res.more).toBe(false);
  });

  it('pushing an operation twice stores one copy', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    const one = op(A, 'x', { k: 'set', marker: 'only-once' });
    await a.push([one, one]);
    await a.push([one]);
    // After a restart too: the index is rebuilt from the segments.
    await a.close();
    const a2 = await device(folder, A);
    await a2.push([one]);
    const copies = allSegments(folder).filter((f) => f.text.includes('only-once'));
    expect(copies).toHaveLength(1);
    expect(copies[0]?.text.split('only-once')).toHaveLength(2);
    expect(hs((await b.pull(null, 10)).ops)).toEqual([one.h]);
  });

  it('a pull replayed from an old cursor returns the same operations again', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 2 });
    const b = await device(folder, B);
    await a.push(Array.from({ length: 5 }, (_, i) => op(A, `m${i}`)));
    const first = await b.pull(null, 2);
    const second = await b.pull(first.cursor, 2);
    const replay = await b.pull(first.cursor, 2);
    expect(replay.ops).toEqual(second.ops);
    expect(replay.cursor).toBe(second.cursor);
    const fromStart = await pullAll(b, null, 3);
    expect(fromStart.ops).toHaveLength(5);
  });

  it('refuses a cursor that is not one of its own', async () => {
    const folder = tempFolder();
    const b = await device(folder, B);
    expect((await caught(b.pull('{"hub":1}', 10))).code).toBe('invalid-args');
    expect((await caught(b.pull('not json', 10))).code).toBe('invalid-args');
    expect((await caught(b.pull(null, 0))).code).toBe('invalid-args');
  });

  it("refuses to push another device's operation", async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const err = await caught(a.push([op(B, 'x')]));
    expect(err.code).toBe('invalid-args');
    expect(err.message).toMatch(/claims device deviceb2/);
    expect(segFiles(folder, A)).toEqual([]);
  });

  it('lists both devices from their device.json', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    clock.now = T0 + 60_000;
    const b = await device(folder, B);
    await a.push([op(A, 'x'), op(A, 'y')]);
    const list = await b.devices();
    expect(list.map((d) => d.id)).toEqual([B, A]);
    const seenA = list.find((d) => d.id === A);
    expect(seenA).toMatchObject({
      name: `laptop ${A}`,
      version: '0.1.0',
      ops: 2,
      last_push: T0 + 60_000,
      clock_skew_ms: null,
    });
    expect(list.find((d) => d.id === B)).toMatchObject({ ops: 0, last_push: null });
    clock.now = T0;
  });

  it('leaving removes only this device; the other keeps what it pulled', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    await a.push([op(A, 'x')]);
    expect((await b.pull(null, 10)).ops).toHaveLength(1);
    await a.leave();
    expect(existsSync(devDir(folder, A))).toBe(false);
    expect((await b.devices()).map((d) => d.id)).toEqual([B]);
    expect((await caught(a.push([op(A, 'y')]))).code).toBe('unavailable');
  });
});

describe('FolderSync: what sync tools leave behind', () => {
  it('reads the whole lines of a segment cut short, and the rest once it is complete', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    const ops = Array.from({ length: 5 }, (_, i) => op(A, `m${i}`));
    await a.push(ops);
    const file = join(devDir(folder, A), '00000001.seg');
    const whole = readFileSync(file);
    // Cut in the middle of line 4 (the third operation), as a copy in progress looks.
    const lines = whole.toString('utf8').split('\n');
    const cut = Buffer.byteLength(lines.slice(0, 3).join('\n')) + 1 + 20;
    writeFileSync(file, whole.subarray(0, cut));

    const partial = await b.pull(null, 100);
    expect(partial.ops).toEqual(ops.slice(0, 2));
    expect(partial.problems).toHaveLength(1);
    expect(partial.problems[0]?.where).toBe(`loci/${STORE}/${A}/00000001.seg:4`);
    expect(partial.problems[0]?.message).toMatch(/without its closing line/);
    expect(partial.problems[0]?.fix).toMatch(/republish on device devicea1/);

    // Not marked read: asked again, it is reported again, nothing repeated.
    const still = await b.pull(partial.cursor, 100);
    expect(still.ops).toEqual([]);
    expect(still.problems).toHaveLength(1);

    writeFileSync(file, whole); // the sync tool finished
    const rest = await b.pull(still.cursor, 100);
    expect(rest.ops).toEqual(ops.slice(2));
    expect(rest.problems).toEqual([]);
    expect((await b.pull(rest.cursor, 100)).ops).toEqual([]);
  });

  it('a segment cut at a line boundary is missing its closing line', async () => {
    const folder = tempFolder();
    await device(folder, A);
    const b = await device(folder, B);
    const ops = [op(A, 'x'), op(A, 'y')];
    writeFileSync(
      join(devDir(folder, A), '00000001.seg'),
      encode(A, 1, ops.map(line), { trailer: false }),
    );
    const res = await b.pull(null, 10);
    expect(res.ops).toEqual(ops);
    expect(res.problems.map((p) => p.where)).toEqual([`loci/${STORE}/${A}/00000001.seg:4`]);
  });

  it('refuses a hand-edited line and applies the rest of the file', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    const ops = [
      op(A, 'x', { text: 'one' }),
      op(A, 'y', { text: 'two' }),
      op(A, 'z', { text: 'three' }),
    ];
    await a.push(ops);
    const file = join(devDir(folder, A), '00000001.seg');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"two"', '"TWO, edited"'));

    const res = await b.pull(null, 10);
    expect(res.ops).toEqual([ops[0], ops[2]]);
    expect(res.problems).toHaveLength(1);
    expect(res.problems[0]?.where).toBe(`loci/${STORE}/${A}/00000001.seg:3`);
    expect(res.problems[0]?.message).toMatch(/does not match its checksum/);
    // Read once: the damage is reported once, not on every pull.
    expect((await b.pull(res.cursor, 10)).problems).toEqual([]);
  });

  it('refuses lines that claim another device or another device’s clock, and lines that do not parse', async () => {
    const folder = tempFolder();
    await device(folder, A);
    const b = await device(folder, B);
    const good = op(A, 'x');
    const claimsC = op(C, 'y');
    const wrongClock = { ...op(C, 'z'), d: A };
    writeFileSync(
      join(devDir(folder, A), '00000001.seg'),
      encode(A, 1, [
        line(good),
        line(claimsC),
        line(wrongClock),
        line('{"h": not json'),
        'garbage',
      ]),
    );
    const res = await b.pull(null, 10);
    expect(res.ops).toEqual([good]);
    const byLine = Object.fromEntries(
      res.problems.map((p) => [p.where.split(':').pop(), p.message]),
    );
    expect(byLine['3']).toMatch(/claims device devicec3 but sits in device devicea1's folder/);
    expect(byLine['4']).toMatch(/not one of device devicea1's/);
    expect(byLine['5']).toMatch(/not valid JSON/);
    expect(byLine['6']).toMatch(/not an operation line/);
    expect(res.problems).toHaveLength(4);
  });

  it('reads conflicted copies (Dropbox, Syncthing, iCloud) and returns each operation once', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    const ops = [op(A, 'x'), op(A, 'y')];
    await a.push(ops);
    const dir = devDir(folder, A);
    const extra = [op(A, 'dropbox'), op(A, 'syncthing'), op(A, 'icloud')];
    const names = [
      '00000001 (conflicted copy 2026-12-01).seg',
      '00000001.sync-conflict-20261201-123456-ABCDEF.seg',
      '00000001 2.seg',
    ];
    names.forEach((name, i) =>
      writeFileSync(join(dir, name), encode(A, 1, [...ops, extra[i] as WireOp].map(line))),
    );
    const res = await b.pull(null, 100);
    expect(res.problems).toEqual([]);
    expect(new Set(hs(res.ops))).toEqual(new Set(hs([...ops, ...extra])));
    expect(res.ops).toHaveLength(5); // no repeat within one pull
    // By pages, repeats across pages are allowed (the replica is idempotent), no loss.
    const paged = await pullAll(b, null, 2);
    expect(new Set(hs(paged.ops))).toEqual(new Set(hs([...ops, ...extra])));
  });

  it('ignores temporary and unknown files', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    await a.push([op(A, 'x')]);
    const dir = devDir(folder, A);
    writeFileSync(join(dir, '.00000002.seg.3f2a9c.tmp'), 'half written');
    writeFileSync(join(dir, '.syncthing.00000002.seg.tmp'), 'half copied');
    writeFileSync(join(dir, '~syncthing~00000002.seg.tmp'), 'half copied');
    writeFileSync(join(dir, '.00000003.seg.icloud'), 'placeholder');
    writeFileSync(join(dir, 'notes.txt'), 'a person was here');
    writeFileSync(join(dir, 'segment.seg'), 'not numbered');
    writeFileSync(join(folder, 'loci', STORE, '.DS_Store'), '');
    const res = await b.pull(null, 10);
    expect(res.ops).toHaveLength(1);
    expect(res.problems).toEqual([]);
  });

  it('refuses a segment over 64 MiB unread and a line over 1 MiB', async () => {
    const folder = tempFolder();
    await device(folder, A);
    const b = await device(folder, B);
    const dir = devDir(folder, A);
    writeFileSync(join(dir, '00000001.seg'), '');
    truncateSync(join(dir, '00000001.seg'), 65 * 1024 * 1024); // sparse: nothing written
    const small = op(A, 'x');
    const huge = op(A, 'y', { text: 'x'.repeat(1024 * 1024 + 10) });
    writeFileSync(join(dir, '00000002.seg'), encode(A, 2, [line(huge), line(small)]));
    const res = await b.pull(null, 10);
    expect(res.ops).toEqual([small]);
    expect(res.problems.map((p) => p.where)).toEqual([
      `loci/${STORE}/${A}/00000001.seg`,
      `loci/${STORE}/${A}/00000002.seg:2`,
    ]);
    expect(res.problems[0]?.message).toMatch(/65 MiB/);
    expect(res.problems[1]?.message).toMatch(/longer than 1 MiB/);
  });

  it('does not read a segment of a newer format, and says to update', async () => {
    const folder = tempFolder();
    await device(folder, A);
    const b = await device(folder, B);
    writeFileSync(
      join(devDir(folder, A), '00000001.seg'),
      encode(A, 1, [line(op(A, 'x'))], { header: { version: 2 } }),
    );
    const res = await b.pull(null, 10);
    expect(res.ops).toEqual([]);
    expect(res.problems[0]?.fix).toMatch(/Update Loci/);
    expect((await b.pull(res.cursor, 10)).problems).toHaveLength(1); // read once updated
  });
});

describe('FolderSync: erasure and compaction', () => {
  it("a tombstone purges the erased memory's content from every device's segments", async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 2 });
    const b = await device(folder, B);
    await a.push([
      op(A, 'X', { text: 'secret-x-content' }),
      op(A, 'Y', { text: 'keep-y' }),
      op(A, 'X', { text: 'secret-x-edit' }),
    ]);
    await b.push([
      { ...op(B, 'X'), e: 'l:X|Y|related', r: ['X', 'Y'], b: { note: 'secret-x-link' } },
      op(B, 'Y', { text: 'keep-y-from-b' }),
    ]);
    expect((await pullAll(b)).ops).toHaveLength(3);

    const gone = tombstone(A, 'X');
    await a.push([gone]);
    const after = (marker: string) =>
      allSegments(folder)
        .filter((f) => f.text.includes(marker))
        .map((f) => f.path);
    expect(after('secret-x-content')).toEqual([]);
    expect(after('secret-x-edit')).toEqual([]);
    expect(after('keep-y')).toHaveLength(2); // A's Y, B's Y
    expect(after('secret-x-link')).toEqual([`${B}/00000001.seg`]); // until B pulls

    const atB = await pullAll(b);
    expect(hs(atB.ops)).toContain(gone.h);
    expect(after('secret-x-link')).toEqual([]);
    expect(after('keep-y-from-b')).toHaveLength(1);
    // The tombstone stays, for devices that join later.
    expect(after(gone.h)).toEqual([expect.stringMatching(new RegExp(`^${A}/`))]);

    // A third device, joining now, sees Y and the tombstone, no content of X.
    const c = await device(folder, C);
    const atC = await pullAll(c);
    expect(atC.problems).toEqual([]);
    expect(JSON.stringify(atC.ops)).not.toMatch(/secret-x/);
    expect(hs(atC.ops)).toContain(gone.h);
    // A replayed push of the old operation does not bring it back.
    await a.push([op(A, 'Y'), { ...gone }]);
    expect(after('secret-x')).toEqual([]);
  });

  it('a device that read the segments before their purge does not read them again', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    const keep = op(A, 'Y');
    await a.push([op(A, 'X'), keep]);
    const first = await b.pull(null, 10);
    await a.push([tombstone(A, 'X')]);
    const next = await b.pull(first.cursor, 10);
    // Only the tombstone: the rewritten segment repeats what B had read (`covers`).
    expect(next.ops.map((o) => o.x)).toEqual([true]);
  });

  it('a tombstone drops only older operations: a withdrawn memory shared again rejoins', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    const b = await device(folder, B);
    await b.push([op(B, 'W', { text: 'old-w' })]);
    const before = op(A, 'W', { text: 'old-w-a' });
    const withdrawn = { ...tombstone(A, 'W'), b: { k: 'gone', id: 'W', why: 'private' } };
    await a.push([before, withdrawn, op(A, 'W', { text: 'rejoined-w' })]);
    await pullAll(b);
    const texts = allSegments(folder)
      .map((f) => f.text)
      .join('');
    expect(texts).not.toMatch(/old-w/);
    expect(texts).toMatch(/rejoined-w/);
  });

  it('purge(ids), as the replica calls it, drops every operation of this device naming them', async () => {
    const folder = tempFolder();
    const a = await device(folder, A);
    await a.push([op(A, 'X', { text: 'x-content' }), op(A, 'Y', { text: 'y-content' })]);
    await a.purge(['X']);
    const texts = allSegments(folder)
      .map((f) => f.text)
      .join('');
    expect(texts).not.toMatch(/x-content/);
    expect(texts).toMatch(/y-content/);
    await a.purge(['Y']);
    expect(segFiles(folder, A)).toEqual([]); // a segment left empty goes
  });

  it('merges many segments into one, and every operation stays readable', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 2, compactAfter: 4 });
    const b = await device(folder, B);
    const c = await device(folder, C);
    const ops: WireOp[] = [];
    let early: string | null = null;
    let earlyOps: WireOp[] = [];
    for (let i = 0; i < 12; i++) {
      const batch = [op(A, `m${i}a`), op(A, `m${i}b`), op(A, `m${i}c`)];
      ops.push(...batch);
      await a.push(batch);
      expect(segFiles(folder, A).length).toBeLessThanOrEqual(5);
      if (i === 3) {
        const part = await pullAll(c, null, 4);
        early = part.cursor;
        earlyOps = part.ops;
      }
    }
    // A device that starts now reads all of them, each once.
    const fresh = await pullAll(b, null, 5);
    expect(fresh.problems).toEqual([]);
    expect(hs(fresh.ops).sort()).toEqual(hs(ops).sort());
    // One that had read some before the merges gets the rest (repeats allowed).
    const resumed = await pullAll(c, early, 5);
    expect(new Set([...hs(earlyOps), ...hs(resumed.ops)])).toEqual(new Set(hs(ops)));
    // A device that keeps up skips each merge of what it has read: only news arrive.
    let cursor = fresh.cursor;
    for (const name of ['last', 'last2', 'last3', 'last4', 'last5']) {
      await a.push([op(A, name)]);
      const tail = await pullAll(b, cursor, 100);
      expect(tail.ops.map((o) => o.e)).toEqual([`m:${name}`]);
      cursor = tail.cursor;
    }
  });

  it('a reader that sees the merged segment and its sources at once does not care', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 1, compactAfter: 3 });
    const b = await device(folder, B);
    const ops = [op(A, 'p'), op(A, 'q'), op(A, 'r')];
    await a.push(ops);
    const sources = segFiles(folder, A).map((n) => readFileSync(join(devDir(folder, A), n)));
    await a.push([op(A, 's')]); // a fourth: the three are merged first
    expect(segFiles(folder, A)).toEqual(['00000004.seg', '00000005.seg']);
    // The sync tool has brought the merged file but not yet the deletion of the sources.
    sources.forEach((buf, i) => writeFileSync(join(devDir(folder, A), `0000000${i + 1}.seg`), buf));
    const res = await pullAll(b);
    expect(res.problems).toEqual([]);
    expect(res.ops).toHaveLength(4);
  });
});

describe('FolderSync: republish and lost segments', () => {
  it('republish() writes every operation into fresh segments, which the others read again', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 2 });
    const b = await device(folder, B);
    const ops = [op(A, 'x'), op(A, 'y'), op(A, 'z')];
    await a.push(ops);
    const before = segFiles(folder, A);
    const read = await pullAll(b);
    expect(await a.republish()).toBe(3);
    const after = segFiles(folder, A);
    expect(after.some((n) => before.includes(n))).toBe(false);
    const again = await pullAll(b, read.cursor);
    expect(hs(again.ops).sort()).toEqual(hs(ops).sort());
  });

  it('a segment deleted from the folder is reported, and republish(ops) restores it', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 2 });
    const b = await device(folder, B);
    const ops = [op(A, 'x'), op(A, 'y'), op(A, 'z')];
    await a.push(ops);
    // The person deleted a damaged copy on another device; the sync tool deleted it here.
    unlinkSync(join(devDir(folder, A), '00000001.seg'));
    expect(a.needsRepublish()).toBe(false); // not looked yet
    const seen = await a.pull(null, 10);
    expect(a.needsRepublish()).toBe(true);
    expect(seen.problems[0]?.where).toBe(`loci/${STORE}/${A}/00000001.seg`);
    expect(seen.problems[0]?.fix).toMatch(/Republish/);
    // After a restart too (device.json lists what it wrote).
    await a.close();
    const a2 = await device(folder, A, { segmentOps: 2 });
    expect(a2.needsRepublish()).toBe(true);
    expect(await a2.republish(ops)).toBe(3);
    expect(a2.needsRepublish()).toBe(false);
    expect((await a2.pull(null, 10)).problems).toEqual([]);
    expect(hs((await pullAll(b)).ops).sort()).toEqual(hs(ops).sort());
  });

  it('a compaction or a purge of its own is not taken for a lost segment', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 1, compactAfter: 2 });
    await a.push([op(A, 'x'), op(A, 'y'), op(A, 'z')]);
    await a.push([tombstone(A, 'x')]);
    await a.close();
    const a2 = await device(folder, A);
    expect(a2.needsRepublish()).toBe(false);
  });
});

describe('FolderSync: the folder itself', () => {
  it('names a folder that does not exist', async () => {
    const missing = join(tempFolder(), 'not-there');
    const s = new FolderSync({
      folder: missing,
      store: STORE,
      self: { id: A, name: 'a', version: '0' },
    });
    const err = await caught(s.open());
    expect(err.code).toBe('environment');
    expect(err.message).toContain(missing);
    expect(err.message).toMatch(/does not exist/);
  });

  it('names a path that is a file, or where a file stands in the way', async () => {
    const dir = tempFolder();
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const s = new FolderSync({
      folder: file,
      store: STORE,
      self: { id: A, name: 'a', version: '0' },
    });
    const err = await caught(s.open());
    expect(err.code).toBe('environment');
    expect(err.message).toContain(file);
    writeFileSync(join(dir, 'loci'), 'in the way');
    const t = new FolderSync({
      folder: dir,
      store: STORE,
      self: { id: A, name: 'a', version: '0' },
    });
    const err2 = await caught(t.open());
    expect(err2.code).toBe('environment');
    expect(err2.message).toContain(join(dir, 'loci'));
  });

  it.skipIf(process.getuid?.() === 0)('names a folder this user may not write to', async () => {
    const dir = tempFolder();
    chmodSync(dir, 0o500);
    const s = new FolderSync({
      folder: dir,
      store: STORE,
      self: { id: A, name: 'a', version: '0' },
    });
    const err = await caught(s.open());
    expect(err.code).toBe('environment');
    expect(err.message).toContain(dir);
    expect(err.message).toMatch(/not writable/);
  });

  it('refuses a device id or store name that cannot be a folder name', () => {
    expect(
      () =>
        new FolderSync({
          folder: '/tmp',
          store: STORE,
          self: { id: '../x', name: 'a', version: '0' },
        }),
    ).toThrow(LociError);
    expect(
      () =>
        new FolderSync({ folder: '/tmp', store: '../x', self: { id: A, name: 'a', version: '0' } }),
    ).toThrow(LociError);
  });

  it('writes every file atomically: no temporary file is left, device.json is whole', async () => {
    const folder = tempFolder();
    const a = await device(folder, A, { segmentOps: 1, compactAfter: 3 });
    await a.push([op(A, 'x'), op(A, 'y'), op(A, 'z'), op(A, 'w')]);
    await a.push([tombstone(A, 'x')]);
    const names = readdirSync(devDir(folder, A));
    expect(names.filter((n) => n.startsWith('.'))).toEqual([]);
    const info = JSON.parse(readFileSync(join(devDir(folder, A), 'device.json'), 'utf8')) as {
      id: string;
      ops: number;
      segments: Record<string, string>;
    };
    expect(info.id).toBe(A);
    expect(info.ops).toBe(5);
    expect(Object.keys(info.segments).sort()).toEqual(
      names.filter((n) => n.endsWith('.seg')).sort(),
    );
    // A temporary file a crash left behind goes at the next open.
    writeFileSync(join(devDir(folder, A), '.00000009.seg.abcdef.tmp'), 'crash');
    await a.close();
    await device(folder, A);
    expect(readdirSync(devDir(folder, A)).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});
