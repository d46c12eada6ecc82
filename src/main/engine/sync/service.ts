// A store's sync, run by the daemon: capture local changes into the log, push them to
// the hub or folder in batches, pull the other devices' operations and apply them, and
// do it again soon after each local change and every few seconds otherwise. A cycle
// that fails (the hub went away mid-batch, a folder unmounted) is retried with
// exponential backoff; nothing is lost meanwhile, since both the local log and the
// cursor are in the store's database and every push and apply is idempotent.
import type { Actor, SyncProblemView, SyncRunResult, SyncStoreStatus } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { LOCI_VERSION } from '../../../shared/version';
import type { ActivityLog } from '../activity';
import type { EngineEvents } from '../events';
import type { CreatedMemory } from '../memory/remember';
import type { KeyVault } from '../store/keys';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { warn } from '../warnings';
import type { MemoryChange } from '../../../shared/events';
import {
  capture,
  installTriggers,
  noteEverything,
  removeTriggers,
  triggersInstalled,
} from './capture';
import {
  readSyncFile,
  SyncSecrets,
  withoutPassword,
  writeSyncFile,
  type SyncConnection,
} from './config';
import { HlcClock, hlcWall } from './hlc';
import { receive } from './materialize';
import { readState, writeState } from './rows';
import type { SyncDevice, SyncProblem, SyncTransport, WireOp } from './wire';

export interface SyncHost {
  dataDir: string;
  vault: KeyVault;
  now: () => number;
  events: EngineEvents;
  activity: ActivityLog;
  store(name: string): Promise<OpenStore>;
  /** Runs `fn` as a call would (the store's lease held, so a rekey waits for it). */
  inCall<T>(fn: () => Promise<T>): Promise<T>;
  created(store: OpenStore, created: CreatedMemory[], actor: Actor): Promise<void>;
  changed(store: OpenStore, ids: string[], change: MemoryChange, actor: Actor): void;
}

export interface SyncOptions {
  /** Between two cycles when nothing changes here (ms). */
  intervalMs?: number;
  /** After a local change, before the cycle that sends it (ms). */
  debounceMs?: number;
  /** The longest wait after failures (ms). */
  maxBackoffMs?: number;
  pushBatch?: number;
  pullBatch?: number;
  /** Makes the transport (tests put a failing one in). */
  transport?: (conn: SyncConnection, store: string, password: string | null) => SyncTransport;
}

/** Applied operations' actor: a system actor that says it came through sync. */
const SYNC_ACTOR: Actor = { kind: 'system', transport: 'sync' };
const LAG_SAMPLES = 500;
const KEEP_PROBLEMS = 50;
const KEEP_MERGES = 50;

/** What a person should do about a failure, from its code. */
function fixFor(err: unknown): string {
  const code = err instanceof LociError ? err.code : 'internal';
  if (code === 'unavailable') {
    return 'Loci retries on its own with backoff; check that the hub or folder is reachable from this machine.';
  }
  if (code === 'forbidden')
    return 'Check the credentials and the role’s membership (docs/sync.md, Roles).';
  if (code === 'environment') return 'Fix what the message names, then run `loci sync now`.';
  return 'Run `loci sync now` to retry; `loci doctor` checks the store.';
}

interface OpRow {
  h: string;
  d: string;
  e: string;
  r1: string;
  r2: string | null;
  x: number;
  b: string;
}

function toWire(r: OpRow): WireOp {
  return {
    h: r.h,
    d: r.d,
    e: r.e,
    r: r.r2 === null ? [r.r1] : [r.r1, r.r2],
    ...(r.x === 1 ? { x: true as const } : {}),
    b: JSON.parse(r.b) as unknown,
  };
}

class StoreSync {
  transport: SyncTransport | null = null;
  clock: HlcClock | null = null;
  state: SyncStoreStatus['state'] = 'idle';
  lastPush: number | null = null;
  lastPull: number | null = null;
  pushed = 0;
  pulled = 0;
  failures = 0;
  error: SyncStoreStatus['error'] = null;
  nextRetry: number | null = null;
  problems: SyncProblemView[] = [];
  merges: SyncStoreStatus['merges'] = [];
  lags: number[] = [];
  timer: NodeJS.Timeout | null = null;
  /** Stops the transport's watch (LISTEN) when there is one. */
  unwatch: (() => Promise<void>) | null = null;
  /** When the pending timer fires (epoch ms). */
  due = 0;
  running: Promise<SyncRunResult> | null = null;
  again = false;
  stopped = false;

