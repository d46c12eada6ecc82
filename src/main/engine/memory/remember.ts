// The write path for new memories (DESIGN.md §5): gate → secrets → appraisal →
// index → audit. Everything that can be computed before touching the database is done
// first (including the asynchronous secret scan); the writes for a whole batch then go
// in one transaction, so a batch is all or nothing. In a large batch the scan worker
// drafts the last share after its scan, while this thread writes the first: the drafts
// come in chunks, and the transaction waits for each only when it reaches it.
import type { Actor, RememberResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { Evidence, MemoryKind, RememberArgs, Visibility } from '../../../shared/schemas';
import { appraiseSalience } from '../cognition/appraisal';
import { newFsrsState, rehearse } from '../cognition/fsrs';
import type { AuditChain, CanonicalAuditEntry } from '../audit/chain';
import { speakersChanged } from '../recall/conversation';
import type { RecognizerKeys } from '../recall/recognizer';
import { ftsInsertColumns, type FtsColumns } from '../store/ftsIndex';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { gateContent, normalizeLine, normalizeTags } from '../write/gate';
import { scanAndDraft, scannerRunning } from '../write/scanHost';
import { draftFtsColumns, draftText, type TextDraft, type TextDraftInput } from './draftText';
import { actorName, ownerFor, parseTime, sourceFor, visibilityFilter } from './model';
import { insertState } from './state';

export type RememberItem = Omit<RememberArgs, 'store'>;

export interface PreparedMemory {
  content: string;
  hash: string;
  title: string;
  kind: MemoryKind;
  tags: string[];
  visibility: Visibility;
  evidence: Evidence[];
  pinned: boolean;
  validFrom: number | null;
  validTo: number | null;
  occurredAt: number | null;
  session: string | null;
  speaker: string | null;
  salience: number;
  valence: number;
  arousal: number;
  secretRules: string[];
  /** Its full-text index columns, worked out before the transaction (ftsColumns). */
  fts: FtsColumns;
  /** What the recogniser reads of it, worked out while the scan ran (Recognizer.keysOf). */
  recognizerKeys?: RecognizerKeys;
  /** Where it comes from when not the caller itself (`file:<name>` for ingested files). */
  source?: string;
}

export function checkValidity(validFrom: number | null, validTo: number | null) {
  if (validFrom !== null && validTo !== null && validFrom > validTo) {
    throw new LociError('invalid-args', 'valid_from must not be later than valid_to', {
      field: 'valid_from',
    });
  }
  return { validFrom, validTo };
}

/**
 * A batch at least this large shares its drafting with the scan worker, which drafts a
 * share of it (from the end) once it has scanned the batch, while this thread drafts the
 * rest. Prepared on its own (prepareMemories), the share is WORKER_SHARE: the two finish
 * about together (a scan costs about half a draft). Prepared for a write that goes on at
 * once (prepareBatch), the worker drafts HANDOFF_SHARE while this thread drafts its part
 * and then writes it: the worker's drafts come in chunks and are needed only when the
 * write reaches them, and this thread has the transaction to run besides, so the worker
 * takes the larger share (measured: 0.65 against 0.5, about 5% faster batches of 1,000).
 */
const SHARED_DRAFT_MIN = 64;
export const WORKER_SHARE = 0.25;
export const HANDOFF_SHARE = 0.65;

/**
 * Prepared memories in the order given; `at(i)` past those this thread drafted waits for
 * the worker's drafts (or drafts them here when they do not come), so a write reaches
 * them as late as it can. An array of prepared memories is one too.
 */
export interface PreparedBatch {
  readonly length: number;
  at(index: number): PreparedMemory | undefined;
}

/** A batch prepared for a write: `close()` lets go of drafts the write never needed. */
export interface PendingBatch extends PreparedBatch {
  close(): void;
}

/**
 * Everything about new memories that does not need the database. The credential scan
 * runs in its worker while this thread drafts the batch (title, kind, appraisal, the
 * full-text columns, the recogniser's keys): what the scan reads is sent first, with
 * the share of a large batch the worker drafts after its scan.
 */
export async function prepareMemories(items: readonly RememberItem[]): Promise<PreparedMemory[]> {
  const batch = await prepareBatch(items, { handoff: false });
  return Array.from({ length: batch.length }, (_, i) => batch.at(i) as PreparedMemory);
}

/**
 * prepareMemories for a write that starts as soon as the scans are in: with `handoff`
 * (the default) the worker's share of the drafts comes while the write runs.
 */
export async function prepareBatch(
  items: readonly RememberItem[],
  { handoff = true }: { handoff?: boolean } = {},
): Promise<PendingBatch> {
  const numbered = <T>(index: number, step: () => T): T => {
    try {
      return step();
    } catch (err) {
      if (err instanceof LociError && items.length > 1) {
        throw new LociError(err.code, `item ${index}: ${err.message}`, { ...err.data, index });
      }
      throw err;
    }
  };
  const gated = items.map((item, index) => numbered(index, () => gate(item)));
  const inputs = gated.map(textInput);
  const share = handoff ? HANDOFF_SHARE : WORKER_SHARE;
  const shared =
    items.length >= SHARED_DRAFT_MIN && scannerRunning() ? Math.floor(items.length * share) : 0;
  const mine = items.length - shared;
  const scanning = scanAndDraft(
    gated.map((g) => g.scanned),
    inputs.slice(mine),
    { handoff: handoff && shared > 0 },
  );
  const draftHere = (i: number) => numbered(i, () => draftText(inputs[i] as TextDraftInput));
  const texts: TextDraft[] = [];
  for (let i = 0; i < mine; i++) texts.push(draftHere(i));
  const { scans, drafts, handoff: coming } = await scanning;
  // Requests that arrived while the scan ran (another client's /health, a recall) are
  // read before this write goes on: several large writes finishing their scans together
  // must not run back to back in front of them.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const out: PreparedMemory[] = [];
  const ready = (i: number) =>
    out.push({
      ...prepared(gated[i] as Gated, texts[i] as TextDraft),
      secretRules: scans[i]?.rules ?? [],
    });
  for (let i = 0; i < mine; i++) ready(i);
  return {
    length: items.length,
    at(index) {
      // The worker's drafts as they come, or this thread's when they could not be made.
      while (out.length <= index && out.length < items.length) {
        const i = out.length;
        texts.push(drafts?.[i - mine] ?? coming?.take(i - mine) ?? draftHere(i));
        ready(i);
      }
      return out[index];
    },
    close: () => coming?.close(),
  };
}

/** The first step of a draft: the item's text as it will be kept, and what is scanned. */
function gate(item: RememberItem) {
  const { content, hash } = gateContent(item.content);
  const givenTitle = item.title !== undefined ? normalizeLine(item.title) : '';
  const tags = normalizeTags(item.tags);
  const evidence = item.evidence ?? [];
  const { validFrom, validTo } = checkValidity(
    item.valid_from ? parseTime(item.valid_from) : null,
    item.valid_to ? parseTime(item.valid_to) : null,
  );
  const session = item.session !== undefined ? normalizeLine(item.session) : '';
  const speaker = item.speaker !== undefined ? normalizeLine(item.speaker) : '';
  return {
    item,
    content,
    hash,
    givenTitle,
    tags,
    evidence,
    validFrom,
    validTo,
    occurredAt: item.occurred_at ? parseTime(item.occurred_at) : null,
    session,
    speaker,
    // Everything a person or agent wrote is scanned, not only the content.
    scanned: [
      content,
      givenTitle,
      tags.join('\n'),
      session,
      speaker,
      ...evidence.map((e) => e.quote),
    ].join('\n'),
  };
}

type Gated = ReturnType<typeof gate>;

/** What the text-only part of the draft reads (draftText.ts). */
function textInput(g: Gated): TextDraftInput {
  return {
    title: g.givenTitle,
    content: g.content,
    tags: g.tags,
    ...(g.item.kind ? { kind: g.item.kind } : {}),
  };
}

function prepared(g: Gated, text: TextDraft): Omit<PreparedMemory, 'secretRules'> {
  const { item, content } = g;
  return {
    content,
    hash: g.hash,
    title: text.title,
    kind: text.kind,
    tags: g.tags,
    visibility: item.visibility ?? 'shared',
    evidence: g.evidence,
    pinned: item.pinned ?? false,
    validFrom: g.validFrom,
    validTo: g.validTo,
    occurredAt: g.occurredAt,
    session: g.session.length > 0 ? g.session : null,
    speaker: g.speaker.length > 0 ? g.speaker : null,
    salience: appraiseSalience(
      content,
      { valence: text.valence, arousal: text.arousal },
      g.evidence,
    ),
    valence: text.valence,
    arousal: text.arousal,
    fts: draftFtsColumns(text, content),
    recognizerKeys: text.recognizerKeys,
  };
}

/** What a person would call "the memory": the audit keeps a keyed hash of exactly this. */
export interface AuditedState {
  title: string;
  content: string;
  kind: string;
  tags: string[];
  pinned: boolean;
  visibility: string;
  trust: string;
  valid_from: number | null;
  valid_to: number | null;
  occurred_at: number | null;
  session: string | null;
  speaker: string | null;
}

export function fingerprintMemory(audit: AuditChain, state: AuditedState): string {
  return audit.fingerprint(auditedStateJson(state));
}

/** AuditedState's keys in canonical order (RFC 8785 sorts them by UTF-16 code units). */
const AUDITED_KEYS = [
  'content',
  'kind',
  'occurred_at',
  'pinned',
  'session',
  'speaker',
  'tags',
  'title',
  'trust',
  'valid_from',
  'valid_to',
  'visibility',
] as const satisfies readonly (keyof AuditedState)[];

/** Written only when set, so a memory without them fingerprints as it did before they existed. */
const WHEN_SET = new Set<string>(['occurred_at', 'session', 'speaker']);

/**
 * The canonical JSON (RFC 8785) of a memory's audited state, written out directly: the
 * keys in their canonical order, each value as RFC 8785 writes it (JSON.stringify's form
 * for strings, numbers, booleans and arrays of strings). The same bytes as
 * audit/chain.ts's canonicalJson (auditedState.test.ts holds them equal), without sorting and
 * walking an object for each of the thousand memories a batch may write.
 */
export function auditedStateJson(state: AuditedState): string {
  let out = '';
  for (const key of AUDITED_KEYS) {
    const value: unknown = state[key];
    if (value === undefined || (value === null && WHEN_SET.has(key))) continue;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new Error(`${key} is ${value}, which cannot be canonicalised`);
    }
    out += `${out ? ',' : '{'}"${key}":${JSON.stringify(value)}`;
  }
  return out ? `${out}}` : '{}';
}

