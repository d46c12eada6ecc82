#!/usr/bin/env node
// Draws the app's icons into resources/ (no image tools, no downloads): the app icon
// (icon.png, 512 px) and the tray icons per state (tray-<state>.png, 16 px, and
// tray-<state>@2x.png, 32 px). A ring with three "places" (loci) in the state's colour.
// Run again after changing the drawing: node scripts/icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGBA image (size × size, 4 bytes a pixel) as PNG bytes. */
export function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const STATE_COLOURS = {
  idle: [99, 102, 241],
  busy: [14, 165, 233],
  warning: [245, 158, 11],
  error: [239, 68, 68],
};

/** Coverage of a pixel by a shape, 4×4 supersampled (smooth edges at 16 px). */
function draw(size, colour, { background }) {
  const px = Buffer.alloc(size * size * 4);
  const c = size / 2;
  const ring = { outer: size * 0.46, inner: size * 0.33 };
  const dots = [0, 1, 2].map((i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / 3;
    return { x: c + Math.cos(a) * size * 0.395, y: c + Math.sin(a) * size * 0.395, r: size * 0.1 };
  });
  const centre = size * 0.14;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let fg = 0;
      let bg = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const fx = x + (sx + 0.5) / 4;
          const fy = y + (sy + 0.5) / 4;
          const d = Math.hypot(fx - c, fy - c);
          const inRing = d <= ring.outer && d >= ring.inner;
          const inDot = dots.some((p) => Math.hypot(fx - p.x, fy - p.y) <= p.r);
          if (inRing || inDot || d <= centre) fg++;
          else if (background && d <= size * 0.5) bg++;
        }
      const i = (y * size + x) * 4;
      const a = fg / 16;
      const b = bg / 16;
      // Foreground in the state's colour over a light disc (app icon) or nothing (tray).
      const base = background ? [248, 250, 252] : colour;
      for (let k = 0; k < 3; k++) px[i + k] = Math.round(fg ? colour[k] : base[k]);
      px[i + 3] = Math.round(255 * Math.min(1, a + b));
    }
  return px;
}

export function renderIcons(dir = join(root, 'resources')) {
  mkdirSync(dir, { recursive: true });
  const written = [];
  const write = (name, size, colour, background = false) => {
    const file = join(dir, name);
    writeFileSync(file, encodePng(size, draw(size, colour, { background })));
    written.push(file);
  };
  write('icon.png', 512, STATE_COLOURS.idle, true);
  for (const [state, colour] of Object.entries(STATE_COLOURS)) {
    write(`tray-${state}.png`, 16, colour);
    write(`tray-${state}@2x.png`, 32, colour);
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const file of renderIcons()) console.log(`icons: ${file}`);
}
