// The memory engine: owns the data directory (through its lock), opens stores on
// demand, and offers every operation of the contract with parsed arguments and the
// caller's identity. Transports never reach below this class.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { monotonicFactory } from 'ulidx';
import type {
  Actor,
  HistoryResult,
  LinkResult,
  LinkManyResult,
  ListResult,
  MemoryView,
  MutationResult,
  NeighborsResult,
  ParsedArgs,
  RecallResult,
  RememberManyResult,
  RememberResult,
  StatsResult,
  StoreInfo,
  StoreListResult,
  StoreResetResult,
  BackupInfo,
  StoreBundle,
  StoreImportResult,
  BackupListResult,
  ActivityItem,
  ActivitySummary,
  AtlasResult,
  OverviewResult,
  SystemInfo,
  TokenRotateResult,
  ActivityListResult,
  CalibrationResult,
  ClientListResult,
  SetupCheckResult,
  SetupPlanResult,
  SetupWriteResult,
  EmbeddingStatusView,
  FindProceduresResult,
  MapResult,
  BootstrapResult,
  OutcomeResult,
  TimelineResult,
  ModelInfo,
  ModelListResult,
  IngestCancelResult,
  IngestFoldersResult,
  IngestListResult,
  IngestReport,
  IngestUndoResult,
  IngestUploadResult,
  DreamCancelResult,
  DreamListResult,
  DreamReport,
  ReviewDecideResult,
  ReviewListResult,
} from '../../shared/api';
import { methods } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { MemoryChange } from '../../shared/events';
import { ActivityLog } from './activity';
import { AuditService } from './audit/service';
import { Doctor } from './doctor/doctor';
import { QualityLab } from './eval/lab';
import { ClientRegistry } from './clients';
import { setupEnvironment } from './setup/environment';
import { check as setupCheck, plan as setupPlan, write as setupWrite } from './setup/setup';
import { EngineEvents } from './events';
import { isChampion, outcomes, recordOutcome, wilsonLower } from './memory/procedures';
import { bootstrapContext, memoryMap, timeline } from './memory/views';
import { atlas } from './memory/atlas';
import { overview, RecallLatencies } from './memory/overview';
import { rotateToken } from './store/token';
import { LOCI_VERSION } from '../../shared/version';
import { loadTokenCounter } from './recall/budget';
import { createLink, neighbors, removeLink } from './memory/links';
import { actorName, isPerson } from './memory/model';
import {
  eraseMemory,
  forgetMemory,
  promoteMemory,
  restoreMemory,
  tagMemory,
  updateMemory,
} from './memory/mutate';
import { getMemory, history, listMemories, loadRow, stats } from './memory/read';
import {
  insertMemories,
  prepareMemories,
  type CreatedMemory,
  type RememberItem,
} from './memory/remember';
import { IngestService, type IngestHooks } from './ingest/service';
import { DreamService, type DreamHooks } from './dream/service';
import type { IngestLimits } from './ingest/limits';
import { rehearseMemories, strengthenCoRecalled } from './memory/state';
import { recall } from './recall/recall';
import { loadConfig, type Config } from './config';
import type { ModelCatalogue } from './embed/catalogueService';
import { Semantic, type EmbedWrites } from './semantic';
import type { SynchronousMode } from './store/database';
import { DataDirLock, type OwnerKind } from './store/lock';
import { resolveDataDir } from './store/paths';
import { StoreRegistry, type OpenStore } from './store/registry';
import { backupDatabase, listBackups } from './store/backup';
import { bundleDigest, checkBundle, exportBundle, importBundle } from './store/bundle';
import { assertDependencyVersions } from './dependencies';
import { storageError } from './store/storageErrors';
import { BulkDeleteGuard } from './memory/bulkGuard';

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
}

