// zod schemas of the contract, by domain (transcripts): agent session logs read into
// journals, and the journals read back.
import { z } from 'zod';
import { EVIDENCE_CLASSES, LIMITS, TRANSCRIPT_FORMATS } from '../constants';
import { KindSchema, storeField, TagsSchema } from './common';

/** A journal: a ULID. */
export const JournalIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a journal id is a 26-character ULID');

export const TranscriptImportArgsSchema = z.strictObject({
  ...storeField,
  /** Transcript files, or folders whose `*.jsonl` files are read (recursively). */
  paths: z.array(z.string().min(1).max(4096)).min(1).max(LIMITS.transcriptPathsMax),
  /** `auto` (default): each file's format is told from its first lines. */
  format: z.enum(['auto', ...TRANSCRIPT_FORMATS]).default('auto'),
});

/** A memory an agent (or a model) draws from a journal, with the quotes that back it. */
export const ProposedMemorySchema = z.strictObject({
  content: z.string().min(1).max(4000),
  title: z.string().max(LIMITS.titleMaxChars).optional(),
  kind: KindSchema.optional(),
  tags: TagsSchema.optional(),
  /** Exact quotes from the journal's turns, each within one turn. */
  quotes: z.array(z.string().min(1).max(LIMITS.evidenceQuoteMaxChars)).min(1).max(16),
});

export const JournalProposeArgsSchema = z.strictObject({
  ...storeField,
  journal_id: JournalIdSchema,
  candidates: z.array(ProposedMemorySchema).min(1).max(50),
});

export const JournalListArgsSchema = z.strictObject({
  ...storeField,
  limit: z.number().int().min(1).max(500).default(50),
});

export const JournalGetArgsSchema = z.strictObject({
  ...storeField,
  id: JournalIdSchema,
  /** Turns from this one (0-based), at most `limit`. */
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(2000).default(200),
  /** Only turns of these classes. */
  classes: z.array(z.enum(EVIDENCE_CLASSES)).min(1).optional(),
  /** Show the text of turns quarantined for a credential (masked by default). */
  reveal: z.boolean().default(false),
});
