// The review inbox: what dreams (and the language model) want to write waits here as a
// proposal with its evidence until a person accepts (as proposed, or edited), or
// rejects it. Accepting writes through the ordinary memory paths (versions, audit) as
// the person who accepted; a bulk decision is one transaction: all or nothing.
import type {
  Actor,
  ReviewDecideResult,
  ReviewEvidence,
  ReviewItemView,
  ReviewKind,
  ReviewListResult,
  ReviewState,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { ParsedArgs } from '../../../shared/api';
import type { LinkType } from '../../../shared/schemas';
import { createLink } from '../memory/links';
import { actorName, iso, isoOrNull } from '../memory/model';
import { applyNewText, forgetMemory } from '../memory/mutate';
import { requireRow } from '../memory/read';
import {
  insertMemories,
  prepareMemories,
  type CreatedMemory,
  type RememberItem,
} from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { gateContent, normalizeLine } from '../write/gate';
import { scanSecrets } from '../write/scanHost';
import type { ProposalDraft } from './types';

interface ReviewRow {
  id: string;
  kind: ReviewKind;
  proposal: string;
  evidence: string;
  diff: string | null;
  state: ReviewState;
  source: string;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  cycle: string | null;
  title: string;
  fingerprint: string | null;
  result_ids: string;
  reason: string | null;
}

function toView(r: ReviewRow): ReviewItemView {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    title: r.title,
    proposal: JSON.parse(r.proposal) as Record<string, unknown>,
    evidence: JSON.parse(r.evidence) as ReviewEvidence[],
    diff: r.diff,
    source: r.source,
    cycle: r.cycle,
    created_at: iso(r.created_at),
    decided_at: isoOrNull(r.decided_at),
    decided_by: r.decided_by,
    result_ids: JSON.parse(r.result_ids) as string[],
    reason: r.reason,
  };
}

/**
 * Puts proposals in the inbox (call inside the phase's transaction). A proposal whose
 * fingerprint is known — pending, accepted or rejected — is not made again.
 */
