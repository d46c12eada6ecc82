// What the parser worker hands back: a file's chunks with their place in the file, and
// what the document memory says about the whole file.
import type { IngestFormat } from '../../../shared/api';

/** A piece of a file as a parser sees it, before it is cut to size. */
export interface Block {
  text: string;
  /** Where it is: a heading path, "page 3", "row 12", "$.users[4]"… */
  label: string;
  page?: number;
  lineStart?: number;
  lineEnd?: number;
  /** A new section starts here: the chunker does not pack it onto a well-filled chunk. */
  section?: boolean;
  /** A chunk of its own, never packed with its neighbours (a CSV row). */
  alone?: boolean;
}

export interface Chunk {
  text: string;
  label: string;
  pageStart?: number;
  pageEnd?: number;
  lineStart?: number;
  lineEnd?: number;
}

export interface DocInfo {
  /** Pages (PDF), sections (Markdown, HTML, DOCX), rows (CSV), records (JSON, JSONL)… */
  parts: { pages?: number; sections?: number; rows?: number; records?: number; lines?: number };
  /** Tags the file carries itself (Markdown front matter). */
  tags: string[];
  /** Things the user should know: replaced bytes, a summarised CSV, repaired quoting. */
  notes: string[];
  /** The first lines of readable text, for the document memory. */
  head: string;
  /** Extra lines for the document memory (a CSV's columns, the front matter). */
  details: string[];
}

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  format: IngestFormat;
  name: string;
  chunkChars: number;
  overlapChars: number;
  maxChunks: number;
  maxInflatedBytes: number;
  maxJsonDepth: number;
  csvRowsPerMemory: number;
  csvSampleRows: number;
}

export type ParseResponse =
  | { id: number; ok: true; info: DocInfo; chunks: Chunk[] }
  | { id: number; ok: false; reason: string };

/** A file that cannot be read as its format: the message is the report's reason. */
export class ParseRefusal extends Error {}
