// zod schemas of the contract, by domain (memory): memories, recall, links, procedures,
// stores, models and setup.
import { z } from 'zod';
import { type LAYERS, type TRUST_LEVELS, SETUP_CLIENTS, LIMITS } from '../constants';
import {
  StoreNameSchema,
  MemoryIdSchema,
  KindSchema,
  LinkTypeSchema,
  VisibilitySchema,
  TimestampSchema,
  SessionSchema,
  SpeakerSchema,
  TagsSchema,
  EvidenceSchema,
  storeField,
} from './common';

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
  /**
   * A quarantined memory's credential is masked unless this is set; revealing it is for a
   * person only and is audited (`memory.reveal`).
   */
  reveal: z.boolean().default(false),
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
    /**
     * `now`: only what holds now (not superseded by a live memory, within its validity);
     * a time: what held then (within its validity at that time). Default: every memory.
     */
    as_of: z.union([z.literal('now'), TimestampSchema]).optional(),
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

/** Names for ids shown to a person (dream reports, audit rows, conflicts): at most 500. */
export const TitlesArgsSchema = z.strictObject({
  ...storeField,
  ids: z.array(MemoryIdSchema).max(500),
});

/** What a value being typed may complete to (MCP completions of prompt and template arguments). */
export const COMPLETION_FIELDS = ['store', 'tag', 'id', 'kind'] as const;

export const CompleteArgsSchema = z.strictObject({
  ...storeField,
  field: z.enum(COMPLETION_FIELDS),
  /** What was typed so far (case does not matter). */
  prefix: z.string().max(200).default(''),
  limit: z.number().int().min(1).max(100).default(100),
});

export const ActivityStatsArgsSchema = z.strictObject({
  /** The window: the last hour by default, at most a day. */
  window_minutes: z.number().int().min(10).max(1440).default(60),
  buckets: z.number().int().min(1).max(240).default(60),
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

/** Claude Code's hooks for Loci (session start, prompt, compaction, session end). */
export const SetupHooksArgsSchema = z.strictObject({
  /** Say what would change, and change nothing. */
  dry_run: z.boolean().default(false),
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
