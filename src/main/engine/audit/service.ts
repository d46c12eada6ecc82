// The audit operations of the contract: list and filter the chain, verify it (with
// progress events and an anchor kept beside the store), export it as JSON Lines, rotate
// its key, and report MCP clients' reads from the read log.
import type {
  AccessResult,
  Actor,
  AuditAnchorResult,
  AuditEntryView,
  AuditExportResult,
  AuditListResult,
  AuditRotateResult,
  AuditVerifyResult,
  ParsedArgs,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { EngineEvents } from '../events';
import { actorName } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { readLastVerify, writeLastVerify } from './anchorFile';
import type { AuditRow } from './chain';
import { accessReport, ReadLog } from './readLog';
import {
  anchorToString,
  chainHead,
  checkAnchorSignature,
  makeAnchor,
  parseAnchor,
  verifyChain,
  type Anchor,
} from './verify';

function toView(row: AuditRow): AuditEntryView {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    data = {};
  }
  return {
    seq: row.seq,
    at: new Date(row.at).toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    data,
    prev_hash: row.prev_hash,
    hash: row.hash,
    key_id: row.key_id,
  };
}

export class AuditService {
  readonly reads: ReadLog;
  /** One verification per store at a time: a second caller shares the first's result. */
  private readonly running = new Map<string, Promise<AuditVerifyResult>>();

  constructor(
    private readonly open: (store: string | undefined) => Promise<OpenStore>,
    private readonly events: EngineEvents,
    private readonly now: () => number,
  ) {
    this.reads = new ReadLog(now);
  }

  /** Records an MCP client's read (people's own reads are not logged). */
  noteRead(store: OpenStore, actor: Actor, method: string, ids: readonly string[]): void {
    if (actor.kind !== 'mcp' || actor.transport === 'simulated') return;
    this.reads.record(store, actorName(actor), method, ids);
  }