  constructor(
    readonly name: string,
    public conn: SyncConnection,
  ) {}
}

export class SyncService {
  private readonly runs = new Map<string, StoreSync>();
  private readonly secrets: SyncSecrets;
  private started = false;
  /** Set while the events of an apply go out: they are not local changes to send. */
  private announcing = 0;
  private unsubscribe: (() => void)[] = [];
  private readonly o: Required<Omit<SyncOptions, 'transport'>> & Pick<SyncOptions, 'transport'>;

  constructor(
    private readonly host: SyncHost,
    options: SyncOptions = {},
  ) {
    this.secrets = new SyncSecrets(host.dataDir, host.vault);
    // A store renamed here keeps syncing under the name the hub or folder knows it by.
    host.events.on('store.renamed', ({ store, to }) => {
      const file = readSyncFile(host.dataDir);
      const conn = file.stores[store];
      if (!conn) return;
      file.stores[to] = { ...conn, remote: conn.remote ?? store };
      delete file.stores[store];
      writeSyncFile(host.dataDir, file);
      const run = this.runs.get(store);
      if (run) {
        this.runs.delete(store);
        const moved = new StoreSync(to, file.stores[to] as SyncConnection);
        moved.transport = run.transport;
        moved.clock = run.clock;
        run.stopped = true;
        if (run.timer) clearTimeout(run.timer);
        this.runs.set(to, moved);
        this.schedule(moved, 0);
      }
    });
    const env = Number(process.env.LOCI_SYNC_INTERVAL_MS);
    this.o = {
      intervalMs: options.intervalMs ?? (Number.isFinite(env) && env > 0 ? env : 1000),
      debounceMs: options.debounceMs ?? 25,
      maxBackoffMs: options.maxBackoffMs ?? 60_000,
      pushBatch: options.pushBatch ?? 1000,
      pullBatch: options.pullBatch ?? 2000,
      transport: options.transport,
    };
  }

  /** This device, as every transport knows it. */
  device(): { id: string; name: string } {
    return readSyncFile(this.host.dataDir).device;
  }

