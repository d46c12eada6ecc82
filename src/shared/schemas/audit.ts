// zod schemas of the contract, by domain (audit): the audit chain and the doctor.
import { z } from 'zod';
import { TimestampSchema, storeField } from './common';

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
