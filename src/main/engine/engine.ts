// The engine core: owns the data directory (through its lock), opens and closes stores,
// and holds the services every domain works with (the event bus, the semantic indexes,
// ingestion, dreams, the audit chain, the doctor, the quality lab). It offers no contract
// method itself: the handlers of src/main/api register each method once, against this
// core. Transports never reach below the handlers.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { monotonicFactory } from 'ulidx';
import type { Actor, CallContext, ConflictMark } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { MemoryChange } from '../../shared/events';
import { FULL_POLICY } from './access/grants';
import { Confirmations } from './access/confirm';
import { AccessControl } from './access/service';
import { ActivityLog } from './activity';
import { AuditService } from './audit/service';
import { ClientRegistry } from './clients';
import { eligible } from './conflicts/find';
import { Footprint } from './footprint';
import { ConflictService } from './conflicts/service';
import { loadConfig, type Config } from './config';
import { assertDependencyVersions } from './dependencies';
import { Doctor } from './doctor/doctor';
import { DreamService, type DreamHooks } from './dream/service';
import { QualityLab } from './eval/lab';
import { EngineEvents } from './events';
import type { IngestLimits } from './ingest/limits';
import { IngestService, type IngestHooks } from './ingest/service';
import { createLlmClient, llmSettings } from './llm';
import { BulkDeleteGuard, type ConfirmHook } from './memory/bulkGuard';
import { actorName } from './memory/model';
import { RecallLatencies } from './memory/overview';
import { releaseTokenCounter } from './recall/tokenCounter';
import { RehearsalQueue } from './memory/rehearsals';
import type { CreatedMemory } from './memory/remember';
import { Semantic, type EmbedWrites } from './semantic';
import { setupEnvironment } from './setup/environment';
import type { SetupEnvironment } from './setup/setup';
import type { SynchronousMode } from './store/database';
import { DataDirLock, type OwnerKind } from './store/lock';
import { resolveDataDir } from './store/paths';
import { KeyVault, type KeyVaultOptions } from './store/keys';
import { StoreRegistry, type OpenStore } from './store/registry';
import { clearStatements } from './store/statements';
import { storageError } from './store/storageErrors';
import { TranscriptService } from './transcripts/service';
import { SyncService, type SyncOptions } from './sync/service';
import { warn } from './warnings';
import { releaseScanner } from './write/scanHost';
import { releaseInjectionFlags } from './write/injection';

/**
 * Cryptographic randomness for ULIDs, drawn from a pooled buffer: one system call per
 * 8 KiB instead of one per id.
 */
function pooledRandom(): () => number {
  let pool = Buffer.alloc(0);
  let i = 0;
  return () => {
    if (i >= pool.length) {
      pool = randomBytes(8192);
      i = 0;
    }
    return (pool[i++] as number) / 256;
  };
}

/** Where this engine is served over HTTP, set by the daemon once it listens. */
export interface Serving {
  url: string;
  port: number;
  tokenPath: string | null;
  /** The address bound (the URL shows 127.0.0.1 for 0.0.0.0). */
  host?: string;
}

export interface EngineOptions {
  /** Defaults to LOCI_HOME or the platform's application-data folder. */
  dataDir?: string;
  /** Who holds the lock: shown to a second process that tries to open the data directory. */
  owner?: OwnerKind;
  synchronous?: SynchronousMode;
  /** Injected clock (epoch ms); tests use it to move time. */
  clock?: () => number;
  /** How long rehearsals are gathered before one write (ms). */
  rehearsalFlushMs?: number;
  /**
   * `await`: a write returns once its vectors are stored (the CLI: nothing runs after
   * the command). `background` (default): vectors are filled in after the write returns.
   */
  embedWrites?: EmbedWrites;
  /** Environment for model lookup (LOCI_MODEL_PATH); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Home folder whose editor configurations `setup` reads and writes (tests use a temporary one). */
  setupHome?: string;
  /** File ingestion: lower limits (tests) and test seams. */
  ingest?: { limits?: Partial<IngestLimits>; hooks?: IngestHooks };
  /** Dreams: test seams (a throw inside a phase's transaction, the model's fetch). */
  dream?: DreamHooks;
  /**
   * Where encrypted stores' keys come from: the desktop app's safeStorage, the CLI's
   * passphrase prompt; the environment (LOCI_PASSPHRASE) defaults to `env`.
   */
  keys?: KeyVaultOptions;
  /** Sync: cycle timings and (tests) the transport. */
  sync?: SyncOptions;
}

