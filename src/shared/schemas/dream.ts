// zod schemas of the contract, by domain (dream): dreams and the review inbox.
import { z } from 'zod';
import { DREAM_PHASES, REVIEW_KINDS, REVIEW_STATES, LIMITS } from '../constants';
import { storeField } from './common';

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