/** What the audit records of a new memory (its `memory.create` entry's data). */
export interface CreatedAuditData {
  /** The fingerprint of its audited state. */
  new: string;
  kind: string;
  source: string;
  trust: string;
  /** The credential rules that quarantined it, when any did. */
  quarantine_rules?: string[];
}

/**
 * The canonical JSON of a `memory.create` entry's data, written out directly (the keys
 * in canonical order): the same bytes as canonicalJson (auditedState.test.ts).
 */
export function createdAuditJson(d: CreatedAuditData): string {
  const j = JSON.stringify;
  const rules = d.quarantine_rules ? `"quarantine_rules":${j(d.quarantine_rules)},` : '';
  return `{"kind":${j(d.kind)},"new":${j(d.new)},${rules}"source":${j(d.source)},"trust":${j(d.trust)}}`;
}

export interface InsertOptions {
  /** Generates ids; injected so tests and imports can control them. */
  newId: () => string;
  now: number;
}

/** A memory a batch created, as the in-memory indexes need it (no need to read it back). */
export interface CreatedMemory {
  id: string;
  rid: number;
  title: string;
  content: string;
  recognizerKeys?: RecognizerKeys;
}

/**
 * Writes prepared memories in one transaction. Exact duplicates return the existing id
 * instead: the same normalised content, visible to the caller, not deleted — and, for a
 * turn of a conversation, the same session and time ("Yes!" said twice is two turns).
 */
