import { describe, expect, it } from 'vitest';
import { chunkBlocks, splitBlock } from './chunker';
import { jsonDepth } from './parsers/data';
import { parseCode, parseMarkdown, decodeText } from './parsers/text';
import { detectFormat } from './detect';

describe('chunker', () => {
  it('splits a long block at boundaries, within the size, with overlap and line ranges', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1} says something useful.`);
    const chunks = splitBlock({ text: lines.join('\n'), label: 'x', lineStart: 1 }, 300, 40, 100);
    expect(chunks.length).toBeGreaterThan(20);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(300);
    // Each piece starts on the line its range says, and neighbours overlap.
    for (const c of chunks) {
      const first = Number(/line (\d+)/.exec(c.text)?.[1]);
      expect(c.lineStart! <= first && first <= c.lineStart! + 1).toBe(true);
      expect(
        c.text.endsWith(`line ${c.lineEnd} says something useful.`) ||
          c.text.includes(`line ${c.lineEnd}`),
      ).toBe(true);
    }
    expect(chunks[1]!.lineStart!).toBeLessThanOrEqual(chunks[0]!.lineEnd!);
  });

  it('packs small blocks, keeps `alone` blocks alone, refuses past the most chunks', () => {
    const blocks = Array.from({ length: 10 }, (_, i) => ({
      text: `paragraph number ${i} is long enough to stand`,
      label: `p${i}`,
    }));
    expect(chunkBlocks(blocks, { chunkChars: 1000, overlapChars: 0, maxChunks: 10 })).toHaveLength(
      1,
    );
    const alone = blocks.map((b) => ({ ...b, alone: true }));
    expect(chunkBlocks(alone, { chunkChars: 1000, overlapChars: 0, maxChunks: 10 })).toHaveLength(
      10,
    );
    expect(() => chunkBlocks(alone, { chunkChars: 1000, overlapChars: 0, maxChunks: 9 })).toThrow(
      /more than 9 chunks/,
    );
  });

  it('cuts one 10 MB line in linear time', () => {
    const text = 'word '.repeat(2_000_000);
    const t0 = Date.now();
    const chunks = splitBlock({ text, label: 'x' }, 900, 100, 20_000);
    expect(chunks.length).toBeGreaterThan(11_000);
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});

describe('parsers', () => {
  it('reads Markdown front matter as tags and sections by heading, skipping fenced code', () => {
    const { blocks, info } = parseMarkdown(
      '---\ntitle: Plan\ntags: [a, "b,c"]\ndraft: true\n---\nIntro text.\n\n# One\n\nBody one.\n\n```\n# not a heading\n```\n\n## Two\n\nBody two.\n',
    );
    expect(info.tags).toEqual(['title:Plan', 'a', 'b c', 'draft:true']);
    expect(info.parts.sections).toBe(2);
    expect(blocks.map((b) => b.label)).toEqual([
      'introduction',
      'One',
      'One',
      'One',
      'One › Two',
      'One › Two',
    ]);
    expect(blocks.find((b) => b.text.includes('not a heading'))?.lineStart).toBe(12);
  });

  it('splits code at top-level definitions with their comments', () => {
    const { blocks } = parseCode(
      'import x from "y";\n\n/** Adds. */\nexport function add(a, b) {\n  return a + b;\n}\n\nclass Box {}\n',
      'c',
    );
    expect(blocks.map((b) => [b.label, b.lineStart])).toEqual([
      ['lines 1–2', 1],
      ['add, lines 3–7', 3],
      ['Box, lines 8–9', 8],
    ]);
  });

  it('measures JSON depth without recursion, ignoring brackets in strings', () => {
    expect(jsonDepth('{"a": "[[[[", "b": [[1]]}', 10)).toBe(3);
    expect(jsonDepth('['.repeat(100_000), 256)).toBe(257);
  });

  it('replaces invalid UTF-8 and says so; refuses text that is mostly invalid', () => {
    expect(decodeText(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]))).toEqual({
      text: 'Caf\uFFFD ok',
      notes: ['not valid UTF-8: 1 invalid byte sequence replaced with U+FFFD'],
    });
    expect(() => decodeText(Buffer.alloc(100, 0xff))).toThrow(/not UTF-8 text/);
  });

  it('names binary formats and reads unknown text as text', () => {
    expect(detectFormat('a.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toEqual({
      ok: false,
      reason: 'binary file: PNG image',
    });
    expect(detectFormat('a.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/XLSX documents are not read/),
    });
    expect(detectFormat('Makefile', Buffer.from('all:\n\techo hi\n'))).toEqual({
      ok: true,
      format: 'text',
    });
    expect(detectFormat('x.kt', Buffer.from('fun main() {}'))).toEqual({
      ok: true,
      format: 'code',
      codeFamily: 'c',
    });
  });
});