export class Engine {
  readonly events = new EngineEvents();
  readonly activity = new ActivityLog(this.events);
  readonly clients = new ClientRegistry((connected) =>
    this.events.emit('clients.changed', { connected }),
  );
  readonly recallLatencies = new RecallLatencies();
  private serving: Serving | null = null;
  private readonly opened = new Map<string, Promise<OpenStore>>();
  /** Stores closed for a change of their files (see exclusive). */
  private readonly gates = new Map<string, Promise<void>>();
  /** The stores each call in flight has used, and how many calls use each store now. */
  private readonly callStores = new AsyncLocalStorage<Set<string>>();
  private readonly leases = new Map<string, number>();
  private leaseWaiters: (() => void)[] = [];
  private closed = false;
  private readonly ulid = monotonicFactory(pooledRandom());
  readonly now: () => number;
  /** Agents past N deletions in a window need the user's confirmation. */
  readonly bulkDeletes: BulkDeleteGuard;
  /** Recalls' uses, gathered and written in one transaction per window. */
  readonly rehearsals: RehearsalQueue;
  readonly semantic: Semantic;
  /** File ingestion: batches, uploads, the parser worker, allowed folders. */
  readonly ingest: IngestService;
  /** Audit chain queries and verification, and the MCP clients' read log. */
  readonly audit: AuditService;
  readonly doctor: Doctor;
  /** The quality lab: recalls marked by a person, run again under other rankings. */
  readonly lab: QualityLab;
  /** Dream cycles, the review inbox and the idle-time scheduler. */
  readonly dreams: DreamService;
  /** Agent sessions read from their transcripts into journals and episode memories. */
  readonly transcripts: TranscriptService;
  /** Contradiction candidates: found on write, in the backlog scan, kept for a decision. */
  readonly conflicts: ConflictService;
  /** Client tokens and what each may do (every call is authorised against it). */
  readonly access: AccessControl;
  /** Stores synced with a PostgreSQL hub or a synced folder (run by the daemon). */
  readonly sync: SyncService;
  /** Requests an agent may make only with the person's yes, asked in the client. */
  readonly confirmations: Confirmations;
  /**
   * What the engine keeps resident, given back when it has been quiet or memory is short
   * (started by processes that stay up: the daemon, `loci mcp`, the app).
   */
  readonly footprint: Footprint;