export class Engine {
  readonly events = new EngineEvents();
  readonly activity = new ActivityLog(this.events);
  readonly clients = new ClientRegistry((connected) =>
    this.events.emit('clients.changed', { connected }),
  );
  readonly recallLatencies = new RecallLatencies();
  /** Where this engine is served over HTTP, set by the daemon once it listens. */
  private serving: {
    url: string;
    port: number;
    tokenPath: string | null;
    /** The address bound (the URL shows 127.0.0.1 for 0.0.0.0). */
    host?: string;
  } | null = null;
  private readonly stores = new Map<string, Promise<OpenStore>>();
  private readonly pendingRehearsals = new Map<
    string,
    { rids: Set<number>; pairs: Map<string, [number, number]> }
  >();
  private rehearsalTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly newId = monotonicFactory(pooledRandom());
  readonly now: () => number;
  /** Agents past N deletions in a window need the user's confirmation. */
  readonly bulkDeletes: BulkDeleteGuard;

  readonly semantic: Semantic;
  /** File ingestion: batches, uploads, the parser worker, allowed folders. */
  private readonly ingest: IngestService;
  /** Audit chain queries and verification, and the MCP clients' read log. */
  readonly audit: AuditService;
  readonly doctor: Doctor;
  /** The quality lab: recalls marked by a person, run again under other rankings. */
  readonly lab: QualityLab;
  /** Dream cycles, the review inbox and the idle-time scheduler. */
  readonly dreams: DreamService;

