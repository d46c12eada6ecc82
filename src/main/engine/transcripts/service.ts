// Transcripts as a source: each agent session read from its log becomes a journal in the
// store (every turn kept with its class; a turn with a credential in it quarantined) and
// an episode memory (episode.ts). Importing the same file again changes nothing; a
// session imported again after it grew replaces its journal and updates its episode (a
// new version). Each import is one transaction with its audit entry.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type {
  Actor,
  JournalDistillResult,
  JournalListResult,
  JournalProposeResult,
  JournalView,
  JournalWindowResult,
  ParsedArgs,
  TranscriptAccounting,
  TranscriptFileReport,
  TranscriptImportResult,
} from '../../../shared/api';
import { EVIDENCE_CLASSES, LIMITS, type TurnClass } from '../../../shared/constants';
import { LociError } from '../../../shared/errors';
import type { Config } from '../config';
import type { EngineEvents } from '../events';
import type { LlmClient } from '../llm';
import { checkAllowed } from '../ingest/folders';
import { actorName, isPerson, MEMORY_COLUMNS, type MemoryRow } from '../memory/model';
import { applyNewText } from '../memory/mutate';
import { loadRow } from '../memory/read';
import { insertMemories, prepareMemories, type CreatedMemory } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { normalizeTags } from '../write/gate';
import { scanSecretsMany } from '../write/scanHost';
import { evidenceOf, keepProposed, writeCandidates, type Distilled } from './distill';
import { distillWithModel, journalWindow } from './model';
import { readReply } from './prompt';
import { buildEpisode, type EpisodeTurn } from './episode';
import { getJournal, listJournals, readable, report, type JournalRow } from './journals';
import { extractCandidates } from './extract';
import { gateCandidate } from './gate';
import { DEFAULT_TRANSCRIPT_LIMITS, readTranscript, type TranscriptLimits } from './read';
import { progressSink, stopIfCancelled, type CallWatch } from '../progress';

/** What the service needs of the engine core. */
export interface TranscriptHost {
  readonly events: EngineEvents;
  now(): number;
  newId(): string;
  store(name: string | undefined): Promise<OpenStore>;
  /** The folders agents may read from (an agent's import is held to them). */
  allowedFolders(): string[];
  created(store: OpenStore, created: CreatedMemory[], actor: Actor): Promise<void>;
  changed(store: OpenStore, ids: string[], change: 'updated', actor: Actor): void;
  /** Accepts distilled proposals at once when the configuration says so (dream.auto_accept.distill). */
  autoAccept(store: OpenStore, reviewIds: string[], actor: Actor): Promise<void>;
  /** The configured language model (`llm`), or null. */
  llm(): LlmClient | null;
  distillConfig(): Config['distill'];
}

/** Transcript files one import may find by walking folders. */
const MAX_FILES = 10_000;
/** Turns scanned for credentials per request to the scanner worker. */
const SCAN_BATCH = 256;

async function digestOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The transcript files named: files as they are, folders walked for `*.jsonl`. */
async function transcriptFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const full = resolve(p);
    const s = await stat(full).catch(() => null);
    if (!s) throw new LociError('not-found', `There is no file or folder ${full}.`);
    if (s.isFile()) out.push(full);
    else if (s.isDirectory()) {
      const entries = await readdir(full, { recursive: true, withFileTypes: true });
      for (const e of entries) {
        if (e.isFile() && e.name.endsWith('.jsonl')) out.push(join(e.parentPath, e.name));
      }
    }
    if (out.length > MAX_FILES) {
      throw new LociError(
        'invalid-args',
        `More than ${MAX_FILES} transcripts under ${paths.join(', ')}: name fewer folders.`,
      );
    }
  }
  return [...new Set(out)].sort();
}

export class TranscriptService {
  constructor(
    private readonly host: TranscriptHost,
    private readonly limits: TranscriptLimits = DEFAULT_TRANSCRIPT_LIMITS,
  ) {}

