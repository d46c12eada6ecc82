// zod schemas of the contract, by domain (conflicts): contradiction candidates listed,
// resolved and reopened, the backlog scanned, and claims verified against the store.
import { z } from 'zod';
import { CONFLICT_RESOLUTIONS, CONFLICT_STATES, LIMITS } from '../constants';
import { MemoryIdSchema, storeField, TimestampSchema } from './common';

export const ConflictIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'a conflict id is a 26-character ULID');

export const ConflictListArgsSchema = z.strictObject({
  ...storeField,
  /** `open` (default): waiting for a decision; `resolved`: decided; `all`. */
  state: z.enum(['resolved', 'all', ...CONFLICT_STATES]).default('open'),
  /** Only the candidates this memory takes part in. */
  memory: MemoryIdSchema.optional(),
  limit: z.number().int().min(1).max(500).default(100),
  /** The `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
});

/** A context label: what makes a memory true where the other is not ("staging", "EU"). */
const ContextSchema = z
  .string()
  .trim()
  .min(1, 'a context cannot be empty')
  .max(LIMITS.contextMaxChars, `a context is at most ${LIMITS.contextMaxChars} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f,]+$/, 'a context cannot contain commas or control characters');

export const ConflictResolveArgsSchema = z
  .strictObject({
    ...storeField,
    ids: z
      .array(ConflictIdSchema)
      .min(1, 'name at least one conflict')
      .max(LIMITS.conflictsResolveMax, `at most ${LIMITS.conflictsResolveMax} conflicts at once`),
    /**
     * `supersede`: one replaces the other (the newer one unless `winner` says), the
     * other's validity closed at `at`; `scope`: both hold, each in its context;
     * `dismiss`: not a conflict (never proposed again).
     */
    resolution: z.enum(CONFLICT_RESOLUTIONS),
    /** supersede, one conflict only: the memory that holds now (default: the newer one). */
    winner: MemoryIdSchema.optional(),
    /** supersede: when the replaced one stopped holding (default: when the winner began to, else now). */
    at: TimestampSchema.optional(),
    /** scope, one conflict only: the context of each, tagged `context:<label>`. */
    contexts: z.strictObject({ older: ContextSchema, newer: ContextSchema }).optional(),
    /** Why, for the audit chain. */
    reason: z.string().trim().min(1).max(500).optional(),
  })
  .refine((a) => a.winner === undefined || (a.resolution === 'supersede' && a.ids.length === 1), {
    message: 'winner goes with resolution "supersede" and one conflict',
    path: ['winner'],
  })
  .refine((a) => a.at === undefined || a.resolution === 'supersede', {
    message: 'at goes with resolution "supersede"',
    path: ['at'],
  })
  .refine((a) => a.contexts === undefined || (a.resolution === 'scope' && a.ids.length === 1), {
    message: 'contexts go with resolution "scope" and one conflict',
    path: ['contexts'],
  });

export const ConflictReopenArgsSchema = z.strictObject({
  ...storeField,
  id: ConflictIdSchema,
});

export const ConflictScanArgsSchema = z.strictObject({
  ...storeField,
  /** Only memories written at or after this time (default: the whole store). */
  since: TimestampSchema.optional(),
});

export const VerifyArgsSchema = z.strictObject({
  ...storeField,
  claim: z
    .string()
    .trim()
    .min(3, 'the claim is empty')
    .max(LIMITS.queryMaxChars, `a claim is at most ${LIMITS.queryMaxChars} characters`),
  /** Judge the claim as of this time (default: now). */
  as_of: TimestampSchema.optional(),
});