  private constructor(
    readonly dataDir: string,
    private readonly lock: DataDirLock,
    private readonly registry: StoreRegistry,
    readonly config: Config,
    private readonly options: EngineOptions,
  ) {
    this.now = options.clock ?? Date.now;
    this.bulkDeletes = new BulkDeleteGuard(this.now);
    this.audit = new AuditService((name) => this.store(name), this.events, this.now);
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
    this.dreams = new DreamService(
      {
        config,
        events: this.events,
        now: this.now,
        newId: () => this.newId(),
        env: options.env ?? process.env,
        store: (name) => this.store(name),
        flush: () => this.flushRehearsals(),
        created: (store, created, actor) => this.afterCreate(store, created, actor),
        changed: (store, ids, change, actor) => this.changed(store, ids, change, actor),
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
      created: (store, created, actor) => this.afterCreate(store, created, actor),
      changed: async (store, ids, change, actor) => {
        this.changed(store, ids, change, actor);
        if (change === 'restored') await this.semantic.afterWrite(store);
      },
      ...(options.ingest?.limits ? { limits: options.ingest.limits } : {}),
      ...(options.ingest?.hooks ? { hooks: options.ingest.hooks } : {}),
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
      const registry = new StoreRegistry(dataDir, { synchronous: options.synchronous ?? 'full' });
      const config = loadConfig(dataDir);
      // Stores open on first use, so that one damaged store never locks the user out of
      // the others (or out of `loci stores reset`).
      return new Engine(dataDir, lock, registry, config, options);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  get lockInfo() {
    return this.lock.current;
  }

  /** Records the daemon's port and token location in the lock file. */
  updateLock(patch: Parameters<DataDirLock['update']>[0]): void {
    this.lock.update(patch);
  }

  /** The open store for a name (absent: `default`); unknown names are an error. */
  async store(name: string | undefined): Promise<OpenStore> {
    if (this.closed) throw new LociError('unavailable', 'The engine is shut down.');
    const resolved = this.registry.resolve(name);
    let opening = this.stores.get(resolved);
    if (!opening) {
      opening = this.registry.open(resolved);
      this.stores.set(resolved, opening);
      opening.catch(() => this.stores.delete(resolved));
    }
    return opening;
  }

  // ------------------------------------------------------------------ memories

  async remember(args: ParsedArgs<'memory.remember'>, actor: Actor): Promise<RememberResult> {
    const { store: name, ...item } = args;
    const [result] = (await this.rememberItems(name, [item], actor)).results;
    return result as RememberResult;
  }

  async rememberMany(
    args: ParsedArgs<'memory.rememberMany'>,
    actor: Actor,
  ): Promise<RememberManyResult> {
    return this.rememberItems(args.store, args.items, actor);
  }

  private async rememberItems(name: string | undefined, items: RememberItem[], actor: Actor) {
    const store = await this.store(name);
    const prepared = await prepareMemories(items);
    const { results, created } = insertMemories(store, prepared, actor, {
      newId: () => this.newId(),
      now: this.now(),
    });
    if (created.length > 0) await this.afterCreate(store, created, actor);
    return { results };
  }

  /** After new memories are committed: the recogniser, the event, their vectors. */
  private async afterCreate(store: OpenStore, created: CreatedMemory[], actor: Actor) {
    if (actor.kind !== 'dream') this.dreams.noteActivity();
    this.semantic.memoriesCreated(store, created);
    this.events.emit('memory.changed', {
      store: store.name,
      ids: created.map((m) => m.id),
      change: 'created',
      actor: actorName(actor),
    });
    await this.semantic.afterWrite(store, created);
  }

  async recall(args: ParsedArgs<'memory.recall'>, caller: Actor): Promise<RecallResult> {
    let actor = caller;
    if (args.as_client !== undefined) {
      if (!isPerson(caller)) {
        throw new LociError('forbidden', 'Only a person can recall as another client.');
      }
      // A simulation: the client's view of the store, and no rehearsal.
      actor = { kind: 'mcp', client: args.as_client, transport: 'simulated' };
      args = { ...args, rehearse: false, include_quarantined: false };
    }
    const store = await this.store(args.store);
    this.dreams.noteActivity();
    const ctx = await this.semantic.recallContext(store, actor, this.now(), (rids, pairs) =>
      this.queueRehearsal(store.name, rids, pairs),
    );
    const result = await recall(ctx, args);
    this.recallLatencies.add(result.timings.total_ms ?? 0);
    this.audit.noteRead(
      store,
      actor,
      'memory.recall',
      result.results.map((r) => r.id),
    );
    return result;
  }

  async get(args: ParsedArgs<'memory.get'>, actor: Actor): Promise<MemoryView> {
    const store = await this.store(args.store);
    const view = getMemory(store, actor, args.id, args.include_deleted, this.now());
    this.audit.noteRead(store, actor, 'memory.get', [view.id]);
    return view;
  }

  async list(args: ParsedArgs<'memory.list'>, actor: Actor): Promise<ListResult> {
    return listMemories(await this.store(args.store), actor, args, this.now());
  }

  async history(args: ParsedArgs<'memory.history'>, actor: Actor): Promise<HistoryResult> {
    return history(await this.store(args.store), actor, args.id);
  }

  async update(args: ParsedArgs<'memory.update'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
    const result = await updateMemory(store, actor, args, this.now);
    if (result.change !== 'unchanged') {
      this.changed(store, [args.id], 'updated', actor);
      await this.semantic.afterWrite(store);
    }
    return result;
  }

  async tag(args: ParsedArgs<'memory.tag'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
    const result = tagMemory(store, actor, args, this.now());
    if (result.change !== 'unchanged') this.changed(store, [args.id], 'updated', actor);
    return result;
  }

  async forget(args: ParsedArgs<'memory.forget'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
    this.bulkDeletes.check(actor, store.name);
    const result = forgetMemory(store, actor, args.id, this.now());
    this.changed(store, [args.id], 'forgotten', actor);
    return result;
  }

  async restore(args: ParsedArgs<'memory.restore'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
    const result = restoreMemory(store, actor, args.id, this.now());
    this.changed(store, [args.id], 'restored', actor);
    await this.semantic.afterWrite(store);
    return result;
  }

  async erase(args: ParsedArgs<'memory.erase'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
    this.bulkDeletes.check(actor, store.name);
    // A pending rehearsal of this memory is skipped at flush: its state row is gone.
    const rid = loadRow(store, args.id)?.rid;
    const result = eraseMemory(store, actor, args.id, this.now());
    if (rid !== undefined) this.semantic.forgetRid(store, rid);
    this.changed(store, [args.id], 'erased', actor);
    return result;
  }

  async promote(args: ParsedArgs<'memory.promote'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
    const result = promoteMemory(store, actor, args.id, this.now());
    this.changed(store, [args.id], 'promoted', actor);
    return result;
  }

  private changed(store: OpenStore, ids: string[], change: MemoryChange, actor: Actor) {
    if (actor.kind !== 'dream') this.dreams.noteActivity();
    if (change !== 'erased') this.semantic.memoriesChanged(store, ids);
    this.events.emit('memory.changed', { store: store.name, ids, change, actor: actorName(actor) });
  }

  // ------------------------------------------------------------------ links

  async linkCreate(args: ParsedArgs<'link.create'>, actor: Actor): Promise<LinkResult> {
    const store = await this.store(args.store);
    const result = createLink(store, actor, args, this.now());
    this.events.emit('link.changed', {
      store: store.name,
      from: args.from,
      to: args.to,
      change: result.change === 'created' ? 'created' : 'updated',
      actor: actorName(actor),
    });
    return result;
  }

  /** Many links in one transaction (imports, bulk linking): all or none. */
  async linkCreateMany(args: ParsedArgs<'link.createMany'>, actor: Actor): Promise<LinkManyResult> {
    const store = await this.store(args.store);
    const now = this.now();
    const results = store.db.transaction(() =>
      args.links.map((link, i) => {
        try {
          return createLink(store, actor, link, now);
        } catch (err) {
          if (err instanceof LociError) {
            throw new LociError(
              err.code,
              `Link ${i + 1} (${link.from} → ${link.to}): ${err.message} No link was made.`,
            );
          }
          throw err;
        }
      }),
    )();
    for (const r of results) {
      this.events.emit('link.changed', {
        store: store.name,
        from: r.from,
        to: r.to,
        change: r.change === 'created' ? 'created' : 'updated',
        actor: actorName(actor),
      });
    }
    const created = results.filter((r) => r.change === 'created').length;
    return { results, created, updated: results.length - created };
  }

  async linkRemove(args: ParsedArgs<'link.remove'>, actor: Actor): Promise<LinkResult> {
    const store = await this.store(args.store);
    const result = removeLink(store, actor, args, this.now());
    this.events.emit('link.changed', {
      store: store.name,
      from: args.from,
      to: args.to,
      change: 'removed',
      actor: actorName(actor),
    });
    return result;
  }

  async neighbors(args: ParsedArgs<'graph.neighbors'>, actor: Actor): Promise<NeighborsResult> {
    const store = await this.store(args.store);
    const result = neighbors(store, actor, args);
    this.audit.noteRead(
      store,
      actor,
      'graph.neighbors',
      result.nodes.map((n) => n.id),
    );
    return result;
  }

  // ------------------------------------------------------------------ views and procedures

  async timeline(args: ParsedArgs<'memory.timeline'>, actor: Actor): Promise<TimelineResult> {
    const store = await this.store(args.store);
    const result = timeline(store, actor, args);
    this.audit.noteRead(
      store,
      actor,
      'memory.timeline',
      result.items.map((m) => m.id),
    );
    return result;
  }

  async map(args: ParsedArgs<'memory.map'>, actor: Actor): Promise<MapResult> {
    const store = await this.store(args.store);
    const result = memoryMap(store, actor, args.max_tokens, await loadTokenCounter());
    // The map is an index of titles: logged as one read of the index, not of each memory.
    this.audit.noteRead(store, actor, 'memory.map', []);
    return result;
  }

  async bootstrap(args: ParsedArgs<'memory.bootstrap'>, actor: Actor): Promise<BootstrapResult> {
    const store = await this.store(args.store);
    const result = bootstrapContext(store, actor, args.max_tokens, await loadTokenCounter());
    // The pinned memories are read whole; the map is one read of the index.
    this.audit.noteRead(store, actor, 'memory.bootstrap', result.pinned);
    return result;
  }

  async recordOutcome(
    args: ParsedArgs<'procedure.recordOutcome'>,
    actor: Actor,
  ): Promise<OutcomeResult> {
    return recordOutcome(await this.store(args.store), actor, args, this.now());
  }

  /**
   * Procedures relevant to a task, the proven ones first: the champions of the last
   * dream's skill competition (in the niche; without one, in any), then 0.7 × relevance
   * + 0.3 × the lower bound of the Wilson interval of their success rate (in the niche).
   */
  async findProcedures(
    args: ParsedArgs<'procedure.find'>,
    actor: Actor,
  ): Promise<FindProceduresResult> {
    const store = await this.store(args.store);
    const found = await this.recall(
      {
        ...(args.store ? { store: args.store } : {}),
        query: args.query,
        limit: Math.min(100, args.limit * 3),
        kinds: ['procedural'],
        include_quarantined: false,
        format: 'compact',
        rehearse: true,
        explain: false,
        history: false,
      },
      actor,
    );
    const getRid = (id: string) => loadRow(store, id)?.rid ?? 0;
    const ranked = found.results
      .map((hit) => {
        const rid = getRid(hit.id);
        const o = outcomes(store, rid, args.niche ?? null);
        const wilson = wilsonLower(o.successes, o.successes + o.failures);
        return {
          ...hit,
          ...o,
          wilson_lower: Math.round(wilson * 1e4) / 1e4,
          champion: isChampion(store, rid, args.niche ?? null),
          rank: 0.7 * hit.score + 0.3 * wilson,
        };
      })
      // Champions of the last skill competition first, then by the blend.
      .sort((a, b) => Number(b.champion) - Number(a.champion) || b.rank - a.rank)
      .slice(0, args.limit)
      .map(({ rank: _rank, ...hit }) => hit);
    return {
      store: store.name,
      abstained: found.abstained,
      degraded: found.degraded,
      results: ranked,
    };
  }

  // ------------------------------------------------------------------ editor setup

  private setupEnv() {
    return setupEnvironment(this.dataDir, {
      ...(this.options.setupHome ? { home: this.options.setupHome } : {}),
      ...(this.options.env ? { env: this.options.env } : {}),
    });
  }

  setupPlan(args: ParsedArgs<'setup.plan'>): SetupPlanResult {
    return { clients: setupPlan(this.setupEnv(), args.client, args.transport) };
  }

  setupWrite(args: ParsedArgs<'setup.write'>): SetupWriteResult {
    return setupWrite(this.setupEnv(), args.client, args.transport);
  }

  setupCheck(): SetupCheckResult {
    const env = this.setupEnv();
    return { clients: setupCheck(env), endpoint: env.endpoint.url };
  }

  activityList(args: ParsedArgs<'activity.list'>): ActivityListResult {
    return { items: this.activity.list(args) };
  }

  activityGet(args: ParsedArgs<'activity.get'>): ActivityItem {
    return this.activity.get(args.id);
  }

  /** Brings back an earlier version's text, title, kind and tags as a new version. */
  async revert(args: ParsedArgs<'memory.revert'>, actor: Actor): Promise<MutationResult> {
    const store = await this.store(args.store);
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
    return this.update(
      methods['memory.update'].schema.parse({
        ...(args.store ? { store: args.store } : {}),
        id: args.id,
        content: v.content,
        title: v.title,
        kind: v.kind,
        tags: v.tags,
        ...(args.expected_version ? { expected_version: args.expected_version } : {}),
      }),
      actor,
    );
  }

  async atlas(args: ParsedArgs<'graph.atlas'>, actor: Actor): Promise<AtlasResult> {
    return atlas(await this.store(args.store), actor, args.limit, this.now());
  }

  async overview(args: ParsedArgs<'stats.overview'>, actor: Actor): Promise<OverviewResult> {
    const store = await this.store(args.store);
    return overview(store, actor, args.days, this.now(), this.recallLatencies);
  }

  /** The daemon says where it serves, for `system.info` and the observatory. */
  setServing(serving: Engine['serving']): void {
    this.serving = serving;
  }

  /** The address the daemon is bound to, or null when nothing serves. */
  servingHost(): string | null {
    if (!this.serving) return null;
    return this.serving.host ?? new URL(this.serving.url).hostname;
  }

  /** Writes this process's lock file again (the doctor's fix for a lost or stale lock). */
  rewriteLock(): void {
    this.lock.update({});
  }

  async systemInfo(): Promise<SystemInfo> {
    const store = await this.store(undefined);
    const sqlite = (store.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    return {
      version: LOCI_VERSION,
      data_dir: this.dataDir,
      url: this.serving?.url ?? null,
      port: this.serving?.port ?? null,
      token_path: this.serving?.tokenPath ?? null,
      owner: this.options.owner ?? 'cli',
      pid: process.pid,
      node: process.version,
      sqlite,
      platform: `${process.platform} ${process.arch}`,
    };
  }

  /** A new daemon token; the running daemon takes it at once (it re-reads the file). */
  tokenRotate(): TokenRotateResult {
    return rotateToken(this.dataDir);
  }

  clientList(): ClientListResult {
    const last = new Map<string, ActivitySummary>();
    for (const item of this.activity.list({ limit: 2000 }))
      if (!last.has(item.actor)) last.set(item.actor, item);
    return { sessions: this.clients.list(), last_calls: [...last.values()] };
  }

  // ------------------------------------------------------------------ stores

  storeList(): StoreListResult {
    // The default store exists from the first time anyone asks.
    this.registry.resolve(undefined);
    return { stores: this.registry.list(), data_dir: this.dataDir };
  }

  storeCreate(args: ParsedArgs<'store.create'>): StoreInfo {
    const info = this.registry.create(args.name);
    this.events.emit('store.created', { store: info.name });
    return info;
  }

  /** Clears a damaged store's marker so that it opens empty; see StoreRegistry.resetCorrupt. */
  async storeRename(args: ParsedArgs<'store.rename'>, actor: Actor): Promise<StoreInfo> {
    const name = this.registry.resolve(args.name);
    await this.flushRehearsals();
    this.audit.reads.flush();
    const opening = this.stores.get(name);
    if (opening) {
      await this.semantic.releaseStore(name);
      this.stores.delete(name);
      const open = await opening.catch(() => null);
      open?.db.close();
    }
    const info = this.registry.rename(name, args.to);
    if (info.name !== name) {
      const store = await this.store(info.name);
      store.db.transaction(() =>
        store.audit.append(
          {
            actor: actorName(actor),
            action: 'store.rename',
            target: null,
            data: { from: name, to: info.name },
          },
          this.now(),
        ),
      )();
      this.events.emit('store.renamed', { store: name, to: info.name });
    }
    return info;
  }

  storeReset(name: string): StoreResetResult {
    this.stores.delete(name);
    return { store: name, ...this.registry.resetCorrupt(name) };
  }

  /** An online backup of a store (consistent while writes go on), checked before it counts. */
  async storeBackup(args: ParsedArgs<'store.backup'>): Promise<BackupInfo> {
    const store = await this.store(args.store);
    return backupDatabase(store.db, {
      dataDir: this.dataDir,
      store: store.name,
      ...(args.to !== undefined ? { to: args.to } : {}),
      now: this.now(),
    });
  }

  /** The store as a portable JSON bundle (store/bundle.ts says what it holds). */
  async storeExport(args: ParsedArgs<'store.export'>): Promise<StoreBundle> {
    const store = await this.store(args.store);
    return exportBundle(store.db, store.name, this.now()) as StoreBundle;
  }

  /**
   * Imports a bundle into a store without memories, in one transaction with its audit
   * entry; then reopens the store so the recogniser and vectors see the new memories.
   */
  async storeImport(args: ParsedArgs<'store.import'>, actor: Actor): Promise<StoreImportResult> {
    if (!isPerson(actor)) throw new LociError('forbidden', 'Only a person can import a store.');
    const bundle = checkBundle(args.bundle);
    const store = await this.store(args.store);
    const counts = store.db.transaction(() => {
      const c = importBundle(store.db, bundle);
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'store.import',
          target: null,
          data: {
            from_store: bundle.store,
            exported_at: bundle.exported_at,
            digest: bundleDigest(bundle),
            ...c,
          },
        },
        this.now(),
      );
      return c;
    })();
    await this.flushRehearsals();
    await this.semantic.releaseStore(store.name);
    this.stores.delete(store.name);
    store.db.close();
    await this.semantic.afterWrite(await this.store(store.name));
    this.events.emit('memory.changed', {
      store: store.name,
      ids: [],
      change: 'created',
      actor: actorName(actor),
    });
    return { store: store.name, ...counts };
  }

  storeBackups(args: ParsedArgs<'store.backups'>): BackupListResult {
    const name = this.registry.resolve(args.store);
    return { store: name, backups: listBackups(this.dataDir, name) };
  }

  async stats(args: ParsedArgs<'stats.get'>, actor: Actor): Promise<StatsResult> {
    const store = await this.store(args.store);
    return { ...stats(store, actor), vectors: this.semantic.statusFor(store) };
  }

  // ------------------------------------------------------------------ semantic

  async calibrate(args: ParsedArgs<'recall.calibrate'>): Promise<CalibrationResult> {
    return this.semantic.calibrate(await this.store(args.store), args.sample);
  }

  /** Embeds every memory of a store that lacks a vector of the active model. */
  async embedPending(store: string | undefined): Promise<EmbeddingStatusView> {
    const s = await this.store(store);
    await this.semantic.scheduleBackfill(s);
    return this.semantic.statusFor(s);
  }

  /** The stores open now (also for maintenance: checkpoints and scheduled backups). */
  async openStores(): Promise<OpenStore[]> {
    const out: OpenStore[] = [];
    for (const opening of this.stores.values()) {
      try {
        out.push(await opening);
      } catch {
        /* not open */
      }
    }
    return out;
  }

  listModels(): ModelListResult {
    return this.semantic.models.listModels();
  }

  async installModel(
    id: string,
    onProgress?: Parameters<ModelCatalogue['installModel']>[2],
  ): Promise<ModelInfo> {
    return this.semantic.models.installModel(id, await this.openStores(), onProgress);
  }

  async removeModel(id: string): Promise<{ id: string; removed: true }> {
    await this.semantic.models.removeModel(id, await this.openStores());
    return { id, removed: true };
  }

  async useModel(id: string): Promise<ModelListResult> {
    return this.semantic.models.useModel(id, await this.openStores());
  }

  // ------------------------------------------------------------------ ingestion

  ingestFiles(args: ParsedArgs<'ingest.files'>, actor: Actor): Promise<IngestReport> {
    return this.ingest.files(args, actor);
  }

  ingestUpload(args: ParsedArgs<'ingest.upload'>): Promise<IngestUploadResult> {
    return this.ingest.upload(args);
  }

  ingestCancel(args: ParsedArgs<'ingest.cancel'>): IngestCancelResult {
    return this.ingest.cancel(args);
  }

  ingestUndo(args: ParsedArgs<'ingest.undo'>, actor: Actor): Promise<IngestUndoResult> {
    return this.ingest.undo(args, actor);
  }

  ingestRedo(args: ParsedArgs<'ingest.redo'>, actor: Actor): Promise<IngestUndoResult> {
    return this.ingest.redo(args, actor);
  }

  ingestList(args: ParsedArgs<'ingest.list'>): Promise<IngestListResult> {
    return this.ingest.list(args);
  }

  ingestFolders(): IngestFoldersResult {
    return this.ingest.folders();
  }

  ingestSetFolders(
    args: ParsedArgs<'ingest.setFolders'>,
    actor: Actor,
  ): Promise<IngestFoldersResult> {
    return this.ingest.setFolders(args, actor);
  }

  // ------------------------------------------------------------------ dreams and the review inbox

  dreamRun(args: ParsedArgs<'dream.run'>, actor: Actor): Promise<DreamReport> {
    return this.dreams.run(args, actor);
  }

  dreamCancel(args: ParsedArgs<'dream.cancel'>): DreamCancelResult {
    return this.dreams.cancel(args);
  }

  dreamList(args: ParsedArgs<'dream.list'>): Promise<DreamListResult> {
    return this.dreams.list(args);
  }

  dreamGet(args: ParsedArgs<'dream.get'>): Promise<DreamReport> {
    return this.dreams.get(args);
  }

  reviewList(args: ParsedArgs<'review.list'>): Promise<ReviewListResult> {
    return this.dreams.reviewList(args);
  }

  reviewAccept(args: ParsedArgs<'review.accept'>, actor: Actor): Promise<ReviewDecideResult> {
    return this.dreams.reviewAccept(args, actor);
  }

  reviewReject(args: ParsedArgs<'review.reject'>, actor: Actor): Promise<ReviewDecideResult> {
    return this.dreams.reviewReject(args, actor);
  }

  // ------------------------------------------------------------------ rehearsal

  private queueRehearsal(store: string, rids: number[], pairs: [number, number][]): void {
    let batch = this.pendingRehearsals.get(store);
    if (!batch) {
      batch = { rids: new Set(), pairs: new Map() };
      this.pendingRehearsals.set(store, batch);
    }
    for (const rid of rids) batch.rids.add(rid);
    for (const [a, b] of pairs) batch.pairs.set(a < b ? `${a}:${b}` : `${b}:${a}`, [a, b]);
    if (!this.rehearsalTimer) {
      this.rehearsalTimer = setTimeout(
        () => void this.flushRehearsals(),
        this.options.rehearsalFlushMs ?? 50,
      );
      this.rehearsalTimer.unref();
    }
  }

  /**
   * Writes the gathered rehearsals and co-recall link strengthening, one transaction per
   * store. Several recalls of the same memory within one window count as one use.
   * Losing a window in a crash loses only use statistics, never a memory.
   */
  async flushRehearsals(): Promise<void> {
    if (this.rehearsalTimer) {
      clearTimeout(this.rehearsalTimer);
      this.rehearsalTimer = null;
    }
    const batches = [...this.pendingRehearsals.entries()];
    this.pendingRehearsals.clear();
    const now = this.now();
    for (const [name, batch] of batches) {
      const store = await this.stores.get(name);
      if (!store) continue;
      store.db.transaction(() => {
        rehearseMemories(store.db, [...batch.rids], now);
        strengthenCoRecalled(store.db, [...batch.pairs.values()], now);
      })();
    }
  }

  // ------------------------------------------------------------------ lifecycle

  async close(): Promise<void> {
    if (this.closed) return;
    await this.dreams.close();
    await this.flushRehearsals();
    this.audit.reads.flush();
    this.closed = true;
    await this.ingest.close();
    await this.semantic.close();
    for (const opening of this.stores.values()) {
      try {
        const store = await opening;
        store.db.pragma('optimize');
        store.db.close();
      } catch {
        /* a store that failed to open has nothing to close */
      }
    }
    this.stores.clear();
    this.lock.release();
  }
}
