// Which format a file is, from its name and its first bytes; binary files that Loci
// cannot read are named ("binary file: PNG image") instead of being read as text.
import { extname } from 'node:path';
import type { IngestFormat } from '../../../shared/api';

/** Source code: at least 25 extensions, grouped by how their top-level definitions look. */
export const CODE_EXTENSIONS: Record<string, CodeFamily> = {
  '.ts': 'c',
  '.tsx': 'c',
  '.mts': 'c',
  '.cts': 'c',
  '.js': 'c',
  '.jsx': 'c',
  '.mjs': 'c',
  '.cjs': 'c',
  '.java': 'c',
  '.kt': 'c',
  '.kts': 'c',
  '.scala': 'c',
  '.groovy': 'c',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'c',
  '.cpp': 'c',
  '.cxx': 'c',
  '.hpp': 'c',
  '.hh': 'c',
  '.cs': 'c',
  '.swift': 'c',
  '.dart': 'c',
  '.php': 'c',
  '.m': 'c',
  '.go': 'c',
  '.rs': 'c',
  '.zig': 'c',
  '.vue': 'c',
  '.svelte': 'c',
  '.py': 'py',
  '.pyi': 'py',
  '.rb': 'py',
  '.ex': 'py',
  '.exs': 'py',
  '.jl': 'py',
  '.nim': 'py',
  '.lua': 'py',
  '.r': 'py',
  '.sh': 'shell',
  '.bash': 'shell',
  '.zsh': 'shell',
  '.fish': 'shell',
  '.ps1': 'shell',
  '.pl': 'shell',
  '.sql': 'sql',
  '.hs': 'ml',
  '.ml': 'ml',
  '.mli': 'ml',
  '.fs': 'ml',
  '.elm': 'ml',
  '.erl': 'ml',
  '.clj': 'lisp',
  '.cljs': 'lisp',
  '.el': 'lisp',
  '.lisp': 'lisp',
  '.scm': 'lisp',
  '.css': 'css',
  '.scss': 'css',
  '.less': 'css',
  '.yaml': 'config',
  '.yml': 'config',
  '.toml': 'config',
  '.ini': 'config',
  '.cfg': 'config',
  '.conf': 'config',
  '.xml': 'config',
  '.proto': 'c',
  '.graphql': 'c',
  '.tf': 'c',
};

export type CodeFamily = 'c' | 'py' | 'shell' | 'sql' | 'ml' | 'lisp' | 'css' | 'config';

const BY_EXTENSION: Record<string, IngestFormat> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.rst': 'text',
  '.adoc': 'text',
  '.org': 'text',
  '.log': 'text',
  '.tex': 'text',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.csv': 'csv',
  '.tsv': 'csv',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
};

const MAGIC: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'PNG image'],
  [[0xff, 0xd8, 0xff], 'JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'GIF image'],
  [[0x52, 0x49, 0x46, 0x46], 'RIFF media (WAV, AVI or WebP)'],
  [[0x50, 0x4b, 0x03, 0x04], 'ZIP archive'],
  [[0x1f, 0x8b], 'gzip archive'],
  [[0x42, 0x5a, 0x68], 'bzip2 archive'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz archive'],
  [[0x37, 0x7a, 0xbc, 0xaf], '7-Zip archive'],
  [[0x7f, 0x45, 0x4c, 0x46], 'ELF executable'],
  [[0x4d, 0x5a], 'Windows executable'],
  [[0xcf, 0xfa, 0xed, 0xfe], 'Mach-O executable'],
  [[0x00, 0x61, 0x73, 0x6d], 'WebAssembly module'],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], 'SQLite database'],
  [[0x49, 0x44, 0x33], 'MP3 audio'],
  [[0x4f, 0x67, 0x67, 0x53], 'Ogg media'],
  [[0x66, 0x4c, 0x61, 0x43], 'FLAC audio'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'legacy Office document (.doc/.xls/.ppt)'],
];

function startsWith(head: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => head[i] === b);
}

export type Detection =
  { ok: true; format: IngestFormat; codeFamily?: CodeFamily } | { ok: false; reason: string };

/** Decides from the name and the first bytes (8 KiB are enough). */
export function detectFormat(name: string, head: Uint8Array): Detection {
  const ext = extname(name).toLowerCase();
  const byExt = BY_EXTENSION[ext];
  if (byExt === 'pdf' || startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) {
    return { ok: true, format: 'pdf' };
  }
  if (byExt === 'docx') return { ok: true, format: 'docx' };
  const kind = MAGIC.find(([magic]) => startsWith(head, magic))?.[1];
  if (kind) {
    return {
      ok: false,
      reason:
        kind === 'ZIP archive' && ['.xlsx', '.pptx', '.odt', '.epub'].includes(ext)
          ? `binary file: ${ext.slice(1).toUpperCase()} documents are not read (formats: Markdown, text, code, JSON, CSV, HTML, PDF, DOCX)`
          : `binary file: ${kind}`,
    };
  }
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!utf16) {
    let control = 0;
    for (const b of head) {
      if (b === 0) return { ok: false, reason: 'binary file: it contains NUL bytes' };
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
    }
    if (head.length > 0 && control / head.length > 0.1) {
      return { ok: false, reason: 'binary file: mostly control characters' };
    }
  }
  if (byExt) return { ok: true, format: byExt };
  const family = CODE_EXTENSIONS[ext];
  if (family) return { ok: true, format: 'code', codeFamily: family };
  // Anything else that reads as text is text (a Makefile, notes without an extension).
  return { ok: true, format: 'text' };
}

export function codeFamilyOf(name: string): CodeFamily {
  return CODE_EXTENSIONS[extname(name).toLowerCase()] ?? 'c';
}