export function insertProposals(
  store: OpenStore,
  drafts: ProposalDraft[],
  cycle: string,
  now: number,
  newId: () => string,
  /** Who proposes: `dream`, or whoever imported the session a distilled memory comes from. */
  actor = 'dream',
): { id: string; kind: ReviewKind }[] {
  const known = stmt(store.db, 'SELECT 1 FROM review_item WHERE fingerprint = ? LIMIT 1');
  const insert = stmt(
    store.db,
    `INSERT INTO review_item (id, kind, proposal, evidence, diff, state, source, created_at, cycle, title, fingerprint)
     VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
  );
  const out: { id: string; kind: ReviewKind }[] = [];
  for (const d of drafts) {
    if (known.get(d.fingerprint)) continue;
    const id = newId();
    insert.run(
      id,
      d.kind,
      JSON.stringify(d.proposal),
      JSON.stringify(d.evidence),
      d.diff,
      d.source,
      now,
      cycle,
      d.title,
      d.fingerprint,
    );
    store.audit.append(
      {
        actor,
        action: 'review.propose',
        target: id,
        data: {
          kind: d.kind,
          cycle,
          source: d.source,
          proposal: store.audit.fingerprint(d.proposal),
        },
      },
      now,
    );
    out.push({ id, kind: d.kind });
  }
  return out;
}

export function countReviews(store: OpenStore): Record<ReviewState, number> {
  const counts: Record<ReviewState, number> = { pending: 0, accepted: 0, rejected: 0 };
  for (const r of stmt(
    store.db,
    'SELECT state, COUNT(*) AS n FROM review_item GROUP BY state',
  ).all() as {
    state: ReviewState;
    n: number;
  }[])
    counts[r.state] = r.n;
  return counts;
}

export function listReviews(store: OpenStore, args: ParsedArgs<'review.list'>): ReviewListResult {
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.state !== 'all') {
    where.push('state = ?');
    params.push(args.state);
  }
  if (args.kind) {
    where.push('kind = ?');
    params.push(args.kind);
  }
  const rows = stmt(
    store.db,
    `SELECT * FROM review_item ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at DESC, id DESC LIMIT ?`,
  ).all(...params, args.limit) as ReviewRow[];
  return { store: store.name, items: rows.map(toView), counts: countReviews(store) };
}

function loadPending(store: OpenStore, ids: string[]): ReviewRow[] {
  const get = stmt(store.db, 'SELECT * FROM review_item WHERE id = ?');
  const unique = [...new Set(ids)];
  return unique.map((id) => {
    const row = get.get(id) as ReviewRow | undefined;
    if (!row)
      throw new LociError('not-found', `No review item ${id} in store "${store.name}".`, { id });
    if (row.state !== 'pending') {
      throw new LociError(
        'conflict',
        `Review item ${id} was already ${row.state}${row.decided_by ? ` by ${row.decided_by}` : ''}; nothing was changed.`,
        { id, state: row.state },
      );
    }
    return row;
  });
}

/**
 * The merged-away memory's links to live memories move to the kept one (the stronger
 * weight wins where both had the same link), so nothing recall could reach is lost.
 */
function moveLinks(
  store: OpenStore,
  actor: Actor,
  keep: { rid: number; id: string },
  drop: { rid: number },
  now: number,
): { from: string; to: string }[] {
  const links = stmt(
    store.db,
    `SELECT l.src, l.dst, l.type, l.weight, o.id AS other FROM link l
       JOIN memory o ON o.rid = CASE WHEN l.src = ? THEN l.dst ELSE l.src END
      WHERE (l.src = ? OR l.dst = ?) AND o.deleted_at IS NULL AND o.rid <> ?
      ORDER BY l.src, l.dst, l.type`,
  ).all(drop.rid, drop.rid, drop.rid, keep.rid) as {
    src: number;
    dst: number;
    type: LinkType;
    weight: number;
    other: string;
  }[];
  const existing = stmt(store.db, 'SELECT weight FROM link WHERE src = ? AND dst = ? AND type = ?');
  const moved: { from: string; to: string }[] = [];
  for (const l of links) {
    const outgoing = l.src === drop.rid;
    const otherRid = outgoing ? l.dst : l.src;
    const had = existing.get(
      outgoing ? keep.rid : otherRid,
      outgoing ? otherRid : keep.rid,
      l.type,
    ) as { weight: number } | undefined;
    if (had && had.weight >= l.weight) continue;
    const from = outgoing ? keep.id : l.other;
    const to = outgoing ? l.other : keep.id;
    createLink(store, actor, { from, to, type: l.type, weight: l.weight }, now);
    moved.push({ from, to });
  }
  return moved;
}

export interface AcceptOutcome {
  result: ReviewDecideResult;
  created: CreatedMemory[];
  updated: string[];
  forgotten: string[];
  links: { from: string; to: string }[];
}

type Edit = ParsedArgs<'review.accept'>['edit'];

/** Accepts pending items (one may be edited first), all in one transaction. */
export async function acceptReviews(
  store: OpenStore,
  ids: string[],
  edit: Edit,
  actor: Actor,
  now: number,
  newId: () => string,
): Promise<AcceptOutcome> {
  const rows = loadPending(store, ids);
  if (edit && rows[0]?.kind === 'link') {
    throw new LociError(
      'invalid-args',
      'A link proposal has no text to edit; accept or reject it as it is.',
    );
  }
  // The slow, asynchronous checks first (gate, secret scan), then one synchronous
  // transaction: nothing else can write in between.
  const texts = new Map<string, { title: string; content: string; secretRules: string[] }>();
  const schemas = new Map<string, Awaited<ReturnType<typeof prepareMemories>>[number]>();
  for (const row of rows) {
    if (row.kind === 'link') continue;
    const p = JSON.parse(row.proposal) as { title: string; content: string };
    const title = normalizeLine(edit?.title ?? p.title);
    const content = gateContent(edit?.content ?? p.content).content;
    if (row.kind === 'schema') {
      const [prepared] = await prepareMemories([
        { title, content, kind: 'schematic', tags: ['dream:schema'] },
      ]);
      schemas.set(row.id, { ...(prepared as NonNullable<typeof prepared>), source: 'dream' });
    } else if (row.kind === 'distill') {
      // A memory distilled from an agent's session: its quotes travel as its evidence.
      const d = p as unknown as Pick<RememberItem, 'kind' | 'tags' | 'evidence' | 'session'>;
      const [prepared] = await prepareMemories([
        {
          title,
          content,
          ...(d.kind ? { kind: d.kind } : {}),
          ...(d.tags ? { tags: d.tags } : {}),
          ...(d.evidence ? { evidence: d.evidence } : {}),
          ...(d.session ? { session: d.session } : {}),
        },
      ]);
      schemas.set(row.id, { ...(prepared as NonNullable<typeof prepared>), source: 'distill' });
    } else {
      const scan = await scanSecrets(`${content}\n${title}`);
      texts.set(row.id, { title, content, secretRules: scan.rules });
    }
  }
  const who = actorName(actor);
  const outcome: AcceptOutcome = {
    result: { store: store.name, results: [] },
    created: [],
    updated: [],
    forgotten: [],
    links: [],
  };
  store.db.transaction(() => {
    for (const row of loadPending(store, ids)) {
      const p = JSON.parse(row.proposal) as Record<string, unknown>;
      const resultIds: string[] = [];
      if (row.kind === 'schema' || row.kind === 'distill') {
        const { results, created } = insertMemories(
          store,
          [schemas.get(row.id) as NonNullable<ReturnType<typeof schemas.get>>],
          actor,
          { newId, now },
        );
        const id = (results[0] as { id: string }).id;
        resultIds.push(id);
        outcome.created.push(...created);
        const live = stmt(store.db, 'SELECT 1 FROM memory WHERE id = ? AND deleted_at IS NULL');
        // A distilled memory that contradicts others: linked for a person to settle.
        for (const other of (p.contradicts as string[] | undefined) ?? []) {
          if (other === id || !live.get(other)) continue;
          createLink(store, actor, { from: id, to: other, type: 'contradicts', weight: 0.5 }, now);
          outcome.links.push({ from: id, to: other });
        }
        for (const member of (p.members as string[]) ?? []) {
          if (member === id || !live.get(member)) continue;
          createLink(
            store,
            actor,
            { from: id, to: member, type: 'derived_from', weight: 0.5 },
            now,
          );
          outcome.links.push({ from: id, to: member });
        }
      } else if (row.kind === 'merge') {
        const t = texts.get(row.id) as { title: string; content: string; secretRules: string[] };
        const keep = requireRow(store, actor, p.keep as string);
        const drop = requireRow(store, actor, p.drop as string);
        if (keep.version !== p.keep_version || drop.version !== p.drop_version) {
          throw new LociError(
            'conflict',
            `Review item ${row.id}: a memory it merges changed since the proposal; reject it (the next dream proposes again if they still overlap).`,
            { id: row.id },
          );
        }
        applyNewText(store, actor, keep, t, now);
        stmt(
          store.db,
          'INSERT OR IGNORE INTO memory_alias (rid, alias, created_at) VALUES (?, ?, ?)',
        ).run(keep.rid, drop.title, now);
        if (drop.title !== t.title && keep.title !== t.title)
          stmt(
            store.db,
            'INSERT OR IGNORE INTO memory_alias (rid, alias, created_at) VALUES (?, ?, ?)',
          ).run(keep.rid, keep.title, now);
        outcome.links.push(...moveLinks(store, actor, keep, drop, now));
        createLink(
          store,
          actor,
          { from: keep.id, to: drop.id, type: 'supersedes', weight: 1 },
          now,
        );
        forgetMemory(store, actor, drop.id, now);
        resultIds.push(keep.id, drop.id);
        outcome.updated.push(keep.id);
        outcome.forgotten.push(drop.id);
      } else if (row.kind === 'refine') {
        const t = texts.get(row.id) as { title: string; content: string; secretRules: string[] };
        const target = requireRow(store, actor, p.id as string);
        if (target.version !== p.base_version) {
          throw new LociError(
            'conflict',
            `Review item ${row.id}: the procedure changed since the proposal (version ${target.version}, proposed for ${String(p.base_version)}); reject it.`,
            { id: row.id },
          );
        }
        applyNewText(store, actor, target, t, now);
        resultIds.push(target.id);
        outcome.updated.push(target.id);
      } else {
        const r = createLink(
          store,
          actor,
          {
            from: p.from as string,
            to: p.to as string,
            type: 'related',
            weight: (p.weight as number) ?? 0.3,
          },
          now,
        );
        resultIds.push(r.from, r.to);
        outcome.links.push({ from: r.from, to: r.to });
      }
      stmt(
        store.db,
        `UPDATE review_item SET state = 'accepted', decided_at = ?, decided_by = ?, result_ids = ? WHERE id = ?`,
      ).run(now, who, JSON.stringify(resultIds), row.id);
      store.audit.append(
        {
          actor: who,
          action: 'review.accept',
          target: row.id,
          data: { kind: row.kind, result_ids: resultIds, edited: edit !== undefined },
        },
        now,
      );
      outcome.result.results.push({ id: row.id, state: 'accepted', result_ids: resultIds });
    }
  })();
  return outcome;
}

export function rejectReviews(
  store: OpenStore,
  ids: string[],
  reason: string | undefined,
  actor: Actor,
  now: number,
): ReviewDecideResult {
  const who = actorName(actor);
  const results: ReviewDecideResult['results'] = [];
  store.db.transaction(() => {
    for (const row of loadPending(store, ids)) {
      stmt(
        store.db,
        `UPDATE review_item SET state = 'rejected', decided_at = ?, decided_by = ?, reason = ? WHERE id = ?`,
      ).run(now, who, reason ?? null, row.id);
      store.audit.append(
        {
          actor: who,
          action: 'review.reject',
          target: row.id,
          data: { kind: row.kind, ...(reason ? { reason: store.audit.fingerprint(reason) } : {}) },
        },
        now,
      );
      results.push({ id: row.id, state: 'rejected', result_ids: [] });
    }
  })();
  return { store: store.name, results };
}