  async import(
    args: ParsedArgs<'transcript.import'>,
    actor: Actor,
    watch?: CallWatch,
  ): Promise<TranscriptImportResult> {
    const store = await this.host.store(args.store);
    // An agent reads only inside the folders the person allowed (as ingest_file does).
    if (!isPerson(actor))
      await checkAllowed(
        args.paths.map((p) => resolve(p)),
        this.host.allowedFolders(),
      );
    const files = await transcriptFiles(args.paths);
    const reports: TranscriptFileReport[] = [];
    // Each file is one transaction: a cancel stops between files (or while one is being
    // read, before anything of it is written).
    const progress = progressSink(watch ?? {});
    try {
      for (const [i, path] of files.entries()) {
        stopIfCancelled(watch, 'The import');
        progress.report({ done: i, total: files.length, message: path });
        try {
          reports.push(
            await this.importFile(store, path, args.format, args.model, actor, (part) => {
              stopIfCancelled(watch, 'The import');
              progress.report({ done: i + part, total: files.length, message: path });
            }),
          );
        } catch (err) {
          if (!(err instanceof LociError) || err.code === 'cancelled') throw err;
          reports.push({
            path,
            status: 'failed',
            format: null,
            session: null,
            journal_id: null,
            episode_id: null,
            lines: 0,
            accounting: null,
            distilled: null,
            reason: err.message,
          });
        }
      }
      progress.report({ done: files.length, total: files.length, message: 'done' });
    } finally {
      progress.close();
    }
    const count = (s: TranscriptFileReport['status']) =>
      reports.filter((r) => r.status === s).length;
    return {
      store: store.name,
      files: reports,
      totals: {
        imported: count('imported'),
        unchanged: count('unchanged'),
        replaced: count('replaced'),
        failed: count('failed'),
      },
    };
  }