  private constructor(
    readonly dataDir: string,
    private readonly lock: DataDirLock,
    /** The stores of the data directory: names, creation, renames, damaged ones. */
    readonly registry: StoreRegistry,
    readonly config: Config,
    private readonly options: EngineOptions,
  ) {
    this.now = options.clock ?? Date.now;
    this.bulkDeletes = new BulkDeleteGuard(this.now);
    this.rehearsals = new RehearsalQueue(
      (name) => this.opened.get(name),
      this.now,
      options.rehearsalFlushMs,
    );
    this.audit = new AuditService((name) => this.store(name), this.events, this.now);
    this.confirmations = new Confirmations(this.now);
    this.access = new AccessControl({
      dataDir,
      now: this.now,
      storeExists: (name) => registry.exists(name) || name === 'default',
      store: (name) => this.store(name),
    });
    this.doctor = new Doctor(this);
    this.lab = new QualityLab(this);
    this.semantic = new Semantic({
      dataDir,
      config,
      events: this.events,
      now: this.now,
      embedWrites: options.embedWrites ?? 'background',
      ...(options.env ? { env: options.env } : {}),
    });
    this.conflicts = new ConflictService({
      config,
      events: this.events,
      now: this.now,
      newId: () => this.newId(),
      nearestTo: (store, rid, k) =>
        this.semantic.nearestTo(store, rid, k, { sql: eligible(), params: [] }),
      vectorsFilling: (store) => this.semantic.backfilling(store),
      changedLinks: (store, links, actor) => {
        for (const l of links) {
          this.events.emit('link.changed', { store: store.name, ...l, actor });
        }
      },
      changedMemories: (store, ids, actor) => this.changed(store, ids, 'updated', actor),
    });
    this.dreams = new DreamService(
      {
        config,
        events: this.events,
        now: this.now,
        newId: () => this.newId(),
        env: options.env ?? process.env,
        store: (name) => this.store(name),
        flush: () => this.rehearsals.flush(),
        created: async (store, created, actor) => {
          await this.created(store, created, actor);
        },
        changed: (store, ids, change, actor) => this.changed(store, ids, change, actor),
        nearestTo: (store, rid, k) =>
          this.semantic.nearestTo(store, rid, k, { sql: eligible(), params: [] }),
        conflictsFound: (store, ids, pairs) => this.conflicts.announce(store, ids, pairs, 'dream'),
      },
      options.dream,
    );
    this.ingest = new IngestService({
      dataDir,
      config,
      events: this.events,
      now: this.now,
      newId: () => this.newId(),
      store: (name) => this.store(name),
      modelMaxTokens: () => this.semantic.embedding.maxTokens,
      created: async (store, created, actor) => {
        await this.created(store, created, actor);
      },
      changed: async (store, ids, change, actor) => {
        this.changed(store, ids, change, actor);
        if (change === 'restored') await this.semantic.afterWrite(store);
      },
      ...(options.ingest?.limits ? { limits: options.ingest.limits } : {}),
      ...(options.ingest?.hooks ? { hooks: options.ingest.hooks } : {}),
    });
    this.sync = new SyncService(
      {
        dataDir,
        vault: registry.vault,
        now: this.now,
        events: this.events,
        activity: this.activity,
        store: (name) => this.store(name),
        inCall: (fn) => this.inCall(fn),
        created: async (store, created, actor) => {
          await this.created(store, created, actor);
        },
        changed: (store, ids, change, actor) => this.changed(store, ids, change, actor),
      },
      options.sync,
    );
    this.footprint = new Footprint({
      now: this.now,
      idleMs: config.memory.idle_trim_s * 1000,
      pollMs: 5000,
      minFreeShare: config.memory.min_free_pct / 100,
      maxStallPct: config.memory.max_stall_pct,
      pressureGapMs: 5 * 60_000,
      nativeArenas: config.memory.native_arenas,
      workingThreshold: true,
    });
    this.footprint.add({ name: 'credential scanner', release: () => releaseScanner() });
    this.footprint.add({ name: 'file parser', release: () => this.ingest.releaseParser() });
    this.footprint.add({ name: 'token counter', release: () => releaseTokenCounter() });
    this.footprint.add({ name: 'injection flags', release: () => releaseInjectionFlags() });
    this.footprint.add({ name: 'indexes', release: (depth) => this.semantic.release(depth) });
    this.footprint.add({
      name: 'SQLite caches',
      release: async () => {
        for (const store of await this.openStores()) {
          // Statements are prepared again on next use (about 10 µs each, a few
          // dozen for the first recall after a trim); the page cache refills from disk.
          // Measured on an idle daemon: about 0.4 MiB of C memory.
          clearStatements(store.db);
          store.db.pragma('shrink_memory');
        }
      },
    });
    // Trimmed only once background work is done too (it runs after the calls that cause it).
    for (const service of [this.semantic, this.conflicts, this.ingest, this.dreams]) {
      this.footprint.addWork(() => service.working);
    }
    this.transcripts = new TranscriptService({
      events: this.events,
      now: this.now,
      newId: () => this.newId(),
      store: (name) => this.store(name),
      allowedFolders: () => this.ingest.folders().folders,
      created: async (store, created, actor) => {
        await this.created(store, created, actor);
      },
      changed: (store, ids, change, actor) => this.changed(store, ids, change, actor),
      autoAccept: async (store, ids, actor) => {
        if (this.config.dream.auto_accept.distill) {
          await this.dreams.reviewAccept({ store: store.name, ids }, actor);
        }
      },
      llm: () =>
        createLlmClient(llmSettings(this.config), options.env ?? process.env, options.dream?.fetch),
      distillConfig: () => this.config.distill,
    });
  }