  /** Starts syncing every connected store (the daemon and the desktop app call it). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const kick = (store: string, actor: string) => {
      // The events of an apply name the sync actor: they need no cycle of their own.
      const run = this.runs.get(store);
      if (run && actor !== 'sync' && this.announcing === 0) this.schedule(run, this.o.debounceMs);
    };
    this.unsubscribe.push(
      this.host.events.on('memory.changed', (e) => kick(e.store, e.actor)),
      this.host.events.on('link.changed', (e) => kick(e.store, e.actor)),
      this.host.events.on('conflict.changed', (e) => kick(e.store, e.actor)),
    );
    for (const [name, conn] of Object.entries(readSyncFile(this.host.dataDir).stores)) {
      if (this.runs.has(name)) continue; // connected (or synced once) before the loops started
      const run = new StoreSync(name, conn);
      this.runs.set(name, run);
      this.schedule(run, 0);
    }
  }

  async close(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    const runs = [...this.runs.values()];
    for (const run of runs) {
      run.stopped = true;
      if (run.timer) clearTimeout(run.timer);
    }
    await Promise.all(runs.map((r) => r.running?.catch(() => undefined)));
    await Promise.all(runs.map((r) => r.unwatch?.().catch(() => undefined)));
    await Promise.all(runs.map((r) => r.transport?.close().catch(() => undefined)));
    this.runs.clear();
    this.started = false;
  }

  // ------------------------------------------------------------------ the methods

  async connect(
    storeName: string,
    args: { url?: string | undefined; folder?: string | undefined; password?: string | undefined },
    actor = 'cli',
  ): Promise<SyncStoreStatus> {
    const file = readSyncFile(this.host.dataDir);
    let conn: SyncConnection;
    let password: string | null = null;
    if (args.url !== undefined) {
      const parsed = withoutPassword(args.url);
      password = args.password ?? parsed.password;
      conn = {
        transport: 'hub',
        target: parsed.shown,
        connected_at: this.host.now(),
        secret: 'none',
      };
    } else {
      conn = {
        transport: 'folder',
        target: args.folder as string,
        remote: storeName,
        connected_at: this.host.now(),
        secret: 'none',
      };
    }
    const existing = file.stores[storeName];
    if (existing && existing.target !== conn.target) {
      throw new LociError(
        'conflict',
        `Store ${storeName} already syncs with ${existing.target}. Run \`loci sync leave --store ${storeName}\` first.`,
        { store: storeName, target: existing.target },
      );
    }
    return this.host.inCall(async () => {
      const store = await this.host.store(storeName);
      // Try the transport before anything is kept: a wrong URL leaves nothing behind.
      const transport = await this.makeTransport(conn, storeName, password, file.device);
      await transport.open();
      if (password !== null) {
        conn.secret = await this.secrets.save(existing?.remote ?? storeName, password);
      }
      if (!existing) {
        // One transaction: a fresh log, the triggers, every memory noted to be shared.
        store.db.transaction(() => {
          // A fresh start: this device's whole store (shared, trusted memories) is shared again.
          store.db.exec(
            'DELETE FROM sync_op; DELETE FROM sync_tombstone; DELETE FROM sync_outcome;',
          );
          stmt(store.db, `DELETE FROM sync_state WHERE key <> 'hlc'`).run();
          installTriggers(store.db);
          noteEverything(store.db);
          writeState(store.db, 'connection', { transport: conn.transport, target: conn.target });
          store.audit.append(
            {
              actor,
              action: 'sync.connect',
              target: null,
              data: { transport: conn.transport, target: conn.target, device: file.device.id },
            },
            this.host.now(),
          );
        })();
      } else {
        // Connected already: a password given now replaces where the old one was kept.
        conn = { ...existing, secret: password !== null ? conn.secret : existing.secret };
      }
      file.stores[storeName] = conn;
      writeSyncFile(this.host.dataDir, file);
      const old = this.runs.get(storeName);
      const run = old ?? new StoreSync(storeName, conn);
      if (old?.transport) await old.transport.close().catch(() => undefined);
      run.transport = transport;
      run.conn = conn;
      run.stopped = false;
      this.runs.set(storeName, run);
      this.schedule(run, 0);
      return this.statusOf(run, store);
    });
  }

  async status(storeName?: string): Promise<SyncStoreStatus[]> {
    const conns = readSyncFile(this.host.dataDir).stores;
    const names = storeName ? [storeName] : Object.keys(conns);
    const out: SyncStoreStatus[] = [];
    for (const name of names) {
      const conn = conns[name];
      if (!conn) {
        if (storeName) {
          throw new LociError(
            'not-found',
            `Store ${name} does not sync. Connect it with \`loci sync connect <postgres://… | folder> --store ${name}\`.`,
          );
        }
        continue;
      }
      const run = this.runs.get(name) ?? new StoreSync(name, conn);
      out.push(await this.host.inCall(async () => this.statusOf(run, await this.host.store(name))));
    }
    return out;
  }

  /** Runs one cycle now (and waits for it). */
  async now(storeName: string): Promise<SyncRunResult> {
    const run = this.requireRun(storeName);
    while (run.running) await run.running.catch(() => undefined);
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    return this.cycle(run, true);
  }

  async devices(storeName: string): Promise<SyncDevice[]> {
    const run = this.requireRun(storeName);
    const transport = await this.openTransport(run);
    return transport.devices();
  }

