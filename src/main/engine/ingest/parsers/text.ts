// Plain text, Markdown and source code into blocks: paragraphs with their lines,
// Markdown sections by heading (front matter kept as tags), code at top-level
// definitions found by a cheap per-language-family pattern.
import { parse as parseYaml } from 'yaml';
import type { CodeFamily } from '../detect';
import type { Block, DocInfo } from '../types';
import { ParseRefusal } from '../types';

/** UTF-8 (or UTF-16 with a byte-order mark); invalid bytes become U+FFFD and are reported. */
export function decodeText(bytes: Uint8Array): { text: string; notes: string[] } {
  const notes: string[] = [];
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), notes };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), notes };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes),
      notes,
    };
  } catch {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    let bad = 0;
    for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) bad++;
    if (bad > Math.max(16, text.length * 0.05)) {
      throw new ParseRefusal(
        `not UTF-8 text: ${bad} invalid byte sequences (convert it to UTF-8 first)`,
      );
    }
    notes.push(
      `not valid UTF-8: ${bad} invalid byte sequence${bad === 1 ? '' : 's'} replaced with U+FFFD`,
    );
    return { text, notes };
  }
}

export function emptyInfo(): DocInfo {
  return { parts: {}, tags: [], notes: [], head: '', details: [] };
}

/** The first few non-empty lines, for the document memory. */
export function headOf(text: string, lines = 5, chars = 400): string {
  const out: string[] = [];
  let size = 0;
  for (const line of text.split('\n', 200)) {
    const t = line.trim();
    if (!t) continue;
    out.push(t.length > 160 ? `${t.slice(0, 160)}…` : t);
    size += t.length;
    if (out.length >= lines || size >= chars) break;
  }
  return out.join('\n');
}

/**
 * Paragraphs (split at blank lines) with their line numbers, `firstLine` being the
 * number of the text's first line. Fenced code blocks stay whole.
 */
export function paragraphs(text: string, label: string, firstLine = 1, section = false): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  let start = -1;
  let fence: string | null = null;
  const flush = (end: number) => {
    if (start === -1) return;
    const body = lines.slice(start, end).join('\n');
    if (body.trim())
      out.push({
        text: body,
        label,
        lineStart: firstLine + start,
        lineEnd: firstLine + end - 1,
        ...(section && out.length === 0 ? { section: true } : {}),
      });
    start = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker) fence = fence === null ? marker : fence === marker ? null : fence;
    if (!line.trim() && fence === null) flush(i);
    else if (start === -1) start = i;
  }
  flush(lines.length);
  return out;
}

export function parseText(text: string): { blocks: Block[]; info: DocInfo } {
  const info = emptyInfo();
  info.head = headOf(text);
  info.parts.lines = text.split('\n').length;
  const blocks = paragraphs(text, 'text').map((b) => ({
    ...b,
    label: `lines ${b.lineStart}–${b.lineEnd}`,
  }));
  return { blocks, info };
}

// ------------------------------------------------------------------ Markdown

const TAG_KEYS = new Set(['tags', 'tag', 'keywords', 'categories', 'category', 'topics']);

function tagSafe(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f,]/g, ' ')
      .trim()
      .slice(0, 100)
  );
}

function frontMatter(text: string, info: DocInfo): { body: string; offset: number } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { body: text, offset: 0 };
  const raw = m[1] as string;
  const offset = m[0].split('\n').length - 1;
  let data: unknown;
  try {
    data = parseYaml(raw, { maxAliasCount: 100 });
  } catch (err) {
    info.notes.push(
      `front matter is not valid YAML (${(err as Error).message.split('\n')[0]}); kept as text`,
    );
    return { body: text, offset: 0 };
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      if (TAG_KEYS.has(key.toLowerCase())) {
        for (const v of values) {
          if (typeof v === 'string' || typeof v === 'number') {
            const t = tagSafe(String(v));
            if (t) info.tags.push(t);
          }
        }
      } else if (['string', 'number', 'boolean'].includes(typeof value) || value instanceof Date) {
        const v = value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
        const t = tagSafe(`${key}:${v}`);
        if (t && t.length <= 60) info.tags.push(t);
      }
      info.details.push(`${key}: ${JSON.stringify(value)?.slice(0, 200) ?? ''}`);
    }
  }
  return { body: text.slice(m[0].length), offset };
}

