// Memory rows as stored, their public shapes, and who may see which. Shared by the
// write, read and recall paths so that a visibility or mapping rule lives in one place.
import type { Actor, MemorySummary } from '../../../shared/api';
import type { Evidence, Layer, MemoryKind, Trust, Visibility } from '../../../shared/schemas';

export interface MemoryRow {
  rid: number;
  id: string;
  title: string;
  content: string;
  kind: MemoryKind;
  layer: Layer;
  source: string;
  evidence: string;
  trust: Trust;
  quarantine_reasons: string;
  visibility: Visibility;
  owner: string | null;
  salience: number;
  valence: number;
  arousal: number;
  valid_from: number | null;
  valid_to: number | null;
  created_at: number;
  updated_at: number;
  version: number;
  pinned: number;
  deleted_at: number | null;
  content_hash: string;
  /** When it happened or was said (epoch ms); null: only created_at is known. */
  occurred_at: number | null;
  session: string | null;
  speaker: string | null;
  /** JSON array, from memory_tag. */
  tags: string;
}

/** Columns of a memory row plus its tags (alias the table as `m`). */
export const MEMORY_COLUMNS = `m.rid, m.id, m.title, m.content, m.kind, m.layer, m.source, m.evidence,
  m.trust, m.quarantine_reasons, m.visibility, m.owner, m.salience, m.valence, m.arousal,
  m.valid_from, m.valid_to, m.created_at, m.updated_at, m.version, m.pinned, m.deleted_at,
  m.content_hash, m.occurred_at, m.session, m.speaker,
  COALESCE((SELECT json_group_array(tag) FROM memory_tag t WHERE t.rid = m.rid), '[]') AS tags`;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
export const parseTime = (value: string): number => Date.parse(value);

export const PREVIEW_CHARS = 160;

export function preview(content: string, chars = PREVIEW_CHARS): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= chars) return flat;
  const cut = flat.slice(0, chars - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > chars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function parseTags(row: Pick<MemoryRow, 'tags'>): string[] {
  return JSON.parse(row.tags) as string[];
}

export function parseEvidence(row: Pick<MemoryRow, 'evidence'>): Evidence[] {
  return JSON.parse(row.evidence) as Evidence[];
}

export function toSummary(row: MemoryRow): MemorySummary {
  return {
    id: row.id,
    title: row.title,
    preview: preview(row.content),
    kind: row.kind,
    tags: parseTags(row),
    source: row.source,
    trust: row.trust,
    visibility: row.visibility,
    pinned: row.pinned === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deleted_at: isoOrNull(row.deleted_at),
    version: row.version,
    occurred_at: isoOrNull(row.occurred_at),
    session: row.session,
    speaker: row.speaker,
  };
}

/** When the memory's event took place as far as recall knows: said or happened, else stored. */
export function eventTime(row: Pick<MemoryRow, 'occurred_at' | 'created_at'>): number {
  return row.occurred_at ?? row.created_at;
}

// ------------------------------------------------------------ callers and visibility

/** The audit actor for a caller: `ui`, `cli`, `system` or `mcp:<client>`. */
export function actorName(actor: Actor): string {
  if (actor.kind === 'mcp') return `mcp:${actor.client ?? 'unknown'}`;
  return actor.kind;
}

/** Where a memory written by this caller comes from (DESIGN.md §4 `source`). */
export function sourceFor(actor: Actor): string {
  if (actor.kind === 'mcp') return `agent:${actor.client ?? 'unknown'}`;
  if (actor.kind === 'system') return 'system';
  if (actor.kind === 'dream') return 'dream';
  return 'user';
}

/** Who owns a private memory written by this caller. */
export function ownerFor(actor: Actor): string {
  return actor.kind === 'mcp' ? actorName(actor) : 'user';
}

/**
 * The person (UI, CLI) sees every memory; an agent sees shared memories and its own
 * private ones, and never a quarantined one (DESIGN.md §5: credentials stay out of MCP
 * until a person promotes them). Returns an SQL condition on `m` and its parameters.
 */
export function visibilityFilter(
  actor: Actor,
  opts: { ownershipOnly?: boolean } = {},
): { sql: string; params: unknown[] } {
  if (actor.kind !== 'mcp') return { sql: '1', params: [] };
  // A shared-only client token sees no private memory, not even its own.
  const own = actor.grant?.policy.shared_only
    ? `(m.visibility = 'shared' OR ? IS NULL)`
    : `(m.visibility = 'shared' OR m.owner = ?)`;
  return {
    sql: opts.ownershipOnly ? own : `(${own} AND m.trust = 'trusted')`,
    params: [ownerFor(actor)],
  };
}

export function canSee(
  actor: Actor,
  row: Pick<MemoryRow, 'visibility' | 'owner' | 'trust'>,
): boolean {
  if (actor.kind !== 'mcp') return true;
  if (actor.grant?.policy.shared_only)
    return row.trust === 'trusted' && row.visibility === 'shared';
  return row.trust === 'trusted' && (row.visibility === 'shared' || row.owner === ownerFor(actor));
}

export function isPerson(actor: Actor): boolean {
  return actor.kind === 'ui' || actor.kind === 'cli';
}
