// Changes to existing memories: update (the previous text kept as a version), tag,
// forget (soft, restorable), restore, erase (hard: gone from every table and index,
// an audit tombstone left) and promote (out of quarantine, by a person only).
// Each change and its audit row commit in one transaction.
import type { Actor, MutationResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { UpdateArgs } from '../../../shared/schemas';
import { deriveTitle } from '../cognition/appraisal';
import { speakersChanged } from '../recall/conversation';
import { ftsInsert, ftsRemove, ftsReplace } from '../store/ftsIndex';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { gateContent, normalizeLine, normalizeTags } from '../write/gate';
import { scanSecrets } from '../write/scanHost';
import {
  actorName,
  isPerson,
  ownerFor,
  parseTags,
  parseTime,
  sourceFor,
  type MemoryRow,
} from './model';
import { history, requireRow } from './read';
import { checkValidity, fingerprintMemory, type AuditedState } from './remember';

export function stateOf(row: MemoryRow): AuditedState {
  return {
    title: row.title,
    content: row.content,
    kind: row.kind,
    tags: parseTags(row),
    pinned: row.pinned === 1,
    visibility: row.visibility,
    trust: row.trust,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    occurred_at: row.occurred_at,
    session: row.session,
    speaker: row.speaker,
  };
}

export function saveVersion(store: OpenStore, row: MemoryRow, actor: string, now: number): void {
  stmt(
    store.db,
    `INSERT INTO memory_version (rid, version, title, content, kind, tags, changed_at, actor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.rid, row.version, row.title, row.content, row.kind, row.tags, now, actor);
}

function setTags(store: OpenStore, rid: number, tags: string[]): void {
  stmt(store.db, 'DELETE FROM memory_tag WHERE rid = ?').run(rid);
  const add = stmt(store.db, 'INSERT OR IGNORE INTO memory_tag (rid, tag) VALUES (?, ?)');
  for (const tag of tags) add.run(rid, tag);
}

type UpdateInput = Omit<UpdateArgs, 'store'>;

/**
 * The trust of a memory whose text changes (an update, a merge, a refined procedure):
 * new credential-looking text quarantines it, its rules added to the reasons already
 * there; otherwise the trust stays — leaving quarantine takes a person's promote.
 */
export function trustAfterNewText(
  row: Pick<MemoryRow, 'trust' | 'quarantine_reasons'>,
  rules: readonly string[],
): Pick<MemoryRow, 'trust'> & { quarantine_reasons: string[] } {
  const reasons = JSON.parse(row.quarantine_reasons) as string[];
  if (rules.length === 0) return { trust: row.trust, quarantine_reasons: reasons };
  return { trust: 'quarantined', quarantine_reasons: [...new Set([...reasons, ...rules])].sort() };
}

/** Applies a change given as the next full state; versions, re-indexes and audits it. */
export function applyChange(
  store: OpenStore,
  actor: Actor,
  row: MemoryRow,
  next: AuditedState & { quarantine_reasons: string[]; owner: string | null },
  now: number,
  action: 'memory.update' | 'memory.promote' | 'memory.redact',
  /** More for the audit entry (redact: the rules and fingerprints of what it replaced). */
  extra: Record<string, unknown> = {},
): MutationResult {
  const before = stateOf(row);
  const changed = (Object.keys(before) as (keyof AuditedState)[]).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(next[k]),
  );
  if (changed.length === 0) return { id: row.id, version: row.version, change: 'unchanged' };
  const who = actorName(actor);
  const version = row.version + 1;
  store.db.transaction(() => {
    saveVersion(store, row, who, now);
    stmt(
      store.db,
      `UPDATE memory SET title = @title, content = @content, kind = @kind, pinned = @pinned,
          visibility = @visibility, owner = @owner, trust = @trust,
          quarantine_reasons = @quarantine_reasons, valid_from = @valid_from, valid_to = @valid_to,
          occurred_at = @occurred_at, session = @session, speaker = @speaker,
          content_hash = @content_hash, version = @version, updated_at = @now
        WHERE rid = @rid`,
    ).run({
      rid: row.rid,
      title: next.title,
      content: next.content,
      kind: next.kind,
      pinned: next.pinned ? 1 : 0,
      visibility: next.visibility,
      owner: next.owner,
      trust: next.trust,
      quarantine_reasons: JSON.stringify(next.quarantine_reasons),
      valid_from: next.valid_from,
      valid_to: next.valid_to,
      occurred_at: next.occurred_at,
      session: next.session,
      speaker: next.speaker,
      content_hash:
        next.content === row.content ? row.content_hash : gateContent(next.content).hash,
      version,
      now,
    });
    if (changed.includes('tags')) setTags(store, row.rid, next.tags);
    if (changed.includes('speaker')) speakersChanged(store.db);
    if (changed.some((k) => k === 'title' || k === 'content' || k === 'tags')) {
      ftsReplace(store.db, row.rid, { title: next.title, content: next.content, tags: next.tags });
    }
    // The embedded text is the title and the content: a stale vector goes, and the
    // backfill embeds the new text.
    if (changed.some((k) => k === 'title' || k === 'content')) {
      stmt(store.db, 'DELETE FROM memory_embedding WHERE rid = ?').run(row.rid);
    }
    store.audit.append(
      {
        actor: who,
        action,
        target: row.id,
        data: {
          fields: changed,
          old: fingerprintMemory(store.audit, before),
          new: fingerprintMemory(store.audit, next),
          version,
          ...extra,
        },
      },
      now,
    );
  })();
  const change =
    action === 'memory.promote' ? 'promoted' : action === 'memory.redact' ? 'redacted' : 'updated';
  return { id: row.id, version, change };
}

/**
 * A memory's text replaced (an update, a merged pair, a refined procedure): the next
 * state with `changes` over the current one, the trust after the new text (one
 * quarantine rule for all three), versioned, re-indexed and audited as `memory.update`.
 */
export function applyNewText(
  store: OpenStore,
  actor: Actor,
  row: MemoryRow,
  text: { title: string; content: string; secretRules: readonly string[] },
  now: number,
  changes: Partial<AuditedState> & { owner?: string | null } = {},
): MutationResult {
  return applyChange(
    store,
    actor,
    row,
    {
      ...stateOf(row),
      owner: row.owner,
      ...changes,
      title: text.title,
      content: text.content,
      ...trustAfterNewText(row, text.secretRules),
    },
    now,
    'memory.update',
  );
}

export async function updateMemory(
  store: OpenStore,
  actor: Actor,
  args: UpdateInput,
  now: () => number,
): Promise<MutationResult> {
  // Validate and scan before reading the row the change applies to, so the read and
  // the write happen with no await in between (one writer, no interleaving).
  const content = args.content !== undefined ? gateContent(args.content).content : undefined;
  const title = args.title !== undefined ? normalizeLine(args.title) : undefined;
  if (title !== undefined && title.length === 0) {
    throw new LociError('invalid-args', 'the title cannot be empty', { field: 'title' });
  }
  const tags = args.tags !== undefined ? normalizeTags(args.tags) : undefined;
  const line = (v: string | null | undefined) =>
    v === undefined || v === null ? v : normalizeLine(v) || null;
  const session = line(args.session);
  const speaker = line(args.speaker);
  const scan = await scanSecrets(
    [content ?? '', title ?? '', (tags ?? []).join('\n'), session ?? '', speaker ?? ''].join('\n'),
  );

  const row = requireRow(store, actor, args.id);
  if (args.expected_version !== undefined && args.expected_version !== row.version) {
    throw new LociError(
      'conflict',
      `Memory ${args.id} is at version ${row.version}, not ${args.expected_version}: it changed since you read it.`,
      { id: args.id, version: row.version },
    );
  }
  if (args.visibility !== undefined && args.visibility !== row.visibility && !isPerson(actor)) {
    if (row.source !== sourceFor(actor)) {
      throw new LociError(
        'forbidden',
        'An agent may change the visibility only of memories it wrote.',
        {
          id: args.id,
        },
      );
    }
  }
  const current = stateOf(row);
  const visibility = args.visibility ?? row.visibility;
  const pick = (given: string | null | undefined, stored: number | null) =>
    given === undefined ? stored : given === null ? null : parseTime(given);
  const validity = checkValidity(
    pick(args.valid_from, row.valid_from),
    pick(args.valid_to, row.valid_to),
  );
  const result = applyNewText(
    store,
    actor,
    row,
    {
      // A title Loci derived follows the content; a title someone wrote stays.
      title:
        title ??
        (content !== undefined && row.title === deriveTitle(row.content)
          ? deriveTitle(content)
          : row.title),
      content: content ?? row.content,
      secretRules: scan.rules,
    },
    now(),
    {
      kind: args.kind ?? row.kind,
      tags: tags ?? current.tags,
      pinned: args.pinned ?? current.pinned,
      visibility,
      owner:
        visibility === 'private'
          ? row.visibility === 'private'
            ? row.owner
            : ownerFor(actor)
          : null,
      valid_from: validity.validFrom,
      valid_to: validity.validTo,
      occurred_at: pick(args.occurred_at, row.occurred_at),
      session: session === undefined ? row.session : session,
      speaker: speaker === undefined ? row.speaker : speaker,
    },
  );
  // Say so when this change quarantined the memory: the agent will not be able to read it.
  return scan.rules.length > 0 && row.trust !== 'quarantined' && result.change === 'updated'
    ? { ...result, quarantined: true }
    : result;
}

/** Brings back an earlier version's text, title, kind and tags as a new version. */
export async function revertMemory(
  store: OpenStore,
  actor: Actor,
  args: { id: string; version: number; expected_version?: number | undefined },
  now: () => number,
): Promise<MutationResult> {
  const h = history(store, actor, args.id);
  if (args.version === h.current_version) {
    throw new LociError('conflict', `Version ${args.version} of ${args.id} is the current one.`);
  }
  const v = h.versions.find((x) => x.version === args.version);
  if (!v) {
    throw new LociError(
      'not-found',
      `${args.id} has no version ${args.version} (it has ${h.versions.map((x) => x.version).join(', ') || 'no earlier versions'}, and ${h.current_version} is current).`,
    );
  }
  return updateMemory(
    store,
    actor,
    {
      id: args.id,
      content: v.content,
      title: v.title,
      kind: v.kind,
      tags: v.tags,
      ...(args.expected_version ? { expected_version: args.expected_version } : {}),
    },
    now,
  );
}

export function tagMemory(
  store: OpenStore,
  actor: Actor,
  args: { id: string; add?: string[]; remove?: string[] },
  now: number,
): MutationResult {
  const row = requireRow(store, actor, args.id);
  const current = stateOf(row);
  const remove = new Set(normalizeTags(args.remove));
  const tags = normalizeTags([
    ...current.tags.filter((t) => !remove.has(t)),
    ...normalizeTags(args.add),
  ]);
  if (tags.length > 32)
    throw new LociError('invalid-args', 'a memory has at most 32 tags', { field: 'tags' });
  const r = applyChange(
    store,
    actor,
    row,
    {
      ...current,
      tags,
      quarantine_reasons: JSON.parse(row.quarantine_reasons) as string[],
      owner: row.owner,
    },
    now,
    'memory.update',
  );
  return r.change === 'updated' ? { ...r, change: 'tagged' } : r;
}

export function promoteMemory(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: number,
): MutationResult {
  if (!isPerson(actor)) {
    throw new LociError(
      'forbidden',
      'Only a person (the observatory or the CLI) can promote a quarantined memory.',
    );
  }
  const row = requireRow(store, actor, id);
  if (row.trust !== 'quarantined') {
    throw new LociError('conflict', `Memory ${id} is not quarantined.`, { id });
  }
  return applyChange(
    store,
    actor,
    row,
    { ...stateOf(row), trust: 'trusted', quarantine_reasons: [], owner: row.owner },
    now,
    'memory.promote',
  );
}

export function forgetMemory(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: number,
): MutationResult {
  const row = requireRow(store, actor, id);
  store.db.transaction(() => {
    stmt(store.db, 'UPDATE memory SET deleted_at = ?, updated_at = ? WHERE rid = ?').run(
      now,
      now,
      row.rid,
    );
    ftsRemove(store.db, row.rid);
    stmt(store.db, 'DELETE FROM memory_embedding WHERE rid = ?').run(row.rid);
    store.audit.append(
      {
        actor: actorName(actor),
        action: 'memory.forget',
        target: id,
        data: { state: fingerprintMemory(store.audit, stateOf(row)) },
      },
      now,
    );
  })();
  return { id, version: row.version, change: 'forgotten' };
}

export function restoreMemory(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: number,
): MutationResult {
  const row = requireRow(store, actor, id, { deleted: 'only' });
  store.db.transaction(() => {
    stmt(store.db, 'UPDATE memory SET deleted_at = NULL, updated_at = ? WHERE rid = ?').run(
      now,
      row.rid,
    );
    ftsInsert(store.db, row.rid, { title: row.title, content: row.content, tags: parseTags(row) });
    store.audit.append(
      {
        actor: actorName(actor),
        action: 'memory.restore',
        target: id,
        data: { state: fingerprintMemory(store.audit, stateOf(row)) },
      },
      now,
    );
  })();
  return { id, version: row.version, change: 'restored' };
}

export function eraseMemory(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: number,
): MutationResult {
  const row = requireRow(store, actor, id, { deleted: 'include' });
  store.db.transaction(() => {
    if (row.deleted_at === null) ftsRemove(store.db, row.rid);
    stmt(store.db, 'DELETE FROM memory_embedding WHERE rid = ?').run(row.rid);
    // Tags, versions, links, accesses, state and outcomes go with it (ON DELETE CASCADE).
    stmt(store.db, 'DELETE FROM memory WHERE rid = ?').run(row.rid);
    store.audit.append(
      {
        actor: actorName(actor),
        action: 'memory.erase',
        target: id,
        data: {
          tombstone: true,
          state: fingerprintMemory(store.audit, stateOf(row)),
          version: row.version,
        },
      },
      now,
    );
  })();
  return { id, version: row.version, change: 'erased' };
}
