// zod schemas for every method's arguments. Every transport (IPC, HTTP, MCP, CLI,
// in-process) validates with these, so a rule written here holds everywhere.
// Objects are strict: an unknown field is an error, never silently dropped.
import { z } from 'zod';
import {
  MEMORY_KINDS,
  LINK_TYPES,
  VISIBILITIES,
  EVIDENCE_CLASSES,
  type LAYERS,
  type TRUST_LEVELS,
  SETUP_CLIENTS,
  DREAM_PHASES,
  REVIEW_KINDS,
  REVIEW_STATES,
  LIMITS,
  isUploadPath,
  UPLOAD_PATH_RULE,
} from './constants';

export {
  MEMORY_KINDS,
  LINK_TYPES,
  VISIBILITIES,
  EVIDENCE_CLASSES,
  LAYERS,
  TRUST_LEVELS,
  SETUP_CLIENTS,
  INGEST_FORMATS,
  AUDIT_BREAK_REASONS,
  DOCTOR_STATUSES,
  DREAM_PHASES,
  REVIEW_KINDS,
  REVIEW_STATES,
  LIMITS,
} from './constants';

export const StoreNameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,62}$/,
    'a store name is 1–63 characters: lowercase letters, digits, "-" and "_", starting with a letter or digit',
  );

/** ULIDs: 26 characters of Crockford base32, time-sortable. */
export const MemoryIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a memory id is a 26-character ULID');

export const KindSchema = z.enum(MEMORY_KINDS);
export const LinkTypeSchema = z.enum(LINK_TYPES);
export const VisibilitySchema = z.enum(VISIBILITIES);

/** Times cross the contract as ISO 8601 with an offset (`2026-01-31T09:00:00Z`). */
export const TimestampSchema = z.iso.datetime({ offset: true });

export const TagSchema = z
  .string()
  .trim()
  .min(1, 'a tag cannot be empty')
  .max(LIMITS.tagMaxChars, `a tag is at most ${LIMITS.tagMaxChars} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f,]+$/, 'a tag cannot contain commas or control characters');

/** A conversation or thread id, as the client names it (`claude:5f0c…`, `standup-2026-03-02`). */
export const SessionSchema = z
  .string()
  .trim()
  .min(1, 'a session id cannot be empty')
  .max(LIMITS.sessionMaxChars, `a session id is at most ${LIMITS.sessionMaxChars} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'a session id cannot contain control characters');

