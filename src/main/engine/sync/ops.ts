// The replication log's operations and the merge rules that turn any set of them into
// one state. Everything here is pure: the replica (replica.ts) folds the operations of
// an entity it holds and writes the result; the property tests fold shuffled sets.
//
// The merge rules (docs/sync.md says them for users):
// - A memory's fields are last-writer-wins, each on its own, by hybrid logical clock: a
//   change names only the fields it changed, so two devices editing different fields
//   both keep their edit. The value a later clock replaced is kept as a version, exactly
//   as a local edit keeps one, so no text is ever lost to a merge.
// - Forget and edit touch different fields (`forgotten` against the text): both hold,
//   so a memory forgotten on one device and edited on another is forgotten, with the
//   edited text if it is restored.
// - Erase wins over everything, whatever the clocks: an erased memory's operations are
//   ignored, and its tombstone carries no content.
// - A memory that leaves the shared log (made private, or quarantined) is withdrawn:
//   every operation before the withdrawal is dropped, and it comes back only with a new
//   full snapshot when it is shared again.
// - Links are a last-writer-wins element set: per (from, to, type), the latest add or
//   remove decides, and an add carries the weight.
// - Procedure outcomes only accumulate (each is its own operation); a contradiction's
//   decision is last-writer-wins per pair.
// Because each rule picks by clock (a total order) or by set union, the result is the same
// whatever order the operations arrive in, and applying one twice changes nothing.
import { z } from 'zod';
import { CONFLICT_STATES, LAYERS, LINK_TYPES, MEMORY_KINDS } from '../../../shared/constants';
import { hlcWall } from './hlc';

const Id = z.string().min(1).max(200);
const Text = z.string().max(2_000_000);
const Line = z.string().max(10_000);
const Time = z.number().int().min(0).max(8_640_000_000_000_000);
const Actor = z.string().min(1).max(200);

/** A memory's replicated fields (visibility and trust never travel: only shared, trusted ones do). */
export const MemFieldsSchema = z
  .object({
    title: Line,
    content: Text,
    kind: z.enum(MEMORY_KINDS),
    layer: z.enum(LAYERS),
    source: Line,
    evidence: z.array(z.unknown()).max(1000),
    tags: z.array(Line).max(64),
    pinned: z.boolean(),
    valid_from: Time.nullable(),
    valid_to: Time.nullable(),
    occurred_at: Time.nullable(),
    session: Line.nullable(),
    speaker: Line.nullable(),
    /** deleted_at: when it was forgotten, null when it is not. */
    forgotten: Time.nullable(),
    created_at: Time,
    salience: z.number().min(0).max(1),
    valence: z.number().min(-1).max(1),
    arousal: z.number().min(0).max(1),
  })
  .strict();
export type MemFields = z.infer<typeof MemFieldsSchema>;
export type MemField = keyof MemFields;

export const MEM_FIELDS = Object.keys(MemFieldsSchema.shape) as MemField[];
/** Fields a change is versioned for (the same set a local update versions). */
export const VERSIONED: readonly MemField[] = [
  'title',
  'content',
  'kind',
  'tags',
  'pinned',
  'valid_from',
  'valid_to',
  'occurred_at',
  'session',
  'speaker',
];
/** Fields only a snapshot carries: each device's dreams fade its own copy. */
export const SNAPSHOT_ONLY: readonly MemField[] = ['created_at', 'salience', 'valence', 'arousal'];
/** What a memory needs before it can be written (a snapshot always has all of them). */
const REQUIRED: readonly MemField[] = ['title', 'content', 'kind', 'source', 'created_at'];

export const OpBodySchema = z.discriminatedUnion('k', [
  z
    .object({
      k: z.literal('mem'),
      id: Id,
      /** A full snapshot: the memory joins (or rejoins) the shared log. */
      snap: z.boolean().optional(),
      /** The change made a version where it was made, even if no versioned field differs. */
      ver: z.boolean().optional(),
      f: MemFieldsSchema.partial(),
      /** When the change was made (ms); the clock's wall time when absent. */
      at: Time.optional(),
      a: Actor,
    })
    .strict(),
  z
    .object({
      k: z.literal('gone'),
      id: Id,
      why: z.enum(['erased', 'private', 'quarantined']),
      a: Actor,
    })
    .strict(),
  z
    .object({
      k: z.literal('link'),
      from: Id,
      to: Id,
      type: z.enum(LINK_TYPES),
      on: z.boolean(),
      w: z.number().min(0).max(1),
      a: Actor,
    })
    .strict(),
  z
    .object({
      k: z.literal('outcome'),
      id: Id,
      ok: z.boolean(),
      niche: Line.nullable(),
      at: Time,
      a: Actor,
    })
    .strict(),
  z
    .object({
      k: z.literal('conflict'),
      older: Id,
      newer: Id,
      relation: z.enum(['contradicting', 'updating']),
      confidence: z.number().min(0).max(1),
      spans: z.unknown(),
      state: z.enum(CONFLICT_STATES),
      resolution: z.unknown().nullable(),
      detected_at: Time,
      detected_by: Actor,
      resolved_at: Time.nullable(),
      a: Actor,
    })
    .strict(),
]);
export type OpBody = z.infer<typeof OpBodySchema>;
export type MemOp = Extract<OpBody, { k: 'mem' }>;
export type LinkOp = Extract<OpBody, { k: 'link' }>;
export type OutcomeOp = Extract<OpBody, { k: 'outcome' }>;
export type ConflictOp = Extract<OpBody, { k: 'conflict' }>;

