// The contract's limits and enumerations, without zod: what the observatory needs to
// know of the contract at run time (schemas.ts builds the validation from these, and
// re-exports them). Importing this costs the renderer nothing; importing schemas.ts would
// bring zod into its bundle, which the lint forbids there.

/** The store used when none is named (created the first time it is needed). */
export const DEFAULT_STORE_NAME = 'default';

export const MEMORY_KINDS = [
  'episodic',
  'semantic',
  'procedural',
  'affective',
  'prospective',
  'schematic',
] as const;

export const LINK_TYPES = [
  'related',
  'causes',
  'supports',
  'contradicts',
  'part_of',
  'follows',
  'derived_from',
  'supersedes',
  'same_as',
] as const;

export const VISIBILITIES = ['shared', 'private'] as const;

export const EVIDENCE_CLASSES = ['USER', 'TOOL', 'ACT', 'SELF'] as const;
/** Who a journal line is from: the person (USER), a tool's output (TOOL), an invocation (ACT), the agent (SELF). */
export type TurnClass = (typeof EVIDENCE_CLASSES)[number];

/** The agent session logs Loci reads (README, "Transcripts"). */
export const TRANSCRIPT_FORMATS = ['claude-code', 'codex', 'generic'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const LAYERS = ['working', 'long_term', 'core'] as const;

export const TRUST_LEVELS = ['trusted', 'quarantined'] as const;

export const SETUP_CLIENTS = [
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'windsurf',
  'zed',
] as const;

export const INGEST_FORMATS = [
  'markdown',
  'text',
  'code',
  'json',
  'jsonl',
  'csv',
  'html',
  'pdf',
  'docx',
] as const;

/** Why an audit entry failed verification (see src/main/engine/audit/verify.ts). */
export const AUDIT_BREAK_REASONS = [
  'payload-changed',
  'removed',
  'reordered',
  'wrong-key',
  'key-missing',
  'truncated',
  'anchor-mismatch',
] as const;

export const DOCTOR_STATUSES = ['ok', 'warn', 'fail'] as const;

/** The phases of a dream cycle, in the order they run (DESIGN.md §7). */
export const DREAM_PHASES = [
  'replay',
  'cluster',
  'schema',
  'affect',
  'decay',
  'recombine',
  'contradict',
  'merge',
  'compete',
  'retention',
] as const;

export const REVIEW_KINDS = ['schema', 'merge', 'link', 'refine', 'distill'] as const;

export const REVIEW_STATES = ['pending', 'accepted', 'rejected'] as const;

/**
 * A contradiction candidate's life: `open` until someone decides; `superseded` (one
 * replaces the other from a time on), `scoped` (both hold, each in its context) or
 * `dismissed` (not a conflict). A decision can be undone: the candidate is open again.
 */
export const CONFLICT_STATES = ['open', 'superseded', 'scoped', 'dismissed'] as const;

/** What a person or an agent decides about a contradiction candidate. */
export const CONFLICT_RESOLUTIONS = ['supersede', 'scope', 'dismiss'] as const;

/** What `verify` answers about a claim. */
export const VERIFY_VERDICTS = ['supported', 'contradicted', 'unknown'] as const;

/** Limits that are part of the public contract. */
export const LIMITS = {
  contentMaxBytes: 64 * 1024,
  titleMaxChars: 200,
  sessionMaxChars: 200,
  speakerMaxChars: 100,
  tagMaxChars: 100,
  tagsMax: 32,
  evidenceMax: 16,
  evidenceQuoteMaxChars: 4000,
  queryMaxChars: 2000,
  recallLimitMax: 100,
  listLimitMax: 500,
  batchMax: 1000,
  maxTokensMin: 32,
  maxTokensMax: 200_000,
  neighborsDepthMax: 3,
  neighborsLimitMax: 500,
  /** Paths one ingest.files call may name (each may be a folder). */
  ingestPathsMax: 1000,
  /** Bytes of one file sent through ingest.upload (before base64). */
  uploadFileMaxBytes: 32 * 1024 * 1024,
  chunkTokensMin: 64,
  chunkTokensMax: 2048,
  ingestFoldersMax: 100,
  /** A model's answer handed to journal.propose, at most. */
  modelReplyMaxChars: 200_000,
  /** Transcript files one transcript.import call may name (each may be a folder). */
  transcriptPathsMax: 200,
  /** The largest transcript read; larger ones are refused before they are opened. */
  transcriptMaxBytes: 256 * 1024 * 1024,
  /** Characters of one journal turn kept; a longer tool output keeps its head and tail. */
  turnMaxChars: 32 * 1024,
  /** Turns one journal may hold; past it the rest of the file is reported, not kept. */
  journalMaxTurns: 200_000,
  /** Contradiction candidates one conflict.resolve call may decide. */
  conflictsResolveMax: 500,
  /** A context label given when two memories are true in different contexts. */
  contextMaxChars: 60,
} as const;

/** A path inside an upload: relative, "/"-separated, no "..", no empty or hidden tricks. */
export function isUploadPath(p: string): boolean {
  return (
    p.length >= 1 &&
    p.length <= 1024 &&
    !p.startsWith('/') &&
    !p.includes('\\') &&
    !p.includes('\0') &&
    !/^[A-Za-z]:/.test(p) &&
    p.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

export const UPLOAD_PATH_RULE =
  'an upload path is relative ("docs/notes.md"), without "..", "." or empty parts';

/** What stands for a credential masked in a quarantined memory (engine/memory/mask.ts). */
export const SECRET_MASK = '••••••••';