  private async importFile(
    store: OpenStore,
    path: string,
    format: ParsedArgs<'transcript.import'>['format'],
    model: ParsedArgs<'transcript.import'>['model'],
    actor: Actor,
    /** How much of the file is read (0–1); it may throw to stop the import. */
    onRead: (part: number) => void = () => undefined,
  ): Promise<TranscriptFileReport> {
    const size = (await stat(path)).size;
    if (size > LIMITS.transcriptMaxBytes) {
      throw new LociError(
        'invalid-args',
        `${path} is ${Math.round(size / 1024 / 1024)} MiB; transcripts up to ${LIMITS.transcriptMaxBytes / 1024 / 1024} MiB are read.`,
      );
    }
    const digest = await digestOf(path);
    const same = stmt(store.db, 'SELECT * FROM journal WHERE digest = ?').get(digest) as
      JournalRow | undefined;
    if (same) return report(store, same, path, 'unchanged');

    const progress = (bytes: number, done = false) =>
      this.host.events.emit('transcript.progressed', {
        store: store.name,
        path,
        bytes,
        total: size,
        done,
      });
    const read = await readTranscript(path, {
      format: format === 'auto' ? undefined : format,
      limits: this.limits,
      onProgress: (bytes) => {
        onRead(size > 0 ? Math.min(1, bytes / size) * 0.9 : 0);
        progress(bytes);
      },
    });
    // Credentials in any turn: the turn is kept, quarantined, and left out of the episode.
    const quarantined: boolean[] = [];
    for (let i = 0; i < read.turns.length; i += SCAN_BATCH) {
      const scans = await scanSecretsMany(read.turns.slice(i, i + SCAN_BATCH).map((t) => t.text));
      for (const s of scans) quarantined.push(s.rules.length > 0);
    }
    const turns: EpisodeTurn[] = read.turns.map((t, i) => ({
      ...t,
      quarantined: !!quarantined[i],
    }));
    const episode = buildEpisode(read.format, read.meta, turns);
    const sequenced = turns.map((t, seq) => ({ ...t, seq }));
    const distilled: Distilled[] = extractCandidates(sequenced).map((candidate) => ({
      candidate,
      verdict: gateCandidate(sequenced, candidate),
    }));
    const byClass = Object.fromEntries(EVIDENCE_CLASSES.map((c) => [c, 0])) as Record<
      TurnClass,
      number
    >;
    for (const t of turns) byClass[t.class]++;
    const usedLines = new Set(turns.map((t) => t.line)).size;
    const accounting: TranscriptAccounting = {
      used: usedLines,
      ignored: read.ignored,
      skipped: read.skipped,
      skipped_total: read.skippedTotal,
      not_kept: read.stoppedAt === null ? 0 : read.lines - read.stoppedAt + 1,
      stopped_at: read.stoppedAt,
      turns: turns.length,
      truncated: read.truncated,
      quarantined: turns.filter((t) => t.quarantined).length,
      by_class: byClass,
    };
    // A line that gave turns and then hit the budget is counted once, as not kept.
    if (read.stoppedAt !== null && turns.some((t) => t.line === read.stoppedAt)) {
      accounting.used--;
    }

    // The session imported before, shorter: its journal is replaced, its episode updated.
    const earlier = (
      read.meta.session
        ? stmt(store.db, 'SELECT * FROM journal WHERE format = ? AND session = ?').get(
            read.format,
            read.meta.session,
          )
        : stmt(store.db, 'SELECT * FROM journal WHERE source = ? AND session IS NULL').get(path)
    ) as JournalRow | undefined;
    const earlierEpisode =
      earlier?.episode_rid != null
        ? (stmt(
            store.db,
            `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.rid = ? AND m.deleted_at IS NULL`,
          ).get(earlier.episode_rid) as MemoryRow | undefined)
        : undefined;
    const prepared = earlierEpisode
      ? null
      : await prepareMemories([
          {
            content: episode.content,
            title: episode.title,
            kind: 'episodic',
            tags: episode.tags,
            ...(episode.occurredAt !== null
              ? { occurred_at: new Date(episode.occurredAt).toISOString() }
              : {}),
            ...(read.meta.session
              ? { session: read.meta.session.slice(0, LIMITS.sessionMaxChars) }
              : {}),
          },
        ]);
    const episodeScan = earlierEpisode
      ? (await scanSecretsMany([`${episode.title}\n${episode.content}`]))[0]
      : null;

    const now = this.host.now();
    const id = earlier?.id ?? this.host.newId();
    const session = read.meta.session?.slice(0, LIMITS.sessionMaxChars);
    const direct = distilled.filter((d) => d.verdict.accepted && d.candidate.policy === 'direct');
    const preparedDirect = direct.length
      ? await prepareMemories(
          direct.map((d) => ({
            content: d.candidate.content,
            title: d.candidate.title,
            kind: d.candidate.kind,
            tags: d.candidate.tags,
            evidence: evidenceOf(id, d.verdict),
            ...(session ? { session } : {}),
          })),
        )
      : [];
    const times = turns.map((t) => t.at).filter((t): t is number => t !== null);
    const started = read.meta.at ?? (times.length ? Math.min(...times) : null);
    const ended = times.length ? Math.max(...times) : null;
    const outcome = store.db.transaction(() => {
      let created: CreatedMemory[] = [];
      let episodeRid: number;
      let updated = false;
      if (earlierEpisode) {
        const r = applyNewText(
          store,
          actor,
          earlierEpisode,
          { title: episode.title, content: episode.content, secretRules: episodeScan?.rules ?? [] },
          now,
          { tags: normalizeTags(episode.tags), occurred_at: episode.occurredAt },
        );
        updated = r.change !== 'unchanged';
        episodeRid = earlierEpisode.rid;
      } else {
        const inserted = insertMemories(store, prepared ?? [], actor, {
          newId: () => this.host.newId(),
          now,
        });
        created = inserted.created;
        const first = inserted.results[0];
        episodeRid = loadRow(store, first?.id ?? '')?.rid ?? 0;
      }
      if (earlier) stmt(store.db, 'DELETE FROM journal WHERE rid = ?').run(earlier.rid);
      const info = stmt(
        store.db,
        `INSERT INTO journal (id, source, format, session, digest, cwd, started_at, ended_at,
            lines, accounting, episode_rid, imported_at, imported_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        path,
        read.format,
        read.meta.session ?? null,
        digest,
        read.meta.cwd ?? null,
        started,
        ended,
        read.lines,
        JSON.stringify(accounting),
        episodeRid || null,
        now,
        actorName(actor),
      );
      const addTurn = stmt(
        store.db,
        `INSERT INTO journal_turn (journal_rid, seq, line, class, at, tool, text, exit_code, quarantined)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      turns.forEach((t, seq) =>
        addTurn.run(
          info.lastInsertRowid,
          seq,
          t.line,
          t.class,
          t.at,
          t.tool,
          t.text,
          t.exit,
          t.quarantined ? 1 : 0,
        ),
      );
      const counts = writeCandidates({
        store,
        journalRid: Number(info.lastInsertRowid),
        journalId: id,
        format: read.format,
        session,
        distilled,
        preparedDirect,
        actor,
        now,
        newId: () => this.host.newId(),
        created,
      });
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'transcript.import',
          target: id,
          data: {
            source: path,
            digest,
            format: read.format,
            session: read.meta.session ?? null,
            lines: read.lines,
            turns: turns.length,
            quarantined: accounting.quarantined,
            replaced: earlier ? earlier.digest : null,
            distilled: counts.counts,
          },
        },
        now,
      );
      return { created, updated, rid: Number(info.lastInsertRowid), ...counts };
    })();
    progress(size, true);
    if (outcome.created.length) await this.host.created(store, outcome.created, actor);
    if (outcome.updated && earlierEpisode) {
      this.host.changed(store, [earlierEpisode.id], 'updated', actor);
    }
    if (outcome.proposals.length) await this.host.autoAccept(store, outcome.proposals, actor);
    const row = stmt(store.db, 'SELECT * FROM journal WHERE rid = ?').get(
      outcome.rid,
    ) as JournalRow;
    const result: TranscriptFileReport = {
      ...report(store, row, path, earlier ? 'replaced' : 'imported'),
      distilled: outcome.counts,
    };
    // Then the configured language model, when there is one and the caller did not say
    // it will ask its own (MCP sampling).
    const llm =
      model === 'auto' && this.host.distillConfig().model_on_import ? this.host.llm() : null;
    if (llm) result.model = await distillWithModel(this.host, store, row, llm, actor);
    return result;
  }

  /**
   * Memories an agent (or the client's model, by MCP sampling) draws from a journal,
   * through the same gate as the extractors': what passes waits in the review inbox, what
   * does not is kept with the gate's reasons beside the journal.
   */
  async propose(args: ParsedArgs<'journal.propose'>, actor: Actor): Promise<JournalProposeResult> {
    const store = await this.host.store(args.store);
    const row = readable(store, args.journal_id, actor);
    const read = args.reply !== undefined ? readReply(args.reply) : null;
    const candidates = read ? read.candidates : (args.candidates ?? []);
    const kept = await keepProposed(this.host, store, row, candidates, args.source, actor);
    const problems = read?.problems ?? [];
    if (args.source === 'sampling') {
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'journal.sampled',
          target: row.id,
          data: { model: args.model ?? null, candidates: candidates.length, problems },
        },
        this.host.now(),
      );
    }
    return { store: store.name, journal_id: row.id, results: kept, problems };
  }

  /** One window of a journal as the text a model (or an agent) distils. */
  async window(args: ParsedArgs<'journal.window'>, actor: Actor): Promise<JournalWindowResult> {
    const store = await this.host.store(args.store);
    return journalWindow(store, args, this.host.distillConfig(), actor);
  }

  /** Candidates from the configured language model (`llm`), through the gate. */
  async distill(args: ParsedArgs<'journal.distill'>, actor: Actor): Promise<JournalDistillResult> {
    const store = await this.host.store(args.store);
    const row = readable(store, args.id, actor);
    const llm = this.host.llm();
    if (!llm) {
      throw new LociError(
        'unavailable',
        'No language model is configured: set llm.url (an OpenAI-compatible endpoint on this machine, e.g. http://127.0.0.1:11434/v1) and llm.model in config.json.',
      );
    }
    const report = await distillWithModel(this.host, store, row, llm, actor, args.max_windows);
    return { store: store.name, journal_id: row.id, ...report };
  }

  async list(args: ParsedArgs<'journal.list'>, actor: Actor): Promise<JournalListResult> {
    return listJournals(await this.host.store(args.store), args, actor);
  }

  async get(args: ParsedArgs<'journal.get'>, actor: Actor): Promise<JournalView> {
    return getJournal(await this.host.store(args.store), args, actor);
  }
}