export function parseMarkdown(text: string): { blocks: Block[]; info: DocInfo } {
  const info = emptyInfo();
  const { body, offset } = frontMatter(text, info);
  info.head = headOf(body);
  const lines = body.split('\n');
  info.parts.lines = lines.length + offset;
  const blocks: Block[] = [];
  const path: { level: number; title: string }[] = [];
  let sectionStart = 0;
  let sections = 0;
  let fence: string | null = null;
  const flush = (end: number) => {
    const text = lines.slice(sectionStart, end).join('\n');
    if (!text.trim()) return;
    const label = path.length ? path.map((p) => p.title).join(' › ') : 'introduction';
    blocks.push(...paragraphs(text, label, offset + sectionStart + 1, true));
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker) fence = fence === null ? marker : fence === marker ? null : fence;
    if (fence !== null) continue;
    const h = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/.exec(line);
    if (!h) continue;
    flush(i);
    sectionStart = i;
    sections++;
    const level = (h[1] as string).length;
    while (path.length && (path[path.length - 1] as { level: number }).level >= level) path.pop();
    path.push({ level, title: (h[2] as string).slice(0, 80) });
  }
  flush(lines.length);
  info.parts.sections = sections;
  return { blocks, info };
}

// ------------------------------------------------------------------ code

const DEFINITION: Record<CodeFamily, RegExp> = {
  c: /^(?:export\s+|default\s+|declare\s+|public\s+|private\s+|protected\s+|internal\s+|static\s+|abstract\s+|final\s+|sealed\s+|async\s+|extern\s+|inline\s+|pub(?:\([^)]*\))?\s+|unsafe\s+|data\s+|open\s+)*(?:function\*?|class|interface|type|enum|const|let|var|struct|union|impl|fn|func|namespace|module|trait|object|record|typedef|template|message|service|resource|macro_rules!|mod|@interface|void|int|char|float|double|bool|unsigned|long|auto)\b/,
  py: /^(?:async\s+def|def|class|module|function|local\s+function|defmodule|defp?|defmacro|struct|proc|func|fun)\b/,
  shell: /^(?:function\s+[\w-]+|[\w-]+\s*\(\)\s*\{?|sub\s+\w+)/,
  sql: /^(?:create|alter|drop|insert|update|delete|select|with|begin|grant|comment)\b/i,
  ml: /^(?:let|type|module|data|class|instance|newtype|val|fun|and|-module|-export|-spec)\b/,
  lisp: /^\(/,
  css: /^[^\s}/].*\{\s*$/,
  config: /^(?:\[[^\]]+\]\s*$|[A-Za-z_"'][\w."'-]*\s*[:=]|<[A-Za-z])/,
};

const COMMENT = /^\s*(?:\/\/|#|\/\*|\*|--|;|@|"""|'''|%)/;
const NAME =
  /\b(?:function\*?|class|interface|type|enum|struct|fn|func|def|trait|impl|module|namespace|object|mod|defmodule|sub|record)\s+([A-Za-z_$][\w$.]*)/;

export function parseCode(text: string, family: CodeFamily): { blocks: Block[]; info: DocInfo } {
  const info = emptyInfo();
  info.head = headOf(text);
  const lines = text.split('\n');
  info.parts.lines = lines.length;
  const starts: number[] = [0];
  const pattern = DEFINITION[family];
  for (let i = 1; i < lines.length; i++) {
    if (!pattern.test(lines[i] as string)) continue;
    // Comments, doc blocks and decorators right above a definition belong to it.
    let s = i;
    while (s > 0 && COMMENT.test(lines[s - 1] as string) && s - 1 > (starts.at(-1) as number)) s--;
    if (s > (starts.at(-1) as number)) starts.push(s);
  }
  const blocks: Block[] = [];
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k] as number;
    const to = (starts[k + 1] ?? lines.length) - 1;
    const body = lines.slice(from, to + 1).join('\n');
    if (!body.trim()) continue;
    const name = lines
      .slice(from, Math.min(to + 1, from + 6))
      .map((l) => NAME.exec(l)?.[1])
      .find(Boolean);
    blocks.push({
      text: body,
      label: `${name ? `${name}, ` : ''}lines ${from + 1}–${to + 1}`,
      lineStart: from + 1,
      lineEnd: to + 1,
      section: true,
    });
  }
  info.parts.sections = blocks.length;
  return { blocks, info };
}