  async leave(storeName: string, actor = 'cli'): Promise<boolean> {
    const file = readSyncFile(this.host.dataDir);
    if (!file.stores[storeName]) return false;
    const run = this.runs.get(storeName);
    if (run) {
      run.stopped = true;
      if (run.timer) clearTimeout(run.timer);
      await run.running?.catch(() => undefined);
      try {
        await (await this.openTransport(run)).leave();
      } catch (err) {
        warn(
          `store ${storeName} left its sync here, but the ${run.conn.transport} could not be told (${(err as Error).message}); its device entry stays there until removed`,
        );
      }
      await run.unwatch?.().catch(() => undefined);
      await run.transport?.close().catch(() => undefined);
      this.runs.delete(storeName);
    }
    await this.host.inCall(async () => {
      const store = await this.host.store(storeName);
      removeTriggers(store.db);
      store.db.transaction(() => {
        // The memories stay; the log goes (joining again shares everything afresh).
        store.db.exec('DELETE FROM sync_op; DELETE FROM sync_tombstone; DELETE FROM sync_outcome;');
        stmt(store.db, `DELETE FROM sync_state WHERE key <> 'hlc'`).run();
        store.audit.append(
          {
            actor,
            action: 'sync.leave',
            target: null,
            data: { target: file.stores[storeName]?.target },
          },
          this.host.now(),
        );
      })();
    });
    // Kept under the name the store had when it connected.
    await this.secrets.delete(file.stores[storeName]?.remote ?? storeName);
    delete file.stores[storeName];
    writeSyncFile(this.host.dataDir, file);
    this.host.events.emit('sync.changed', { store: storeName, state: 'left' });
    return true;
  }

  // ------------------------------------------------------------------ cycles

  private requireRun(storeName: string): StoreSync {
    const conn = readSyncFile(this.host.dataDir).stores[storeName];
    if (!conn) {
      throw new LociError(
        'not-found',
        `Store ${storeName} does not sync. Connect it with \`loci sync connect <postgres://… | folder> --store ${storeName}\`.`,
      );
    }
    let run = this.runs.get(storeName);
    if (!run) {
      run = new StoreSync(storeName, conn);
      this.runs.set(storeName, run);
    }
    return run;
  }

  /** The transport of a connection; `pg` and the folder code load only when a store syncs. */
  private async makeTransport(
    conn: SyncConnection,
    store: string,
    password: string | null,
    device: { id: string; name: string },
  ): Promise<SyncTransport> {
    if (this.o.transport) return this.o.transport(conn, store, password);
    const self = { ...device, version: LOCI_VERSION };
    if (conn.transport === 'hub') {
      const { PostgresHub } = await import('./hub');
      return new PostgresHub({
        url: conn.target,
        store: conn.remote ?? store,
        self,
        ...(password !== null ? { password } : {}),
      });
    }
    const { FolderSync } = await import('./folder');
    return new FolderSync({ folder: conn.target, store: conn.remote ?? store, self });
  }

  private async openTransport(run: StoreSync): Promise<SyncTransport> {
    if (run.transport) return run.transport;
    const password = await this.secrets.load(run.conn.remote ?? run.name, run.conn.secret);
    if (run.conn.secret !== 'none' && password === null) {
      throw new LociError(
        'forbidden',
        `The hub password of store ${run.name} is no longer where Loci kept it (${run.conn.secret}). Connect again with \`loci sync connect\`.`,
      );
    }
    const t = await this.makeTransport(run.conn, run.name, password, this.device());
    await t.open();
    run.transport = t;
    return t;
  }

  /** Pulls as soon as another device pushes, where the transport can tell (the hub). */
  private async watch(run: StoreSync, t: SyncTransport): Promise<void> {
    if (!t.watch || run.unwatch || !this.started || run.stopped) return;
    try {
      run.unwatch = await t.watch(
        () => this.schedule(run, 0),
        () => {
          run.unwatch = null;
        },
      );
    } catch {
      run.unwatch = null; // polling it is, until the next cycle tries again
    }
  }

  private schedule(run: StoreSync, delay: number): void {
    if (run.stopped) return;
    if (run.running) {
      run.again = true;
      return;
    }
    const due = this.host.now() + delay;
    if (run.timer) {
      if (run.due <= due) return; // one is already due sooner
      clearTimeout(run.timer);
    }
    run.due = due;
    run.timer = setTimeout(() => {
      run.timer = null;
      // One cycle of a store at a time: one running now runs again when it ends.
      if (run.running) {
        run.again = true;
        return;
      }
      void this.cycle(run, false).catch(() => undefined);
    }, delay);
    run.timer.unref?.();
  }

