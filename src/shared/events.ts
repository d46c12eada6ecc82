// The event map: what the engine announces after a change is committed. The HTTP
// transport relays these as server-sent events and the Electron shell over IPC.
import type {
  ActivitySummary,
  DreamPhaseName,
  DreamStatus,
  IngestFileStatus,
  IngestTotals,
  ReviewState,
} from './api';

export type MemoryChange = 'created' | 'updated' | 'forgotten' | 'restored' | 'erased' | 'promoted';

export interface EventMap {
  'memory.changed': { store: string; ids: string[]; change: MemoryChange; actor: string };
  'link.changed': {
    store: string;
    from: string;
    to: string;
    change: 'created' | 'updated' | 'removed';
    actor: string;
  };
  'store.created': { store: string };
  /** A store was renamed (the observatory follows it if it was the one shown). */
  'store.renamed': { store: string; to: string };
  /** The background embedding of a store's memories. */
  'embedding.progressed': { store: string; model: string; done: number; total: number };
  /**
   * An import's progress: `scanning` (walking folders; `files` grows), then per file
   * `file` (started) and `chunk` (chunks written so far), `file-done` with its status,
   * and `finished` with the totals (also when cancelled).
   */
  'ingest.progressed': {
    store: string;
    batch: string;
    phase: 'scanning' | 'file' | 'chunk' | 'file-done' | 'finished';
    /** The file this is about (null for scanning and finished). */
    file: string | null;
    /** 0-based index of the file among `files`. */
    file_index: number;
    files: number;
    chunks_done: number;
    chunks_total: number | null;
    bytes_done: number;
    bytes_total: number;
    status: IngestFileStatus | null;
    totals: IngestTotals | null;
  };
  /** An import batch was undone or redone. */
  'ingest.changed': { store: string; batch: string; status: 'done' | 'undone' };
  /**
   * A store being encrypted, decrypted or re-keyed: `backup` (the copy taken first),
   * `database` (rows copied into the new file), `backups` (files re-encrypted), `done`.
   */
  'store.crypt.progressed': {
    store: string;
    op: 'encrypt' | 'decrypt' | 'rekey';
    phase: 'backup' | 'database' | 'backups' | 'done';
    done: number;
    total: number;
  };
  /** A verification of the audit chain moving along (`done` when it finished). */
  'audit.progressed': { store: string; checked: number; total: number; done: boolean };
  /** The doctor ran (its verdict, for the tray's colour and the Doctor view). */
  'doctor.finished': { store: string; status: 'ok' | 'warn' | 'fail' };
  /** An MCP session opened or closed, or its client said its name. */
  'clients.changed': { connected: number };
  /** A call by a client (MCP), for the activity feed. */
  'activity.recorded': ActivitySummary;
  /** The quality lab: a case marked or removed, or an eval run saved. */
  'eval.changed': { store: string; change: 'marked' | 'removed' | 'ran' };
  /**
   * A dream cycle moving along: `started`, then per phase `phase` (started) and
   * `phase-done` (with its counts), and `progress` within a long phase.
   */
  'dream.progressed': {
    store: string;
    cycle: string;
    dry_run: boolean;
    step: 'started' | 'phase' | 'progress' | 'phase-done';
    phase: DreamPhaseName | null;
    phase_index: number;
    phases: number;
    /** Within a phase: items done of total (null when not known). */
    done: number | null;
    total: number | null;
  };
  /** A dream cycle ended (done, cancelled, failed). */
  'dream.finished': {
    store: string;
    cycle: string;
    dry_run: boolean;
    status: DreamStatus;
    changes: number;
    proposals: number;
  };
  /** Review items were proposed, accepted or rejected. */
  'review.changed': { store: string; ids: string[]; state: ReviewState };
  /** A model download. */
  'models.progressed': {
    model: string;
    file: string;
    index: number;
    files: number;
    received: number;
    total: number | null;
  };
  /** A transcript being read: bytes of the file so far (`done` at the end). */
  'transcript.progressed': {
    store: string;
    path: string;
    bytes: number;
    total: number;
    done: boolean;
  };
  /** Contradiction candidates found, decided or reopened. */
  'conflict.changed': {
    store: string;
    ids: string[];
    change: 'detected' | 'resolved' | 'reopened';
    actor: string;
  };
  /** A scan of the backlog for contradictions (conflict.scan): memories compared so far. */
  'conflict.progressed': {
    store: string;
    done: number;
    total: number;
    found: number;
    finished: boolean;
  };
  /** A language model distilling a journal: windows asked about so far, of those planned. */
  'journal.distill.progressed': {
    store: string;
    journal_id: string;
    model: string;
    windows: number;
    total: number;
    done: boolean;
  };
  /** A store's sync: a cycle ran, failed, or the store joined or left its hub or folder. */
  'sync.changed': { store: string; state: 'idle' | 'syncing' | 'error' | 'left' };
}

export type EventName = keyof EventMap;

export const EVENT_NAMES: EventName[] = [
  'memory.changed',
  'link.changed',
  'store.created',
  'store.renamed',
  'embedding.progressed',
  'models.progressed',
  'activity.recorded',
  'clients.changed',
  'audit.progressed',
  'store.crypt.progressed',
  'doctor.finished',
  'ingest.progressed',
  'ingest.changed',
  'dream.progressed',
  'dream.finished',
  'review.changed',
  'eval.changed',
  'transcript.progressed',
  'conflict.changed',
  'conflict.progressed',
  'journal.distill.progressed',
  'sync.changed',
];