export function insertMemories(
  store: OpenStore,
  items: PreparedBatch,
  actor: Actor,
  { newId, now }: InsertOptions,
): { results: RememberResult[]; created: CreatedMemory[] } {
  const { db, audit } = store;
  const vis = visibilityFilter(actor, { ownershipOnly: true });
  const findDuplicate = stmt(
    db,
    `SELECT m.id, m.trust FROM memory m
      WHERE m.content_hash = ? AND m.session IS ? AND m.occurred_at IS ?
        AND m.deleted_at IS NULL AND ${vis.sql}
      ORDER BY m.rid LIMIT 1`,
  );
  const insert = stmt(
    db,
    `INSERT INTO memory (id, title, content, kind, source, evidence, trust, quarantine_reasons,
        visibility, owner, salience, valence, arousal, valid_from, valid_to, created_at, updated_at,
        version, pinned, content_hash, occurred_at, session, speaker)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const insertTag = stmt(db, 'INSERT OR IGNORE INTO memory_tag (rid, tag) VALUES (?, ?)');
  const who = actorName(actor);
  const source = sourceFor(actor);

  // Every memory of the batch is first reviewed at the same instant: one state for all.
  const firstReview = rehearse(newFsrsState(now), now);
  return db.transaction(() => {
    const results: RememberResult[] = [];
    const created: CreatedMemory[] = [];
    const inBatch = new Map<string, RememberResult>();
    const entries: CanonicalAuditEntry[] = [];
    let speakers = false;
    for (let index = 0; index < items.length; index++) {
      const item = items.at(index) as PreparedMemory;
      if (item.speaker !== null) speakers = true;
      const dupKey = `${item.hash}\u0000${item.session ?? ''}\u0000${item.occurredAt ?? ''}`;
      const earlier = inBatch.get(dupKey);
      if (earlier) {
        results.push({ ...earlier, duplicate: true });
        continue;
      }
      const existing = findDuplicate.get(
        item.hash,
        item.session,
        item.occurredAt,
        ...vis.params,
      ) as { id: string; trust: string } | undefined;
      if (existing) {
        const r = {
          id: existing.id,
          duplicate: true,
          quarantined: existing.trust === 'quarantined',
        };
        results.push(r);
        inBatch.set(dupKey, r);
        continue;
      }
      const id = newId();
      const quarantined = item.secretRules.length > 0;
      const trust = quarantined ? 'quarantined' : 'trusted';
      const owner = item.visibility === 'private' ? ownerFor(actor) : null;
      // Bound by position, in the order of the columns above (binding names costs more).
      const info = insert.run(
        id,
        item.title,
        item.content,
        item.kind,
        item.source ?? source,
        JSON.stringify(item.evidence),
        trust,
        JSON.stringify(item.secretRules),
        item.visibility,
        owner,
        item.salience,
        item.valence,
        item.arousal,
        item.validFrom,
        item.validTo,
        now,
        now,
        item.pinned ? 1 : 0,
        item.hash,
        item.occurredAt,
        item.session,
        item.speaker,
      );
      const rid = Number(info.lastInsertRowid);
      for (const tag of item.tags) insertTag.run(rid, tag);
      ftsInsertColumns(db, rid, item.fts);
      // Writing a memory is its first encoding: one access and one FSRS review.
      insertState(db, rid, firstReview, now);
      // Recorded once the batch is written, in the order written (one read of the head).
      entries.push({
        actor: who,
        action: 'memory.create',
        target: id,
        dataJson: createdAuditJson({
          new: fingerprintMemory(audit, {
            title: item.title,
            content: item.content,
            kind: item.kind,
            tags: item.tags,
            pinned: item.pinned,
            visibility: item.visibility,
            trust,
            valid_from: item.validFrom,
            valid_to: item.validTo,
            occurred_at: item.occurredAt,
            session: item.session,
            speaker: item.speaker,
          }),
          kind: item.kind,
          source: item.source ?? source,
          trust,
          ...(quarantined ? { quarantine_rules: item.secretRules } : {}),
        }),
      });
      const r = { id, duplicate: false, quarantined };
      results.push(r);
      created.push({
        id,
        rid,
        title: item.title,
        content: item.content,
        ...(item.recognizerKeys ? { recognizerKeys: item.recognizerKeys } : {}),
      });
      inBatch.set(dupKey, r);
    }
    audit.appendCanonical(entries, now);
    if (speakers) speakersChanged(db);
    return { results, created };
  })();
}
