// JSON, JSONL and CSV into blocks. JSON nesting is measured by a linear scan before any
// parse, so a file nested 100,000 levels deep is refused instead of overflowing a
// stack; CSV quoting that does not close is read again without quote handling.
import { parse as parseCsv } from 'csv-parse/sync';
import type { Block, DocInfo } from '../types';
import { ParseRefusal } from '../types';
import { emptyInfo, headOf } from './text';

/** The deepest nesting of arrays and objects, stopping early past `limit`. */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92) i++;
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (ch === 93 || ch === 125) depth--;
  }
  return max;
}

function checkDepth(text: string, limit: number): void {
  if (jsonDepth(text, limit) > limit) {
    throw new ParseRefusal(
      `JSON nested more than ${limit} levels deep: not read (flatten it, or split it into records)`,
    );
  }
}

function compact(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** One block per top-level entry, descending into entries too big for one chunk. */
function jsonBlocks(root: unknown, chunkChars: number): Block[] {
  const out: Block[] = [];
  const queue: { path: string; value: unknown; level: number }[] = [
    { path: '$', value: root, level: 0 },
  ];
  while (queue.length) {
    const { path, value, level } = queue.shift() as { path: string; value: unknown; level: number };
    const text = compact(value);
    const container = value !== null && typeof value === 'object';
    if (!container || level >= 3 || (level > 0 && text.length <= chunkChars)) {
      out.push({ text: `${path}: ${text}`, label: path });
      continue;
    }
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`${path}[${i}]`, v])
      : Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
          v,
        ]);
    if (entries.length === 0) out.push({ text: `${path}: ${text}`, label: path });
    const children = entries.map(([p, v]) => ({ path: p, value: v, level: level + 1 }));
    queue.unshift(...children);
  }
  return out;
}

export function parseJson(
  text: string,
  chunkChars: number,
  maxDepth: number,
): { blocks: Block[]; info: DocInfo } {
  checkDepth(text, maxDepth);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw new ParseRefusal(`invalid JSON: ${(err as Error).message}`);
  }
  const info = emptyInfo();
  info.head = headOf(text, 3, 300);
  info.parts.records = Array.isArray(root)
    ? root.length
    : root && typeof root === 'object'
      ? Object.keys(root).length
      : 1;
  return { blocks: jsonBlocks(root, chunkChars), info };
}

export function parseJsonl(text: string, maxDepth: number): { blocks: Block[]; info: DocInfo } {
  checkDepth(text, maxDepth);
  const info = emptyInfo();
  info.head = headOf(text, 3, 300);
  const blocks: Block[] = [];
  let invalid = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (!line) continue;
    let rendered = line;
    try {
      rendered = compact(JSON.parse(line));
    } catch {
      invalid++;
    }
    blocks.push({ text: rendered, label: `line ${i + 1}`, lineStart: i + 1, lineEnd: i + 1 });
  }
  info.parts.records = blocks.length;
  if (invalid)
    info.notes.push(
      `${invalid} line${invalid === 1 ? ' is' : 's are'} not valid JSON (kept as text)`,
    );
  return { blocks, info };
}

// ------------------------------------------------------------------ CSV

function sniffDelimiter(text: string, tsv: boolean): string {
  if (tsv) return '\t';
  const first = text.slice(0, 4096).split('\n', 1)[0] ?? '';
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '\t', '|']) {
    const n = first.split(d).length - 1;
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

type CsvRecord = { record: string[]; info: { lines: number } };

function readCsv(text: string, delimiter: string, info: DocInfo): CsvRecord[] {
  const options = {
    delimiter,
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: 1024 * 1024,
  } as const;
  try {
    return parseCsv(text, options) as unknown as CsvRecord[];
  } catch (err) {
    const why = (err as Error).message.split('\n')[0] ?? 'malformed';
    try {
      const records = parseCsv(text, { ...options, quote: false }) as unknown as CsvRecord[];
      info.notes.push(`quoting is malformed (${why}); read without quote handling`);
      return records;
    } catch (again) {
      throw new ParseRefusal(`not readable as CSV: ${(again as Error).message.split('\n')[0]}`);
    }
  }
}

function typeOf(values: string[]): string {
  const filled = values.filter((v) => v.trim() !== '');
  if (filled.length === 0) return 'empty';
  if (filled.every((v) => /^-?\d+$/.test(v.trim()))) return 'integer';
  if (filled.every((v) => Number.isFinite(Number(v.trim())))) return 'number';
  if (filled.every((v) => /^\d{4}-\d{2}-\d{2}/.test(v.trim()))) return 'date';
  if (filled.every((v) => /^(true|false|yes|no)$/i.test(v.trim()))) return 'boolean';
  return 'text';
}

export function parseCsvFile(
  text: string,
  tsv: boolean,
  rowsPerMemory: number,
  sampleRows: number,
): { blocks: Block[]; info: DocInfo } {
  const info = emptyInfo();
  const records = readCsv(text, sniffDelimiter(text, tsv), info);
  const header = (records[0]?.record ?? []).map((h, i) => h.trim() || `column ${i + 1}`);
  const rows = records.slice(1);
  info.parts.rows = rows.length;
  info.head = headOf(text, 3, 300);
  info.details.push(`columns (${header.length}): ${header.join(', ').slice(0, 1000)}`);
  const render = (r: CsvRecord, n: number) =>
    `Row ${n}: ${r.record.map((v, i) => `${header[i] ?? `column ${i + 1}`}: ${v}`).join('; ')}`;
  const blocks: Block[] = [];
  let prevLine = records[0]?.info.lines ?? 1;
  const rowBlock = (r: CsvRecord, n: number, alone: boolean): Block => {
    const b: Block = {
      text: render(r, n),
      label: `row ${n}`,
      lineStart: prevLine + 1,
      lineEnd: r.info.lines,
      ...(alone ? { alone: true } : {}),
    };
    return b;
  };
  if (rows.length <= rowsPerMemory) {
    rows.forEach((r, i) => {
      blocks.push(rowBlock(r, i + 1, true));
      prevLine = r.info.lines;
    });
    return { blocks, info };
  }
  // Past the limit: what the table is (columns, types, examples), then sampled rows.
  const columns = header.map((name, c) => {
    const values = rows.slice(0, 2000).map((r) => r.record[c] ?? '');
    const examples = [...new Set(values.filter((v) => v.trim()))].slice(0, 3);
    return `${name} (${typeOf(values)}): e.g. ${examples.map((e) => e.slice(0, 40)).join(', ')}`;
  });
  blocks.push({
    text: `Table of ${rows.length} rows and ${header.length} columns.\n${columns.join('\n')}`,
    label: 'schema',
    alone: true,
  });
  const step = rows.length / sampleRows;
  for (let k = 0; k < sampleRows; k++) {
    const index = Math.floor(k * step);
    const r = rows[index] as CsvRecord;
    prevLine = (rows[index - 1] ?? records[0])?.info.lines ?? 1;
    blocks.push(rowBlock(r, index + 1, false));
  }
  info.notes.push(
    `${rows.length} rows: summarised as its columns and ${sampleRows} evenly sampled rows (a memory per row up to ${rowsPerMemory} rows)`,
  );
  return { blocks, info };
}
