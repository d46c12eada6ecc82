// The contract by domain (audit): the audit chain and the doctor.
import type { AUDIT_BREAK_REASONS, DOCTOR_STATUSES } from '../schemas';

export interface AuditEntryView {
  seq: number;
  at: string;
  /** `ui`, `cli`, `system`, or `mcp:<client>`. */
  actor: string;
  action: string;
  target: string | null;
  /** What changed, as keyed hashes and field names (never the text itself). */
  data: Record<string, unknown>;
  prev_hash: string;
  hash: string;
  key_id: string;
}

export interface AuditListResult {
  store: string;
  entries: AuditEntryView[];
  /** Entries matching the filters (all pages). */
  total: number;
  /** Pass as `before_seq` for the next page; null at the start of the chain. */
  next_before: number | null;
  head: { seq: number; hash: string };
  /** Actors and actions present in the chain, for filters. */
  actors: string[];
  actions: string[];
}

export type AuditBreakReason = (typeof AUDIT_BREAK_REASONS)[number];

/** The head of a verified chain, signed with the store's audit key. Keep it elsewhere. */
export interface AuditAnchor {
  v: 1;
  store: string;
  seq: number;
  hash: string;
  key_id: string;
  at: string;
  mac: string;
}

export interface AuditVerifyResult {
  store: string;
  ok: boolean;
  /** Entries verified before the first broken one (all of them when ok). */
  checked: number;
  total: number;
  head: { seq: number; hash: string };
  first_broken: { seq: number; reason: AuditBreakReason; detail: string } | null;
  /** The anchor checked against: given by the caller, kept from the last verify, or none. */
  anchor_checked: { source: 'given' | 'stored'; seq: number; at: string } | null;
  /** The new anchor (the head just verified); null when the chain is broken. */
  anchor: AuditAnchor | null;
  /** The same anchor in one line (`loci-anchor:1:…`). */
  anchor_text: string | null;
  duration_ms: number;
}

export interface AuditAnchorResult {
  store: string;
  /** The anchor of the last passed verification (null before the first). */
  anchor: AuditAnchor | null;
  anchor_text: string | null;
  last_verify: {
    at: string;
    ok: boolean;
    checked: number;
    first_broken: AuditVerifyResult['first_broken'];
  } | null;
  head: { seq: number; hash: string };
}

export interface AuditExportResult {
  store: string;
  /** JSON Lines: a header, one entry per line, then the anchor of the head. */
  jsonl: string;
  entries: number;
  /** Pass as `after_seq` for the rest; null when this page reached the head. */
  next_after: number | null;
  anchor: AuditAnchor;
}

export interface AccessResult {
  store: string;
  since: string;
  /** Reads per MCP client and UTC day. */
  groups: {
    client: string;
    day: string;
    /** Memory reads (one memory returned by one call). */
    reads: number;
    /** Distinct memories read. */
    memories: number;
    methods: string[];
    last_at: string;
  }[];
  /** With `client` and `day`: the memories read (an erased one has no title). */
  memories:
    | {
        id: string;
        title: string | null;
        reads: number;
        last_at: string;
        erased: boolean;
        forgotten: boolean;
      }[]
    | null;
}

export interface AuditRotateResult {
  store: string;
  from: string;
  to: string;
}

export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];

export interface DoctorCheck {
  /** Stable id (`sqlite.version`, `fts.sync`, `client.cursor`…): `doctor.fix` takes it. */
  id: string;
  group: string;
  title: string;
  status: DoctorStatus;
  /** One line on what was found. */
  finding: string;
  /** One line on what to do (empty when all is well). */
  fix: string;
  /** True when `doctor.fix` can apply the fix safely. */
  fixable: boolean;
}

export interface DoctorReport {
  store: string;
  /** The worst status of all checks. */
  status: DoctorStatus;
  checks: DoctorCheck[];
  counts: Record<DoctorStatus, number>;
  ran_at: string;
  duration_ms: number;
}

export interface DoctorFixResult {
  store: string;
  check: string;
  /** What was done, in one line. */
  done: string;
  /** The check once more, after the fix. */
  after: DoctorCheck;
}