  private cycle(run: StoreSync, manual: boolean): Promise<SyncRunResult> {
    const p = this.cycleOnce(run, manual).finally(() => {
      run.running = null;
      if (run.stopped) return;
      if (run.error) {
        this.schedule(run, Math.max(0, (run.nextRetry ?? 0) - this.host.now()));
      } else if (run.again) {
        run.again = false;
        this.schedule(run, 0);
      } else this.schedule(run, this.o.intervalMs);
    });
    run.running = p;
    return p;
  }

  private async cycleOnce(run: StoreSync, manual: boolean): Promise<SyncRunResult> {
    const started = this.host.now();
    const result: SyncRunResult = {
      store: run.name,
      pushed: 0,
      pulled: 0,
      applied: 0,
      problems: [],
      duration_ms: 0,
    };
    const before = run.state;
    run.state = 'syncing';
    try {
      await this.host.inCall(async () => {
        const store = await this.host.store(run.name);
        if (!triggersInstalled(store.db)) installTriggers(store.db);
        const clock = (run.clock ??= new HlcClock(
          this.device().id,
          this.host.now,
          readState<string>(store.db, 'hlc'),
        ));
        capture(store.db, clock, this.host.now());
        const transport = await this.openTransport(run);
        await this.watch(run, transport);
        result.pushed = await this.push(run, store, transport);
        if (transport.needsRepublish?.() && transport.republish) {
          // A segment of this device went missing or was damaged in the folder.
          const mine = stmt(
            store.db,
            `SELECT h, d, e, r1, r2, x, b FROM sync_op WHERE local = 1 ORDER BY seq`,
          ).all() as OpRow[];
          await transport.republish(mine.map(toWire));
        }
        const pulled = await this.pull(run, store, transport, clock);
        result.pulled = pulled.pulled;
        result.applied = pulled.applied;
        result.problems = pulled.problems;
      });
      run.failures = 0;
      run.error = null;
      run.nextRetry = null;
      run.state = 'idle';
    } catch (err) {
      run.failures++;
      const wait = Math.min(this.o.maxBackoffMs, 1000 * 2 ** Math.min(run.failures - 1, 16));
      run.nextRetry = this.host.now() + Math.round(wait * (0.5 + Math.random() / 2));
      run.error = {
        message: (err as Error).message,
        fix: fixFor(err),
        at: new Date(this.host.now()).toISOString(),
      };
      run.state = 'error';
      // A broken connection is made again on the next try.
      const t = run.transport;
      run.transport = null;
      const unwatch = run.unwatch;
      run.unwatch = null;
      await unwatch?.().catch(() => undefined);
      await t?.close().catch(() => undefined);
      if (manual) throw err;
    } finally {
      // Told when something moved or the state changed, not after every quiet cycle.
      if (result.pushed > 0 || result.pulled > 0 || run.state !== before || run.state === 'error') {
        this.host.events.emit('sync.changed', { store: run.name, state: run.state });
      }
    }
    result.duration_ms = this.host.now() - started;
    return result;
  }

  private async push(run: StoreSync, store: OpenStore, transport: SyncTransport): Promise<number> {
    const read = stmt(
      store.db,
      `SELECT seq, h, d, e, r1, r2, x, b FROM sync_op WHERE local = 1 AND pushed = 0 ORDER BY seq LIMIT ?`,
    );
    const mark = stmt(
      store.db,
      'UPDATE sync_op SET pushed = 1 WHERE local = 1 AND pushed = 0 AND seq <= ?',
    );
    let total = 0;
    for (;;) {
      const rows = read.all(this.o.pushBatch) as (OpRow & { seq: number })[];
      if (rows.length === 0) return total;
      const ops = rows.map(toWire);
      await transport.push(ops);
      mark.run((rows[rows.length - 1] as { seq: number }).seq);
      total += rows.length;
      run.pushed += rows.length;
      run.lastPush = this.host.now();
    }
  }