/** Who said it: a person's or an agent's name as it appears in the conversation. */
export const SpeakerSchema = z
  .string()
  .trim()
  .min(1, 'a speaker cannot be empty')
  .max(LIMITS.speakerMaxChars, `a speaker is at most ${LIMITS.speakerMaxChars} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'a speaker cannot contain control characters');

export const TagsSchema = z.array(TagSchema).max(LIMITS.tagsMax, `at most ${LIMITS.tagsMax} tags`);

export const EvidenceSchema = z.strictObject({
  quote: z.string().min(1).max(LIMITS.evidenceQuoteMaxChars),
  class: z.enum(EVIDENCE_CLASSES),
  source: z.string().max(500).optional(),
});

const storeField = { store: StoreNameSchema.optional() };

export const RememberArgsSchema = z.strictObject({
  ...storeField,
  content: z.string(),
  title: z.string().max(LIMITS.titleMaxChars).optional(),
  kind: KindSchema.optional(),
  tags: TagsSchema.optional(),
  visibility: VisibilitySchema.optional(),
  valid_from: TimestampSchema.optional(),
  valid_to: TimestampSchema.optional(),
  evidence: z.array(EvidenceSchema).max(LIMITS.evidenceMax).optional(),
  pinned: z.boolean().optional(),
  /** When the thing happened or was said (default: not known; `created_at` is when it was stored). */
  occurred_at: TimestampSchema.optional(),
  /** The conversation or thread it belongs to: recall reads a session's turns as neighbours. */
  session: SessionSchema.optional(),
  /** Who said it. */
  speaker: SpeakerSchema.optional(),
});

export const RememberManyArgsSchema = z.strictObject({
  ...storeField,
  items: z
    .array(RememberArgsSchema.omit({ store: true }))
    .min(1)
    .max(LIMITS.batchMax, `at most ${LIMITS.batchMax} memories per batch`),
});

export const RecallArgsSchema = z.strictObject({
  ...storeField,
  query: z.string().trim().min(1, 'the query is empty').max(LIMITS.queryMaxChars),
  limit: z.number().int().min(1).max(LIMITS.recallLimitMax).default(10),
  kinds: z.array(KindSchema).optional(),
  tags: TagsSchema.optional(),
  include_quarantined: z.boolean().default(false),
  as_of: TimestampSchema.optional(),
  /** Only memories of this session. */
  session: SessionSchema.optional(),
  /** Only memories said by this speaker. */
  speaker: SpeakerSchema.optional(),
  /** Only memories that happened (or, without occurred_at, were stored) at or after this time. */
  occurred_after: TimestampSchema.optional(),
  /** … and before this time. */
  occurred_before: TimestampSchema.optional(),
  max_tokens: z.number().int().min(LIMITS.maxTokensMin).max(LIMITS.maxTokensMax).optional(),
  format: z.enum(['compact', 'verbose']).default('compact'),
  /** A recall is a rehearsal of what it returns; browsing tools may opt out. */
  rehearse: z.boolean().default(true),
  /** Return the stage-by-stage trace (the observatory's Recall lab replays it). */
  explain: z.boolean().default(false),
  /** Include memories another memory supersedes (hidden by default). */
  history: z.boolean().default(false),
  /**
   * See what this MCP client would get (its private memories, never quarantined ones),
   * without counting it as a use. For the person at the CLI or the observatory only.
   */
  as_client: z.string().trim().min(1).max(100).optional(),
});

export const CalibrateArgsSchema = z.strictObject({
  ...storeField,
  /** Memories sampled for answerable questions (default 200). */
  sample: z.number().int().min(10).max(2000).default(200),
});

export const GetArgsSchema = z.strictObject({
  ...storeField,
  id: MemoryIdSchema,
  /** Soft-deleted memories are returned only when asked for. */
  include_deleted: z.boolean().default(false),
});

export const ListArgsSchema = z
  .strictObject({
    ...storeField,
    kinds: z.array(KindSchema).optional(),
    tags: TagsSchema.optional(),
    /** Exact source (`user`, `agent:cursor`, `file:notes.md`, …) or a prefix ending in `:` or `*`. */
    source: z.string().min(1).max(200).optional(),
    trust: z.enum(['trusted', 'quarantined', 'any']).default('trusted'),
    pinned: z.boolean().optional(),
    deleted: z.enum(['exclude', 'include', 'only']).default('exclude'),
    /** `occurred`: by when it happened (else when it was stored): a session in the order it was said. */
    order: z.enum(['created', 'updated', 'occurred']).default('created'),
    direction: z.enum(['desc', 'asc']).default('desc'),
    cursor: z.string().max(200).optional(),
    /** Skip this many (for a list that jumps to any position); not with `cursor`. */
    offset: z.number().int().min(0).max(10_000_000).optional(),
    /** Only memories likely forgotten: FSRS retrievability below one half, not pinned. */
    at_risk: z.boolean().optional(),
    /** Only memories of this session (conversation, thread). */
    session: SessionSchema.optional(),
    /** Only memories said by this speaker. */
    speaker: SpeakerSchema.optional(),
    /** Only memories that happened (without occurred_at: were stored) at or after this time. */
    occurred_after: TimestampSchema.optional(),
    /** … and before this time. */
    occurred_before: TimestampSchema.optional(),
    limit: z.number().int().min(1).max(LIMITS.listLimitMax).default(50),
  })
  .refine((a) => a.cursor === undefined || a.offset === undefined, {
    message: 'give either cursor or offset, not both',
    path: ['offset'],
  })
  .refine(
    (a) =>
      a.occurred_after === undefined ||
      a.occurred_before === undefined ||
      Date.parse(a.occurred_after) < Date.parse(a.occurred_before),
    { message: 'occurred_after must be earlier than occurred_before', path: ['occurred_after'] },
  );

const nullableTimestamp = TimestampSchema.nullable();

export const UpdateArgsSchema = z
  .strictObject({
    ...storeField,
    id: MemoryIdSchema,
    content: z.string().optional(),
    title: z.string().max(LIMITS.titleMaxChars).optional(),
    kind: KindSchema.optional(),
    tags: TagsSchema.optional(),
    pinned: z.boolean().optional(),
    visibility: VisibilitySchema.optional(),
    valid_from: nullableTimestamp.optional(),
    valid_to: nullableTimestamp.optional(),
    /** null clears it. */
    occurred_at: nullableTimestamp.optional(),
    session: SessionSchema.nullable().optional(),
    speaker: SpeakerSchema.nullable().optional(),
    /** Optimistic concurrency: the update fails with `conflict` if the memory moved on. */
    expected_version: z.number().int().min(1).optional(),
  })
  .refine(
    (a) =>
      [
        a.content,
        a.title,
        a.kind,
        a.tags,
        a.pinned,
        a.visibility,
        a.valid_from,
        a.valid_to,
        a.occurred_at,
        a.session,
        a.speaker,
      ].some((v) => v !== undefined),
    { message: 'nothing to update: give at least one field to change' },
  );

export const IdArgsSchema = z.strictObject({ ...storeField, id: MemoryIdSchema });

export const TagArgsSchema = z
  .strictObject({
    ...storeField,
    id: MemoryIdSchema,
    add: TagsSchema.optional(),
    remove: TagsSchema.optional(),
  })
  .refine((a) => (a.add?.length ?? 0) + (a.remove?.length ?? 0) > 0, {
    message: 'give tags to add or to remove',
  });

export const LinkCreateArgsSchema = z
  .strictObject({
    ...storeField,
    from: MemoryIdSchema,
    to: MemoryIdSchema,
    type: LinkTypeSchema.default('related'),
    weight: z.number().min(0).max(1).default(0.5),
  })
  .refine((a) => a.from !== a.to, { message: 'a memory cannot be linked to itself' });

export const LinkCreateManyArgsSchema = z.strictObject({
  ...storeField,
  /** All or nothing: one link that cannot be made (an unknown memory) makes none. */
  links: z
    .array(
      z
        .strictObject({
          from: MemoryIdSchema,
          to: MemoryIdSchema,
          type: LinkTypeSchema.default('related'),
          weight: z.number().min(0).max(1).default(0.5),
        })
        .refine((a) => a.from !== a.to, { message: 'a memory cannot be linked to itself' }),
    )
    .min(1, 'no links given')
    .max(10_000, 'at most 10,000 links per call'),
});

export const LinkRemoveArgsSchema = z.strictObject({
  ...storeField,
  from: MemoryIdSchema,
  to: MemoryIdSchema,
  /** Without a type, every link between the two memories (in that direction) is removed. */
  type: LinkTypeSchema.optional(),
});

export const NeighborsArgsSchema = z.strictObject({
  ...storeField,
  id: MemoryIdSchema,
  depth: z.number().int().min(1).max(LIMITS.neighborsDepthMax).default(1),
  types: z.array(LinkTypeSchema).optional(),
  limit: z.number().int().min(1).max(LIMITS.neighborsLimitMax).default(100),
});

export const TimelineArgsSchema = z.strictObject({
  ...storeField,
  from: TimestampSchema.optional(),
  to: TimestampSchema.optional(),
  tags: TagsSchema.optional(),
  kinds: z.array(KindSchema).optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** The largest map a caller may ask for (the `bootstrap` prompt fills up to it). */
export const MAP_MAX_TOKENS = 50_000;

export const MapArgsSchema = z.strictObject({
  ...storeField,
  max_tokens: z.number().int().min(64).max(MAP_MAX_TOKENS).default(2000),
});

/** The `bootstrap` prompt's budget: pinned memories and the map together. */
export const BootstrapArgsSchema = z.strictObject({
  ...storeField,
  max_tokens: z.number().int().min(200).max(100_000).default(4000),
});

export const OutcomeArgsSchema = z.strictObject({
  ...storeField,
  id: MemoryIdSchema,
  success: z.boolean(),
  /** The situation the procedure was used in ("python monorepo", "prod deploy"): outcomes compete per niche. */
  niche: z.string().trim().min(1).max(100).optional(),
});

export const FindProceduresArgsSchema = z.strictObject({
  ...storeField,
  query: z.string().trim().min(1, 'the query is empty').max(LIMITS.queryMaxChars),
  limit: z.number().int().min(1).max(50).default(5),
  niche: z.string().trim().min(1).max(100).optional(),
});

export const ActivityArgsSchema = z.strictObject({
  limit: z.number().int().min(1).max(1000).default(100),
  client: z.string().max(200).optional(),
  tool: z.string().max(100).optional(),
  /** Only calls after this one (by id), for following the feed. */
  after: z.number().int().min(0).optional(),
});

export const ActivityGetArgsSchema = z.strictObject({ id: z.number().int().min(1) });

export const RevertArgsSchema = z.strictObject({
  ...storeField,
  id: MemoryIdSchema,
  /** The earlier version to bring back (it becomes a new version; nothing is lost). */
  version: z.number().int().min(1),
  expected_version: z.number().int().min(1).optional(),
});

export const AtlasArgsSchema = z.strictObject({
  ...storeField,
  /** The most memories to draw (the most active first). */
  limit: z.number().int().min(1).max(20_000).default(5000),
});

export const StoreRenameArgsSchema = z.strictObject({ name: StoreNameSchema, to: StoreNameSchema });

export const OverviewArgsSchema = z.strictObject({
  ...storeField,
  /** Memories created per day over this many days. */
  days: z.number().int().min(1).max(3650).default(90),
});

export const SetupArgsSchema = z.strictObject({
  client: z.enum(SETUP_CLIENTS).optional(),
  transport: z.enum(['http', 'stdio']).optional(),
});

export const SetupWriteArgsSchema = z.strictObject({
  client: z.enum(SETUP_CLIENTS),
  transport: z.enum(['http', 'stdio']).optional(),
});

export const EmptyArgsSchema = z.strictObject({});
export const ModelIdArgsSchema = z.strictObject({
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]{0,80}$/,
      'a model id is lowercase letters, digits, ".", "-" and "_"',
    ),
});
export const ModelUseArgsSchema = z.strictObject({
  /** A model id, `auto` (the best installed) or `none` (the hashing fallback). */
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]{0,80}$/,
      'a model id is lowercase letters, digits, ".", "-" and "_"',
    ),
});
export const StoreNameArgsSchema = z.strictObject({ name: StoreNameSchema });
export const StoreArgsSchema = z.strictObject({ ...storeField });
export const StoreImportArgsSchema = z.strictObject({
  ...storeField,
  /** What `store.export` returned (checked in full before anything is written). */
  bundle: z.record(z.string(), z.unknown()),
});
export const StoreBackupArgsSchema = z.strictObject({
  ...storeField,
  /** Where to write the copy: a file that does not exist yet (default: the store's backups folder). */
  to: z.string().min(1).max(4096).optional(),
});

export type RememberArgs = z.input<typeof RememberArgsSchema>;
export type RememberManyArgs = z.input<typeof RememberManyArgsSchema>;
export type RecallArgs = z.input<typeof RecallArgsSchema>;
export type CalibrateArgs = z.input<typeof CalibrateArgsSchema>;
export type GetArgs = z.input<typeof GetArgsSchema>;
export type ListArgs = z.input<typeof ListArgsSchema>;
export type UpdateArgs = z.input<typeof UpdateArgsSchema>;
export type IdArgs = z.input<typeof IdArgsSchema>;
export type TagArgs = z.input<typeof TagArgsSchema>;
export type LinkCreateArgs = z.input<typeof LinkCreateArgsSchema>;
export type LinkRemoveArgs = z.input<typeof LinkRemoveArgsSchema>;
export type NeighborsArgs = z.input<typeof NeighborsArgsSchema>;
export type StoreNameArgs = z.input<typeof StoreNameArgsSchema>;
export type StoreArgs = z.input<typeof StoreArgsSchema>;

export type MemoryKind = z.infer<typeof KindSchema>;
export type LinkType = z.infer<typeof LinkTypeSchema>;
export type Visibility = z.infer<typeof VisibilitySchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
export type Layer = (typeof LAYERS)[number];
export type Trust = (typeof TRUST_LEVELS)[number];

// ---------------------------------------------------------------- ingestion

/** An import batch: a ULID (the caller may choose it, to cancel before the answer). */
export const BatchIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'an import batch id is a 26-character ULID');

/** A browser's upload session: files staged under it are then ingested as one folder. */
export const UploadIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'an upload id is a 26-character ULID');

/** A path inside an upload: relative, "/"-separated, no "..", no empty or hidden tricks. */
export const UploadPathSchema = z.string().min(1).max(1024).refine(isUploadPath, UPLOAD_PATH_RULE);

const ingestChunking = {
  /** Tokens per chunk (default: what the active embedding model takes, at most 512). */
  chunk_tokens: z.number().int().min(LIMITS.chunkTokensMin).max(LIMITS.chunkTokensMax).optional(),
  /** Tokens shared by neighbouring chunks (default: an eighth of chunk_tokens). */
  overlap_tokens: z.number().int().min(0).max(512).optional(),
  /** Extra tags on every memory of the batch. */
  tags: z.array(z.string().min(1).max(LIMITS.tagMaxChars)).max(8).optional(),
};

export const IngestFilesArgsSchema = z
  .strictObject({
    ...storeField,
    /** Absolute paths of files or folders on the engine's machine. */
    paths: z.array(z.string().min(1).max(4096)).min(1).max(LIMITS.ingestPathsMax).optional(),
    /** Or: the files staged with ingest.upload under this id. */
    upload: UploadIdSchema.optional(),
    batch: BatchIdSchema.optional(),
    ...ingestChunking,
  })
  .refine((a) => (a.paths === undefined) !== (a.upload === undefined), {
    message: 'give either paths or upload, not both',
    path: ['paths'],
  });

export const IngestUploadArgsSchema = z.strictObject({
  upload: UploadIdSchema,
  path: UploadPathSchema,
  /** The file's bytes, base64. */
  content_base64: z
    .string()
    .max(Math.ceil((LIMITS.uploadFileMaxBytes * 4) / 3) + 4, 'the file is larger than 32 MiB'),
  /** The file's last-modified time (ms since 1970), kept as its provenance. */
  modified: z.number().int().min(0).optional(),
});

export const IngestBatchArgsSchema = z.strictObject({ ...storeField, batch: BatchIdSchema });

export const IngestCancelArgsSchema = z.strictObject({ batch: BatchIdSchema });

export const IngestListArgsSchema = z.strictObject({
  ...storeField,
  limit: z.number().int().min(1).max(200).default(50),
});

export const IngestFoldersArgsSchema = z.strictObject({
  /** Absolute folders the MCP tool ingest_file may read from (replaces the list). */
  folders: z.array(z.string().min(1).max(4096)).max(LIMITS.ingestFoldersMax),
});

// ---------------------------------------------------------------- audit and doctor

export const AuditListArgsSchema = z.strictObject({
  ...storeField,
  limit: z.number().int().min(1).max(500).default(100),
  /** Entries older than this one (newest first): the next page's cursor. */
  before_seq: z.number().int().min(1).optional(),
  actor: z.string().min(1).max(200).optional(),
  action: z.string().min(1).max(100).optional(),
  target: z.string().min(1).max(200).optional(),
  since: TimestampSchema.optional(),
  until: TimestampSchema.optional(),
});

/** An anchor as JSON (what audit.verify returns) or its one-line `loci-anchor:1:…` form. */
export const AuditAnchorInputSchema = z.union([
  z.string().min(1).max(1000),
  z.object({
    v: z.literal(1),
    store: z.string().max(100),
    seq: z.number().int().min(0),
    hash: z.string().max(100),
    key_id: z.string().max(100),
    at: z.string().max(100),
    mac: z.string().max(100),
  }),
]);

export const AuditVerifyArgsSchema = z.strictObject({
  ...storeField,
  /** Check against this anchor instead of the one kept from the last verification. */
  anchor: AuditAnchorInputSchema.optional(),
});

export const AuditExportArgsSchema = z.strictObject({
  ...storeField,
  /** Entries after this one (for paging a long chain). */
  after_seq: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100_000).default(100_000),
});

export const AuditAccessArgsSchema = z.strictObject({
  ...storeField,
  /** Days back from today (UTC), today included. */
  days: z.number().int().min(1).max(90).default(7),
  client: z.string().min(1).max(200).optional(),
  /** One UTC day (`2026-03-01`); with `client`, lists the memories read that day. */
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD')
    .optional(),
  limit: z.number().int().min(1).max(1000).default(200),
});

export const DoctorRunArgsSchema = z.strictObject({ ...storeField });

export const DoctorFixArgsSchema = z.strictObject({
  ...storeField,
  /** The id of the check whose fix to apply (`fts.sync`, `lock.stale`, `client.cursor`…). */
  check: z.string().min(1).max(100),
});

// ---------------------------------------------------------------- dreams and the review inbox

export const DreamCycleIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a dream cycle id is a 26-character ULID');

export const ReviewIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a review item id is a 26-character ULID');

export const DreamRunArgsSchema = z.strictObject({
  ...storeField,
  /** Report what each phase would change, and change nothing. */
  dry_run: z.boolean().default(false),
  /** A subset of the phases (they still run in their fixed order); default: all of them. */
  phases: z
    .array(z.enum(DREAM_PHASES))
    .min(1, 'name at least one phase')
    .refine((p) => new Set(p).size === p.length, 'a phase is named twice')
    .optional(),
  /** The caller may choose the cycle's id, to cancel it before the answer comes. */
  id: DreamCycleIdSchema.optional(),
});

export const DreamCancelArgsSchema = z.strictObject({
  /** The running cycle to stop; without it, any running cycle. */
  id: DreamCycleIdSchema.optional(),
});

export const DreamListArgsSchema = z.strictObject({
  ...storeField,
  limit: z.number().int().min(1).max(200).default(30),
});

export const DreamGetArgsSchema = z.strictObject({ ...storeField, id: DreamCycleIdSchema });

export const ReviewListArgsSchema = z.strictObject({
  ...storeField,
  state: z.enum([...REVIEW_STATES, 'all']).default('pending'),
  kind: z.enum(REVIEW_KINDS).optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

export const ReviewAcceptArgsSchema = z
  .strictObject({
    ...storeField,
    ids: z.array(ReviewIdSchema).min(1, 'name at least one review item').max(500),
    /** Edit then accept (one item only): the text and title to write instead of the proposal's. */
    edit: z
      .strictObject({
        title: z.string().trim().min(1).max(LIMITS.titleMaxChars).optional(),
        content: z.string().optional(),
      })
      .refine((e) => e.title !== undefined || e.content !== undefined, {
        message: 'an edit changes the title or the content',
      })
      .optional(),
  })
  .refine((a) => a.edit === undefined || a.ids.length === 1, {
    message: 'an edit applies to one review item at a time',
    path: ['edit'],
  });

export const ReviewRejectArgsSchema = z.strictObject({
  ...storeField,
  ids: z.array(ReviewIdSchema).min(1, 'name at least one review item').max(500),
  reason: z.string().trim().min(1).max(500).optional(),
});
