// zod schemas for every method's arguments. Every transport (IPC, HTTP, MCP, CLI,
// in-process) validates with these, so a rule written here holds everywhere.
// Objects are strict: an unknown field is an error, never silently dropped.
// The schemas live by domain in schemas/; the limits and enumerations they build on in
// constants.ts (zod-free); everything is exported from here.
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
  TRANSCRIPT_FORMATS,
  CONFLICT_STATES,
  CONFLICT_RESOLUTIONS,
  VERIFY_VERDICTS,
} from './constants';
export * from './schemas/common';
export * from './schemas/memory';
export * from './schemas/ingest';
export * from './schemas/audit';
export * from './schemas/dream';
export * from './schemas/transcripts';
export * from './schemas/conflicts';
export * from './schemas/security';
export * from './schemas/sync';
