// Cuts a file's blocks into chunks sized for the embedding model: small blocks are
// packed together, a block too large is split at the best boundary near the limit
// (paragraph, line, sentence, word, else anywhere) with an overlap between its pieces.
// Page and line ranges follow every piece so each memory says where it came from.
import { type Block, type Chunk, ParseRefusal } from './types';

export interface ChunkOptions {
  chunkChars: number;
  overlapChars: number;
  maxChunks: number;
}

/** Shortest chunk worth keeping on its own: a shorter scrap joins its neighbour. */
const MIN_CHUNK_CHARS = 24;

function tooMany(max: number): ParseRefusal {
  return new ParseRefusal(
    `it would make more than ${max} chunks (the most one file may become); split the file or raise chunk_tokens`,
  );
}

/** The end of the piece that starts at `start`: a natural boundary in the last 40%. */
function cutPoint(text: string, start: number, size: number): number {
  const end = start + size;
  if (end >= text.length) return text.length;
  const floor = start + Math.floor(size * 0.6);
  // Only the window is searched: a lastIndexOf over the whole text would make a long
  // single line quadratic.
  const window = text.slice(floor, end);
  for (const sep of ['\n\n', '\n', '. ', '? ', '! ', '; ', ', ', ' ']) {
    const at = window.lastIndexOf(sep);
    if (at !== -1) return floor + at + sep.length;
  }
  return end;
}

/** Where the next piece starts: `overlap` characters back, on a word boundary. */
function overlapStart(text: string, end: number, overlap: number, start: number): number {
  if (overlap <= 0 || end >= text.length) return end;
  let at = Math.max(start + 1, end - overlap);
  const space = text.indexOf(' ', at);
  if (space !== -1 && space < end) at = space + 1;
  return at;
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Splits one block into pieces of at most `size` characters. */
export function splitBlock(block: Block, size: number, overlap: number, max: number): Chunk[] {
  const { text } = block;
  const out: Chunk[] = [];
  let start = 0;
  let line = block.lineStart;
  let lineAt = 0;
  while (start < text.length) {
    const end = cutPoint(text, start, size);
    const piece = text.slice(start, end);
    if (piece.trim().length > 0) {
      if (out.length >= max) throw tooMany(max);
      const chunk: Chunk = { text: piece.trim(), label: block.label };
      if (block.page !== undefined) chunk.pageStart = chunk.pageEnd = block.page;
      if (line !== undefined) {
        const first = line + countLines(text, lineAt, start);
        chunk.lineStart = first;
        chunk.lineEnd = first + countLines(text, start, Math.max(start, end - 1));
        line = first;
        lineAt = start;
      }
      out.push(chunk);
    }
    if (end >= text.length) break;
    start = overlapStart(text, end, overlap, start);
  }
  return out;
}

function merge(into: Chunk, next: Chunk): void {
  into.text = `${into.text}\n\n${next.text}`;
  if (next.pageEnd !== undefined) {
    into.pageStart ??= next.pageStart;
    into.pageEnd = next.pageEnd;
  }
  if (next.lineEnd !== undefined) {
    into.lineStart ??= next.lineStart;
    into.lineEnd = next.lineEnd;
  }
  if (next.label !== into.label && !into.label.endsWith(' …')) into.label = `${into.label} …`;
}

/** Packs and splits blocks into chunks of at most `chunkChars` (a little more to absorb a scrap). */
export function chunkBlocks(blocks: readonly Block[], options: ChunkOptions): Chunk[] {
  const { chunkChars, overlapChars, maxChunks } = options;
  const out: Chunk[] = [];
  let current: Chunk | null = null;
  const push = (c: Chunk) => {
    if (out.length >= maxChunks) throw tooMany(maxChunks);
    out.push(c);
  };
  for (const block of blocks) {
    const text = block.text.trim();
    if (text.length === 0) continue;
    if (text.length > chunkChars) {
      if (current) push(current);
      current = null;
      const pieces = splitBlock(
        { ...block, text },
        chunkChars,
        overlapChars,
        maxChunks - out.length,
      );
      for (const p of pieces) push(p);
      continue;
    }
    const chunk: Chunk = { text, label: block.label };
    if (block.page !== undefined) chunk.pageStart = chunk.pageEnd = block.page;
    if (block.lineStart !== undefined) {
      chunk.lineStart = block.lineStart;
      chunk.lineEnd = block.lineEnd ?? block.lineStart;
    }
    if (block.alone) {
      if (current) push(current);
      current = null;
      push(chunk);
      continue;
    }
    const fits = current && current.text.length + 2 + text.length <= chunkChars;
    const sectionBreak = block.section && current && current.text.length >= chunkChars / 2;
    if (current && fits && !sectionBreak) {
      merge(current, chunk);
    } else {
      if (current) push(current);
      current = chunk;
    }
  }
  if (current) push(current);
  // A scrap too short to stand alone joins its neighbour.
  for (let i = out.length - 1; i >= 0 && out.length > 1; i--) {
    const c = out[i] as Chunk;
    if (c.text.length >= MIN_CHUNK_CHARS) continue;
    if (i > 0) {
      merge(out[i - 1] as Chunk, c);
      out.splice(i, 1);
    } else {
      const head = { ...c };
      merge(head, out[1] as Chunk);
      out.splice(0, 2, head);
    }
  }
  return out;
}