  private async pull(
    run: StoreSync,
    store: OpenStore,
    transport: SyncTransport,
    clock: HlcClock,
  ): Promise<{ pulled: number; applied: number; problems: SyncProblemView[] }> {
    let cursor = readState<string>(store.db, 'cursor');
    const out = { pulled: 0, applied: 0, problems: [] as SyncProblemView[] };
    for (let batch = 0; batch < 50; batch++) {
      const res = await transport.pull(cursor, this.o.pullBatch);
      const at = this.host.now();
      const applied = receive(res.ops, {
        db: store.db,
        audit: store.audit,
        clock,
        now: at,
        origin: transport.target,
      });
      cursor = res.cursor;
      writeState(store.db, 'cursor', cursor);
      run.lastPull = at;
      out.pulled += res.ops.length;
      out.applied += applied.applied;
      run.pulled += applied.applied;
      for (const w of res.ops) {
        if (typeof w.h === 'string' && /^[0-9a-z]{11}/.test(w.h)) {
          run.lags.push(Math.max(0, at - hlcWall(w.h)));
        }
      }
      if (run.lags.length > LAG_SAMPLES) run.lags.splice(0, run.lags.length - LAG_SAMPLES);
      const problems = [...res.problems, ...applied.problems].map((p) => this.noteProblem(run, p));
      out.problems.push(...problems);
      for (const m of applied.merged) {
        run.merges.unshift({ id: m.id, fields: m.fields, at: new Date(at).toISOString() });
        this.host.activity.record({
          at: new Date(at).toISOString(),
          actor: 'sync',
          transport: 'sync',
          tool: 'sync.merge',
          ok: true,
          error_code: null,
          duration_ms: 0,
          args: { store: run.name, memory: m.id, fields: m.fields },
          result: {
            kept: m.winner,
            replaced: m.loser,
            rule: 'last writer wins by clock; the replaced value is a version',
          },
        });
      }
      if (run.merges.length > KEEP_MERGES) run.merges.length = KEEP_MERGES;
      await this.announce(store, applied);
      if (applied.changed.erased.length > 0) await transport.purge?.(applied.changed.erased);
      if (!res.more) break;
    }
    return out;
  }

  /** After an apply is committed: the recogniser, vectors, contradictions and events. */
  private async announce(store: OpenStore, a: ReturnType<typeof receive>): Promise<void> {
    this.announcing++;
    try {
      await this.announceApplied(store, a);
    } finally {
      this.announcing--;
    }
  }

  private async announceApplied(store: OpenStore, a: ReturnType<typeof receive>): Promise<void> {
    if (a.created.length > 0) await this.host.created(store, a.created, SYNC_ACTOR);
    for (const change of ['updated', 'forgotten', 'restored', 'erased'] as const) {
      const ids = a.changed[change];
      if (ids.length > 0) this.host.changed(store, ids, change, SYNC_ACTOR);
    }
    for (const l of a.links) {
      this.host.events.emit('link.changed', { store: store.name, ...l, actor: 'sync' });
    }
  }

  private noteProblem(run: StoreSync, p: SyncProblem): SyncProblemView {
    const view = { ...p, at: new Date(this.host.now()).toISOString() };
    run.problems.unshift(view);
    if (run.problems.length > KEEP_PROBLEMS) run.problems.length = KEEP_PROBLEMS;
    warn(`sync of store ${run.name}: ${p.where}: ${p.message}`);
    return view;
  }

  private statusOf(run: StoreSync, store: OpenStore): SyncStoreStatus {
    const pending = (
      stmt(store.db, 'SELECT COUNT(*) AS n FROM sync_op WHERE local = 1 AND pushed = 0').get() as {
        n: number;
      }
    ).n;
    const dirty = (stmt(store.db, 'SELECT COUNT(*) AS n FROM sync_dirty').get() as { n: number }).n;
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    const lags = [...run.lags].sort((a, b) => a - b);
    const q = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? 0;
    return {
      store: run.name,
      transport: run.conn.transport,
      target: run.conn.target,
      state: run.state,
      connected_at: new Date(run.conn.connected_at).toISOString(),
      last_push_at: iso(run.lastPush),
      last_pull_at: iso(run.lastPull),
      pending: pending + dirty,
      pushed: run.pushed,
      pulled: run.pulled,
      lag_ms: lags.length > 0 ? { p50: q(0.5), p95: q(0.95), samples: lags.length } : null,
      secret: run.conn.secret,
      error: run.error,
      next_retry_at: iso(run.nextRetry),
      problems: run.problems.slice(0, 20),
      clock_ahead_ms: run.clock?.aheadBy() ?? 0,
      merges: run.merges.slice(0, 20),
    };
  }
}
