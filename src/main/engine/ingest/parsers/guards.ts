// Decompression guards, run before a PDF or DOCX reaches its parser: every compressed
// part is inflated with a hard output cap, so a small file that would inflate to
// gigabytes (a "zip bomb") is refused by name instead of filling the memory.
import { constants, inflateRawSync, inflateSync } from 'node:zlib';
import { ParseRefusal } from '../types';

function bomb(limit: number, what: string): ParseRefusal {
  return new ParseRefusal(
    `${what} inflates past ${Math.round(limit / 1024 / 1024)} MiB (a decompression bomb?): not read`,
  );
}

function tooLarge(err: unknown): boolean {
  return (
    err instanceof RangeError ||
    (err as { code?: string })?.code === 'ERR_BUFFER_TOO_LARGE' ||
    /maxOutputLength|too large/i.test((err as Error)?.message ?? '')
  );
}

/** Inflates every FlateDecode stream of a PDF with a cap on the total. */
export function guardPdfStreams(bytes: Uint8Array, limit: number): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  for (;;) {
    const s = buf.indexOf('stream', at, 'latin1');
    if (s === -1) return;
    at = s + 6;
    // `endstream` also contains "stream"; a real stream keyword ends its line.
    if (s >= 3 && buf.toString('latin1', s - 3, s) === 'end') continue;
    let data = s + 6;
    if (buf[data] === 0x0d) data++;
    if (buf[data] !== 0x0a) continue;
    data++;
    const dictStart = buf.lastIndexOf('<<', s, 'latin1');
    const dict = dictStart === -1 ? '' : buf.toString('latin1', dictStart, s);
    const end = buf.indexOf('endstream', data, 'latin1');
    if (end === -1) return;
    at = end + 9;
    if (!dict.includes('/FlateDecode') && !dict.includes('/Fl ') && !dict.includes('/Fl]'))
      continue;
    try {
      const out = inflateSync(buf.subarray(data, end), {
        maxOutputLength: Math.max(1, limit - total),
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      total += out.length;
      if (total >= limit) throw bomb(limit, 'a compressed stream');
    } catch (err) {
      if (err instanceof ParseRefusal) throw err;
      if (tooLarge(err)) throw bomb(limit, 'a compressed stream');
      // A damaged stream is pdf.js's to judge.
    }
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The central directory of a ZIP file (DOCX is one). */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1)
    throw new ParseRefusal('not a readable DOCX: it is not a ZIP file (no central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) {
      throw new ParseRefusal('not a readable DOCX: its ZIP directory is damaged');
    }
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const entry = {
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      offset: buf.readUInt32LE(p + 42),
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) {
      throw new ParseRefusal('not read: a DOCX this large (ZIP64) is not supported');
    }
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Inflates every entry of a ZIP with a cap on the total, whatever sizes it declares. */
export function guardZip(bytes: Uint8Array, limit: number): ZipEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = zipEntries(bytes);
  let total = 0;
  for (const e of entries) {
    if (e.offset + 30 > buf.length || buf.readUInt32LE(e.offset) !== 0x04034b50) {
      throw new ParseRefusal(`not a readable DOCX: the part ${e.name} is damaged`);
    }
    const start = e.offset + 30 + buf.readUInt16LE(e.offset + 26) + buf.readUInt16LE(e.offset + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    if (e.method === 0) total += data.length;
    else if (e.method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(1, limit - total) }).length;
      } catch (err) {
        if (tooLarge(err)) throw bomb(limit, `the part ${e.name}`);
        throw new ParseRefusal(`not a readable DOCX: the part ${e.name} does not inflate`);
      }
    } else {
      throw new ParseRefusal(
        `not a readable DOCX: the part ${e.name} uses compression method ${e.method}`,
      );
    }
    if (total >= limit) throw bomb(limit, `the part ${e.name}`);
  }
  return entries;
}
