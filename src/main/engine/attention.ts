// What needs the person: the Overview's home list. Each item says what waits, how bad it
// is, and where in the observatory to deal with it (a route with its filter): proposals
// in the review inbox, open conflicts, quarantined memories, the doctor's failures and
// warnings, an audit chain not verified lately, recall without a model.
import type {
  AttentionItem,
  AttentionResult,
  AuditAnchorResult,
  DoctorReport,
  EmbeddingStatusView,
} from '../../shared/api';
import type { OpenStore } from './store/registry';
import { stmt } from './store/statements';

/** A chain verified longer ago than this asks to be verified again. */
export const VERIFY_EVERY_DAYS = 7;
const DAY = 86_400_000;
/** Doctor checks with an item of their own here (quarantine, the chain, the model). */
const COVERED = new Set(['memory.quarantine', 'audit.chain', 'embed.model']);

function count(store: OpenStore, sql: string): number {
  return (stmt(store.db, sql).pluck().get() as number | undefined) ?? 0;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export function attention(input: {
  store: OpenStore;
  doctor: DoctorReport;
  anchor: AuditAnchorResult;
  vectors: EmbeddingStatusView;
  now: number;
}): AttentionResult {
  const { store, doctor, anchor, vectors, now } = input;
  const items: AttentionItem[] = [];
  const conflicts = count(store, `SELECT COUNT(*) FROM conflict WHERE state = 'open'`);
  if (conflicts)
    items.push({
      id: 'conflicts',
      severity: 'warn',
      count: conflicts,
      title: `${plural(conflicts, 'conflict')} to decide`,
      detail:
        'Memories that disagree: say which holds now, where each holds, or that they do not conflict.',
      route: '/conflicts',
    });
  const review = count(store, `SELECT COUNT(*) FROM review_item WHERE state = 'pending'`);
  if (review)
    items.push({
      id: 'review',
      severity: 'info',
      count: review,
      title: `${plural(review, 'proposal')} in the review inbox`,
      detail: 'What dreams propose (merges, schemas, links) waits for you to accept or reject.',
      route: '/dreams?tab=inbox',
    });
  const quarantined = count(
    store,
    `SELECT COUNT(*) FROM memory WHERE trust = 'quarantined' AND deleted_at IS NULL`,
  );
  if (quarantined)
    items.push({
      id: 'quarantine',
      severity: 'warn',
      count: quarantined,
      title: `${plural(quarantined, 'memory', 'memories')} in quarantine`,
      detail:
        'They looked like they hold a secret, so no agent is given them: redact, promote or erase.',
      route: '/memories?trust=quarantined',
    });
  // Checks that say what an item of their own says already are left to that item.
  const bad = doctor.checks.filter((c) => c.status !== 'ok' && !COVERED.has(c.id));
  if (bad.length) {
    const failed = bad.filter((c) => c.status === 'fail').length;
    items.push({
      id: 'doctor',
      severity: failed ? 'fail' : 'warn',
      count: bad.length,
      title: failed
        ? `${plural(failed, 'doctor check')} failed`
        : `${plural(bad.length, 'doctor warning')}`,
      detail: bad
        .slice(0, 3)
        .map((c) => `${c.title}: ${c.finding}`)
        .join(' · '),
      route: '/doctor',
    });
  }
  const last = anchor.last_verify;
  if (!last || !last.ok || now - Date.parse(last.at) > VERIFY_EVERY_DAYS * DAY) {
    const days = last ? Math.floor((now - Date.parse(last.at)) / DAY) : null;
    items.push({
      id: 'audit',
      severity: last && !last.ok ? 'fail' : 'info',
      title: !last
        ? 'The audit chain was never verified'
        : !last.ok
          ? 'The audit chain failed its last verification'
          : `The audit chain was last verified ${plural(days as number, 'day')} ago`,
      detail: `${plural(anchor.head.seq, 'entry', 'entries')} in the chain. Verifying reads it and changes nothing.`,
      route: '/audit',
    });
  }
  if (vectors.semantic === 'off')
    items.push({
      id: 'model',
      severity: 'info',
      title: 'Recall has no embedding model',
      detail: 'Only words match: install a model in Settings so that recall finds what is meant.',
      route: '/settings',
    });
  const rank = { fail: 0, warn: 1, info: 2 } as const;
  items.sort((a, b) => rank[a.severity] - rank[b.severity]);
  return { store: store.name, items, doctor_ran_at: doctor.ran_at };
}
