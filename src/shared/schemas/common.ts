// zod schemas of the contract, by domain (common): the building blocks: store names,
// ids, kinds, tags, times, evidence.
import { z } from 'zod';
import { MEMORY_KINDS, LINK_TYPES, VISIBILITIES, EVIDENCE_CLASSES, LIMITS } from '../constants';

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

/** The optional `store` every store-scoped method takes. */
export const storeField = { store: StoreNameSchema.optional() };