/** An operation with its clock, as the folds read it. */
export interface Op {
  h: string;
  b: OpBody;
}

/** The entity an operation is about, and the memories it mentions (see WireOp). */
export function entityOf(b: OpBody): { e: string; r: string[] } {
  switch (b.k) {
    case 'mem':
    case 'gone':
      return { e: `m:${b.id}`, r: [b.id] };
    case 'link':
      return { e: `l:${b.from}|${b.to}|${b.type}`, r: [b.from, b.to] };
    case 'outcome':
      return { e: `o:${b.id}`, r: [b.id] };
    case 'conflict':
      return { e: `c:${b.older}|${b.newer}`, r: [b.older, b.newer] };
  }
}

const byClock = (a: Op, b: Op) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0);

/** One earlier state of a memory, kept when a later change replaced it. */
export interface FoldedVersion {
  title: string;
  content: string;
  kind: MemFields['kind'];
  tags: string[];
  /** When it was replaced, and by whom. */
  changed_at: number;
  actor: string;
}

export interface MemoryFold {
  /** Erased anywhere: it never comes back. */
  erased: boolean;
  /** In the shared log now (a snapshot after the last withdrawal) with every field it needs. */
  present: boolean;
  fields: Partial<MemFields>;
  versions: FoldedVersion[];
  /** The time of the last change (the memory's updated_at). */
  updated_at: number;
  /** The clock of the last operation taken into account. */
  last: string | null;
}

/** Same value, for JSON-shaped field values (tags and evidence are arrays). */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function versionOf(f: Partial<MemFields>): Omit<FoldedVersion, 'changed_at' | 'actor'> {
  return {
    title: f.title ?? '',
    content: f.content ?? '',
    kind: f.kind ?? 'semantic',
    tags: f.tags ?? [],
  };
}

/** A memory's state from all its operations (any order, duplicates allowed). */
export function foldMemory(ops: readonly Op[]): MemoryFold {
  const sorted = dedupe(ops);
  const erased = sorted.some((o) => o.b.k === 'gone' && o.b.why === 'erased');
  let fields: Partial<MemFields> = {};
  let shared = false;
  let versions: FoldedVersion[] = [];
  let updatedAt = 0;
  let last: string | null = null;
  if (!erased) {
    for (const op of sorted) {
      const b = op.b;
      last = op.h;
      if (b.k === 'gone') {
        // A withdrawal drops everything before it: the memory starts again at its next snapshot.
        fields = {};
        shared = false;
        versions = [];
        continue;
      }
      if (b.k !== 'mem') continue;
      const at = b.at ?? hlcWall(op.h);
      const had = shared && REQUIRED.every((k) => fields[k] !== undefined);
      const changesVersioned =
        had && (b.ver === true || VERSIONED.some((k) => k in b.f && !sameValue(b.f[k], fields[k])));
      if (changesVersioned) versions.push({ ...versionOf(fields), changed_at: at, actor: b.a });
      fields = { ...fields, ...b.f };
      if (b.snap) shared = true;
      updatedAt = Math.max(updatedAt, at);
    }
  }
  const present = !erased && shared && REQUIRED.every((k) => fields[k] !== undefined);
  return { erased, present, fields, versions, updated_at: updatedAt, last };
}

export interface LinkFold {
  on: boolean;
  w: number;
  last: string | null;
}

/** A link's state: the latest add or remove. */
export function foldLink(ops: readonly Op[]): LinkFold {
  let state: LinkFold = { on: false, w: 0, last: null };
  for (const op of dedupe(ops)) {
    if (op.b.k !== 'link') continue;
    state = { on: op.b.on, w: op.b.w, last: op.h };
  }
  return state;
}

/** A contradiction's state: the latest decision. */
export function foldConflict(ops: readonly Op[]): (ConflictOp & { h: string }) | null {
  let state: (ConflictOp & { h: string }) | null = null;
  for (const op of dedupe(ops)) if (op.b.k === 'conflict') state = { ...op.b, h: op.h };
  return state;
}

/** Sorted by clock, each clock once (a replayed operation is the same operation). */
function dedupe(ops: readonly Op[]): Op[] {
  const sorted = [...ops].sort(byClock);
  return sorted.filter((o, i) => i === 0 || sorted[i - 1]?.h !== o.h);
}
