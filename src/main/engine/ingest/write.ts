// One file's memories, all or nothing: the document memory, its chunks and their links
// in one transaction (a savepoint inside any outer one). The chunks go through the same
// write path as `remember` (gate, secret quarantine, appraisal, audit).
import type { Actor, IngestFormat } from '../../../shared/api';
import { LIMITS } from '../../../shared/schemas';
import { createLink } from '../memory/links';
import {
  insertMemories,
  prepareMemories,
  type CreatedMemory,
  type RememberItem,
} from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { hasVisibleText } from '../../../shared/text';
import { normalizeText } from '../write/gate';
import { injectionReasons } from '../write/injection';
import type { Chunk, DocInfo } from './types';
import { formatBytes } from '../../../shared/format';

export interface FileToWrite {
  display: string;
  name: string;
  format: IngestFormat;
  bytes: number;
  mtimeMs: number;
  info: DocInfo;
  chunks: Chunk[];
  batch: string;
  extraTags: string[];
}

export interface Prepared {
  items: Awaited<ReturnType<typeof prepareMemories>>;
  chunks: Chunk[];
}

/** Tags cannot hold commas or control characters and are at most 100 characters. */
export function tagValue(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f,]/g, '_').slice(0, LIMITS.tagMaxChars);
}

function where(display: string, c: Chunk): string {
  const parts = [display];
  if (c.pageStart !== undefined)
    parts.push(
      c.pageEnd !== c.pageStart ? `pages ${c.pageStart}–${c.pageEnd}` : `page ${c.pageStart}`,
    );
  if (c.lineStart !== undefined)
    parts.push(
      c.lineEnd !== c.lineStart ? `lines ${c.lineStart}–${c.lineEnd}` : `line ${c.lineStart}`,
    );
  const s = parts.join(', ');
  return s.length > 500 ? `…${s.slice(-499)}` : s;
}

/** What the document memory says: the file, its format and shape, its first lines. */
export function documentContent(f: FileToWrite, chunks: number): string {
  const p = f.info.parts;
  const shape = [
    p.pages !== undefined ? `${p.pages} page${p.pages === 1 ? '' : 's'}` : null,
    p.sections ? `${p.sections} section${p.sections === 1 ? '' : 's'}` : null,
    p.rows !== undefined ? `${p.rows} rows` : null,
    p.records !== undefined ? `${p.records} records` : null,
    p.lines !== undefined ? `${p.lines} lines` : null,
  ].filter(Boolean);
  const lines = [
    `File ${f.name}`,
    `Path: ${f.display}`,
    `Format: ${f.format}, ${formatBytes(f.bytes)}${shape.length ? `, ${shape.join(', ')}` : ''}; modified ${new Date(f.mtimeMs).toISOString()}`,
    `Chunks: ${chunks}`,
    ...f.info.details.slice(0, 20).map((d) => d.slice(0, 300)),
    ...f.info.notes.map((n) => `Note: ${n}`),
  ];
  if (f.info.head) lines.push('', 'Begins:', f.info.head.slice(0, 1200));
  return lines.join('\n');
}

export function fileTags(f: FileToWrite): string[] {
  const base = [tagValue(`source:${f.name}`), `batch:${f.batch}`, ...f.extraTags.map(tagValue)];
  const own = f.info.tags.map(tagValue).filter((t) => !base.includes(t));
  return [...base, ...own].slice(0, LIMITS.tagsMax);
}

/** Everything before the transaction: normalising, the secret scan, appraisal. */
export async function prepareFile(f: FileToWrite): Promise<Prepared> {
  // A chunk with nothing visible in it is one the write gate would refuse.
  const chunks = f.chunks.filter((c) => hasVisibleText(normalizeText(c.text)));
  const tags = fileTags(f);
  const source = tagValue(`file:${f.name}`).slice(0, 200);
  const doc: RememberItem = {
    content: documentContent(f, chunks.length),
    title: f.name.slice(0, LIMITS.titleMaxChars),
    kind: 'semantic',
    tags,
    evidence: [
      {
        quote: f.display.slice(-LIMITS.evidenceQuoteMaxChars),
        class: 'TOOL',
        source: where(f.display, {} as Chunk),
      },
    ],
  };
  const items: RememberItem[] = [
    doc,
    ...chunks.map((c) => ({
      content: c.text,
      title: `${f.name} — ${c.label}`.slice(0, LIMITS.titleMaxChars),
      tags,
      evidence: [
        {
          quote: c.text.slice(0, 200),
          class: 'TOOL' as const,
          source: where(f.display, c),
        },
      ],
    })),
  ];
  const prepared = await prepareMemories(items);
  // A file is an untrusted import: text in it that tries to instruct its reader (checked
  // before the gate strips hidden characters) is quarantined until a person looks.
  return {
    items: prepared.map((p, i) => ({
      ...p,
      source,
      secretRules: [...p.secretRules, ...injectionReasons(items[i]?.content ?? '')],
    })),
    chunks,
  };
}

export interface WriteResult {
  documentId: string;
  chunkIds: string[];
  created: CreatedMemory[];
  quarantined: number;
  duplicates: number;
  /** True when the file was already in the store, unchanged: nothing was written. */
  unchanged: boolean;
}

class Unchanged extends Error {
  constructor(readonly documentId: string) {
    super('unchanged');
  }
}

/** The system links on an agent's behalf where its own view cannot see (quarantined chunks). */
const LINKER: Actor = { kind: 'system', transport: 'ingest' };

export function writeFile(
  store: OpenStore,
  actor: Actor,
  prepared: Prepared,
  options: { newId: () => string; now: number; beforeLinks?: (index: number) => void },
): WriteResult {
  try {
    return store.db.transaction(() => {
      const { results, created } = insertMemories(store, prepared.items, actor, {
        newId: options.newId,
        now: options.now,
      });
      if (results.every((r) => r.duplicate)) throw new Unchanged(results[0]?.id ?? '');
      const doc = results[0] as { id: string; quarantined: boolean };
      const chunks = results.slice(1);
      const link = (
        from: { id: string; quarantined: boolean },
        to: { id: string; quarantined: boolean },
        type: 'part_of' | 'follows',
        weight: number,
      ) => {
        if (from.id === to.id) return;
        const who = actor.kind === 'mcp' && (from.quarantined || to.quarantined) ? LINKER : actor;
        createLink(store, who, { from: from.id, to: to.id, type, weight }, options.now);
      };
      chunks.forEach((c, i) => {
        options.beforeLinks?.(i);
        link(c, doc, 'part_of', 0.8);
        if (i > 0) link(c, chunks[i - 1] as typeof c, 'follows', 0.6);
      });
      return {
        documentId: doc.id,
        chunkIds: chunks.map((c) => c.id),
        created,
        quarantined: results.filter((r) => r.quarantined && !r.duplicate).length,
        duplicates: chunks.filter((r) => r.duplicate).length,
        unchanged: false,
      };
    })();
  } catch (err) {
    if (err instanceof Unchanged) {
      return {
        documentId: err.documentId,
        chunkIds: [],
        created: [],
        quarantined: 0,
        duplicates: 0,
        unchanged: true,
      };
    }
    throw err;
  }
}