  async list(args: ParsedArgs<'audit.list'>): Promise<AuditListResult> {
    const store = await this.open(args.store);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (cond: string, value: unknown) => {
      where.push(cond);
      params.push(value);
    };
    if (args.actor !== undefined) add('actor = ?', args.actor);
    if (args.action !== undefined) add('action = ?', args.action);
    if (args.target !== undefined) add('target = ?', args.target);
    if (args.since !== undefined) add('at >= ?', Date.parse(args.since));
    if (args.until !== undefined) add('at < ?', Date.parse(args.until));
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const page = [...where, ...(args.before_seq !== undefined ? ['seq < ?'] : [])];
    const rows = store.db
      .prepare(
        `SELECT * FROM audit ${page.length ? `WHERE ${page.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`,
      )
      .all(
        ...params,
        ...(args.before_seq !== undefined ? [args.before_seq] : []),
        args.limit + 1,
      ) as AuditRow[];
    const more = rows.length > args.limit;
    const entries = rows.slice(0, args.limit).map(toView);
    const total = (
      store.db.prepare(`SELECT COUNT(*) AS n FROM audit ${filter}`).get(...params) as { n: number }
    ).n;
    const distinct = (col: 'actor' | 'action') =>
      (
        store.db.prepare(`SELECT DISTINCT ${col} AS v FROM audit ORDER BY v`).all() as {
          v: string;
        }[]
      ).map((r) => r.v);
    const head = chainHead(store.db);
    return {
      store: store.name,
      entries,
      total,
      next_before: more ? (entries[entries.length - 1]?.seq ?? null) : null,
      head: { seq: head.seq, hash: head.hash },
      actors: distinct('actor'),
      actions: distinct('action'),
    };
  }

  private resolveAnchor(store: OpenStore, given: ParsedArgs<'audit.verify'>['anchor']): Anchor {
    const anchor = parseAnchor(typeof given === 'string' ? given : JSON.stringify(given));
    checkAnchorSignature(store.keyring, anchor);
    return anchor;
  }

  async verify(args: ParsedArgs<'audit.verify'>): Promise<AuditVerifyResult> {
    const store = await this.open(args.store);
    // A given anchor is checked before any shared run, so a bad one is reported to its caller.
    const given = args.anchor !== undefined ? this.resolveAnchor(store, args.anchor) : null;
    const key = `${store.name}\n${given ? anchorToString(given) : ''}`;
    let run = this.running.get(key);
    if (!run) {
      run = this.runVerify(store, given).finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    return run;
  }

  private async runVerify(store: OpenStore, given: Anchor | null): Promise<AuditVerifyResult> {
    const kept = readLastVerify(store.dir);
    let stored: Anchor | null = null;
    if (!given && kept.anchor) {
      try {
        checkAnchorSignature(store.keyring, kept.anchor);
        stored = kept.anchor;
      } catch {
        // An anchor this key file did not sign (the keys were replaced) checks nothing.
        stored = null;
      }
    }
    const anchor = given ?? stored;
    const outcome = await verifyChain(store.db, store.keyring, {
      anchor,
      onProgress: (checked, total) =>
        this.events.emit('audit.progressed', { store: store.name, checked, total, done: false }),
    });
    const now = this.now();
    const fresh = outcome.ok ? makeAnchor(store.keyring, store.name, outcome.head, now) : null;
    writeLastVerify(store.dir, {
      anchor: fresh ?? kept.anchor,
      last: {
        at: new Date(now).toISOString(),
        ok: outcome.ok,
        checked: outcome.checked,
        first_broken: outcome.first_broken,
      },
    });
    this.events.emit('audit.progressed', {
      store: store.name,
      checked: outcome.checked,
      total: outcome.total,
      done: true,
    });
    return {
      store: store.name,
      ok: outcome.ok,
      checked: outcome.checked,
      total: outcome.total,
      head: outcome.head,
      first_broken: outcome.first_broken,
      anchor_checked: anchor
        ? { source: given ? 'given' : 'stored', seq: anchor.seq, at: anchor.at }
        : null,
      anchor: fresh,
      anchor_text: fresh ? anchorToString(fresh) : null,
      duration_ms: outcome.duration_ms,
    };
  }

  async anchor(args: ParsedArgs<'audit.anchor'>): Promise<AuditAnchorResult> {
    const store = await this.open(args.store);
    const kept = readLastVerify(store.dir);
    const head = chainHead(store.db);
    return {
      store: store.name,
      anchor: kept.anchor,
      anchor_text: kept.anchor ? anchorToString(kept.anchor) : null,
      last_verify: kept.last,
      head: { seq: head.seq, hash: head.hash },
    };
  }

  async export(args: ParsedArgs<'audit.export'>): Promise<AuditExportResult> {
    const store = await this.open(args.store);
    const head = chainHead(store.db);
    const rows = store.db
      .prepare('SELECT * FROM audit WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?')
      .all(args.after_seq, head.seq, args.limit) as AuditRow[];
    // The anchor is of the head when this export began: a reader can check that the
    // entries it holds end where the anchor says (or continue with the next page).
    const anchor = makeAnchor(store.keyring, store.name, head, this.now());
    const lines: string[] = [];
    lines.push(
      JSON.stringify({
        type: 'header',
        format: 'loci-audit/1',
        store: store.name,
        exported_at: new Date(this.now()).toISOString(),
        after_seq: args.after_seq,
        entries: rows.length,
      }),
    );
    // `data` stays the exact canonical JSON the HMAC covers, so a verifier can recompute it.
    for (const r of rows) lines.push(JSON.stringify({ type: 'entry', ...r }));
    lines.push(JSON.stringify({ type: 'anchor', anchor: anchor, text: anchorToString(anchor) }));
    const last = rows[rows.length - 1]?.seq ?? args.after_seq;
    return {
      store: store.name,
      jsonl: `${lines.join('\n')}\n`,
      entries: rows.length,
      next_after: last < head.seq ? last : null,
      anchor,
    };
  }

  async access(args: ParsedArgs<'audit.access'>): Promise<AccessResult> {
    const store = await this.open(args.store);
    this.reads.flush();
    return accessReport(store, args, this.now());
  }

  async rotateKey(args: ParsedArgs<'audit.rotateKey'>, actor: Actor): Promise<AuditRotateResult> {
    const store = await this.open(args.store);
    if (actor.kind === 'mcp') {
      throw new LociError('forbidden', 'Only a person can rotate the audit key.');
    }
    const { from, to } = store.keyring.rotate();
    // The first entry under the new key records the rotation.
    store.db.transaction(() =>
      store.audit.append(
        { actor: actorName(actor), action: 'audit.key_rotated', target: null, data: { from, to } },
        this.now(),
      ),
    )();
    return { store: store.name, from, to };
  }
}
