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
  /**
   * `auto` (default): after the extractors, the configured language model (`llm`) is
   * asked for candidates too, when one is set and distill.model_on_import allows;
   * `off`: the extractors only (a caller that will ask its own model, MCP sampling).
   */
  model: z.enum(['auto', 'off']).default('auto'),
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

export const JournalProposeArgsSchema = z
  .strictObject({
    ...storeField,
    journal_id: JournalIdSchema,
    /** The candidates, as an agent proposes them. */
    candidates: z.array(ProposedMemorySchema).min(1).max(50).optional(),
    /** Or a model's answer to journal.window's text, read by the engine (JSON in it). */
    reply: z.string().min(1).max(LIMITS.modelReplyMaxChars).optional(),
    /** Who drew them: an agent (default), or the client's model asked by MCP sampling. */
    source: z.enum(['agent', 'sampling']).default('agent'),
    /** The model that answered (sampling), for the record. */
    model: z.string().min(1).max(200).optional(),
  })
  .refine((a) => (a.candidates === undefined) !== (a.reply === undefined), {
    message: "give either candidates or reply (a model's answer), not both",
    path: ['candidates'],
  });

/** The text that hands one window of a journal to a model or an agent. */
export const JournalWindowArgsSchema = z.strictObject({
  ...storeField,
  id: JournalIdSchema,
  offset: z.number().int().min(0).default(0),
  /** Turns in the window (default: the configuration's distill.window_turns). */
  limit: z.number().int().min(1).max(1000).optional(),
  /** `model`: answer with JSON; `agent`: answer by calling propose_memories. */
  audience: z.enum(['model', 'agent']).default('model'),
});

/** Ask the configured language model (`llm`) for candidates from a journal. */
export const JournalDistillArgsSchema = z.strictObject({
  ...storeField,
  id: JournalIdSchema,
  /** Windows asked about, at most (default: distill.max_windows). */
  max_windows: z.number().int().min(1).max(100).optional(),
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