  static async open(options: EngineOptions = {}): Promise<Engine> {
    // pdf.js and the MCP SDK below their safe versions: refuse with the fix.
    assertDependencyVersions();
    const dataDir = options.dataDir ?? resolveDataDir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    let lock: DataDirLock;
    try {
      lock = DataDirLock.acquire(dataDir, options.owner ?? 'cli');
    } catch (err) {
      // A read-only or full disk: say so, instead of a bare EROFS.
      throw storageError(err) ?? err;
    }
    try {
      const vault = new KeyVault(dataDir, {
        env: options.env ?? process.env,
        ...options.keys,
      });
      const registry = new StoreRegistry(
        dataDir,
        { synchronous: options.synchronous ?? 'full' },
        vault,
      );
      const config = loadConfig(dataDir);
      // Stores open on first use, so that one damaged store never locks the user out of
      // the others (or out of `loci stores reset`).
      return new Engine(dataDir, lock, registry, config, options);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** A new memory or batch id: a ULID, monotonic within this process. */
  newId(): string {
    return this.ulid();
  }

  /** Who holds the data directory: the desktop app, the daemon or the CLI. */
  get owner(): OwnerKind {
    return this.options.owner ?? 'cli';
  }

  get lockInfo() {
    return this.lock.current;
  }

  /** Records the daemon's port and token location in the lock file. */
  updateLock(patch: Parameters<DataDirLock['update']>[0]): void {
    this.lock.update(patch);
  }

  /** Writes this process's lock file again (the doctor's fix for a lost or stale lock). */
  rewriteLock(): void {
    this.lock.update({});
  }

  /** The daemon says where it serves, for `system.info` and the observatory. */
  setServing(serving: Serving | null): void {
    this.serving = serving;
  }

  /** Where this engine is served, or null when nothing serves. */
  get servedAt(): Serving | null {
    return this.serving;
  }

  /** The address the daemon is bound to, or null when nothing serves. */
  servingHost(): string | null {
    if (!this.serving) return null;
    return this.serving.host ?? new URL(this.serving.url).hostname;
  }

  /** The machine as `setup` sees it: home folder, editors' config paths, the endpoint. */
  setupEnv(): SetupEnvironment {
    const grants = this.access.grants;
    return {
      ...setupEnvironment(this.dataDir, {
        ...(this.options.setupHome ? { home: this.options.setupHome } : {}),
        ...(this.options.env ? { env: this.options.env } : {}),
      }),
      // Each editor gets a token of its own (engine/access), its policy kept on a rotate.
      tokens: {
        valid: (token, client) => {
          const g = grants.verify(token);
          return g !== null && (client === undefined || g.name === client);
        },
        mint: (client) =>
          grants.get(client) ? grants.rotate(client).token : grants.add(client, FULL_POLICY).token,
      },
    };
  }

  // ------------------------------------------------------------------ stores

  /** The open store for a name (absent: `default`); unknown names are an error. */
  async store(name: string | undefined): Promise<OpenStore> {
    if (this.closed) throw new LociError('unavailable', 'The engine is shut down.');
    const resolved = this.registry.resolve(name);
    // A store being re-encrypted: calls wait for it, then open what it left.
    for (let gate = this.gates.get(resolved); gate; gate = this.gates.get(resolved)) {
      await gate.catch(() => undefined);
    }
    if (this.closed) throw new LociError('unavailable', 'The engine is shut down.');
    this.lease(resolved);
    let opening = this.opened.get(resolved);
    if (!opening) {
      opening = this.registry.open(resolved);
      this.opened.set(resolved, opening);
      opening.catch(() => this.opened.delete(resolved));
    }
    return opening;
  }

  /** The stores open now (also for maintenance: checkpoints and scheduled backups). */
  async openStores(): Promise<OpenStore[]> {
    const out: OpenStore[] = [];
    for (const opening of this.opened.values()) {
      try {
        out.push(await opening);
      } catch {
        /* not open */
      }
    }
    return out;
  }

  /**
   * Closes one store (its pending uses and reads written first, its indexes released),
   * so that it can be renamed or opened again from what is on disk.
   */
  async closeStore(name: string): Promise<void> {
    await this.rehearsals.flush();
    this.audit.reads.flush();
    const opening = this.opened.get(name);
    if (!opening) return;
    await this.semantic.releaseStore(name);
    this.conflicts.release(name);
    this.opened.delete(name);
    const open = await opening.catch(() => null);
    open?.db.close();
  }

  /** Runs one call (HandlerRegistry.dispatch) in its own scope: which stores it uses. */
  async inCall<T>(fn: () => Promise<T>): Promise<T> {
    const held = new Set<string>();
    const ended = this.footprint.begin();
    try {
      return await this.callStores.run(held, fn);
    } finally {
      ended();
      for (const name of held) this.releaseLease(name);
    }
  }

  private lease(name: string): void {
    const held = this.callStores.getStore();
    if (!held || held.has(name)) return;
    held.add(name);
    this.leases.set(name, (this.leases.get(name) ?? 0) + 1);
  }

  private releaseLease(name: string): void {
    const n = (this.leases.get(name) ?? 1) - 1;
    if (n <= 0) this.leases.delete(name);
    else this.leases.set(name, n);
    for (const wake of this.leaseWaiters.splice(0)) wake();
  }

  /**
   * Runs `fn` with a store closed and no call using it: the calls already using it
   * finish first, calls that come meanwhile wait (nothing is refused or lost) and open
   * the store again once `fn` is done.
   */
  async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    while (this.gates.get(name)) await this.gates.get(name)?.catch(() => undefined);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.gates.set(name, gate);
    try {
      // The calling call's own use of the store does not count.
      const mine = this.callStores.getStore()?.has(name) ? 1 : 0;
      while ((this.leases.get(name) ?? 0) > mine) {
        await new Promise<void>((wake) => this.leaseWaiters.push(wake));
      }
      await this.closeStore(name);
      return await fn();
    } finally {
      this.gates.delete(name);
      release();
    }
  }

  /** The confirmation hook for one call of `method` (see BulkDeleteGuard, confirm.ts). */
  confirmHook(ctx: CallContext, method: string, args: unknown): ConfirmHook {
    return {
      granted: this.confirmations.granted(ctx, method, args),
      ask: (message, question, data) =>
        this.confirmations.needed(ctx.actor, method, args, message, question, data),
    };
  }

  /** Forgets a store that failed to open, so that the next use tries again. */
  forgetStore(name: string): void {
    this.opened.delete(name);
  }

  // ------------------------------------------------------------------ after a write

  /**
   * After new memories are committed: the recogniser, the event, their vectors, then the
   * contradictions they seem to make (a small write's, by memory id; a batch's later).
   */
  async created(
    store: OpenStore,
    created: CreatedMemory[],
    actor: Actor,
  ): Promise<Map<string, ConflictMark[]>> {
    if (actor.kind !== 'dream') this.dreams.noteActivity();
    this.semantic.memoriesCreated(store, created);
    this.events.emit('memory.changed', {
      store: store.name,
      ids: created.map((m) => m.id),
      change: 'created',
      actor: actorName(actor),
    });
    await this.semantic.afterWrite(store, created);
    try {
      return this.conflicts.afterCreated(store, created, actor);
    } catch (err) {
      // The memories are written; a comparison that fails is the scan's to do again.
      warn(
        `comparing new memories of store ${store.name} for contradictions failed: ${(err as Error).message}`,
      );
      return new Map();
    }
  }

  /** After memories changed: the recogniser (unless erased) and the event. */
  changed(store: OpenStore, ids: string[], change: MemoryChange, actor: Actor): void {
    if (actor.kind !== 'dream') this.dreams.noteActivity();
    if (change !== 'erased') this.semantic.memoriesChanged(store, ids);
    this.events.emit('memory.changed', { store: store.name, ids, change, actor: actorName(actor) });
  }

  // ------------------------------------------------------------------ lifecycle

  async close(): Promise<void> {
    if (this.closed) return;
    this.footprint.stop();
    await this.sync.close();
    await this.dreams.close();
    await this.rehearsals.flush();
    this.audit.reads.flush();
    this.closed = true;
    this.conflicts.close();
    await this.ingest.close();
    await this.semantic.close();
    for (const opening of this.opened.values()) {
      try {
        const store = await opening;
        store.db.pragma('optimize');
        store.db.close();
      } catch {
        /* a store that failed to open has nothing to close */
      }
    }
    this.opened.clear();
    this.lock.release();
  }
}
