// Checks of what the store holds: the audit chain's last verification and anchor,
// memories about to fade, and quarantined memories waiting for a person.
import { AT_RISK_RATIO } from '../cognition/fsrs';
import { readLastVerify } from '../audit/anchorFile';
import { missingAuditTriggers, restoreAuditTriggers } from '../audit/chain';
import { chainHead } from '../audit/verify';
import { finding, ok, type CheckDefinition } from './types';

const DAY_MS = 86_400_000;

export const contentChecks: CheckDefinition[] = [
  {
    id: 'audit.triggers',
    group: 'Audit',
    title: 'Append-only triggers',
    run({ store }) {
      const missing = missingAuditTriggers(store.db);
      if (missing.length > 0) {
        return finding(
          'fail',
          `The audit table's append-only trigger${missing.length === 1 ? ' is' : 's are'} missing (${missing.join(', ')}): audit entries can be changed or deleted without a trace in the database itself.`,
          'Restore them now (recorded in the chain); Loci also restores them at its next start. Then verify the chain: someone changed the file outside Loci.',
          true,
        );
      }
      const restored = store.db
        .prepare(
          "SELECT at FROM audit WHERE action = 'audit.triggers_restored' ORDER BY seq DESC LIMIT 1",
        )
        .get() as { at: number } | undefined;
      if (restored) {
        const when = new Date(restored.at).toISOString().slice(0, 16).replace('T', ' ');
        return finding(
          'warn',
          `Present, but they were found dropped and restored on ${when}: the file was changed outside Loci.`,
          'Verify the chain (loci audit verify) and find out who had write access to the data directory.',
        );
      }
      return ok('Both append-only triggers are in place.');
    },
    fix({ store }) {
      const restored = restoreAuditTriggers(store.db, store.audit, 'doctor', Date.now());
      return restored.length
        ? `Restored ${restored.join(', ')} (recorded in the audit chain).`
        : 'Nothing to restore.';
    },
  },
  {
    id: 'audit.chain',
    group: 'Audit',
    title: 'Audit chain',
    run({ store, now, limits }) {
      const last = readLastVerify(store.dir);
      const head = chainHead(store.db);
      if (!last.last) {
        return finding(
          'warn',
          `The chain (${head.total} entries) has never been verified.`,
          'Verify it now (read-only) and keep the anchor it prints somewhere else.',
          true,
        );
      }
      const when = last.last.at.slice(0, 16).replace('T', ' ');
      if (!last.last.ok) {
        const b = last.last.first_broken;
        return finding(
          'fail',
          `The last verification (${when}) found entry ${b?.seq ?? '?'} broken: ${b?.reason ?? 'unknown'}.`,
          b?.reason === 'key-missing'
            ? `Restore the key file ${store.keyring.file} from a backup; entries signed with a lost key cannot be checked otherwise.`
            : 'Open the Audit view to see the entry; restore the database from a backup taken before it if you did not expect this.',
        );
      }
      // A cheap look at the anchored entry (no full verification): a cut tail or a
      // replaced entry shows at once.
      if (last.anchor && last.anchor.seq > 0) {
        const row = store.db
          .prepare('SELECT hash FROM audit WHERE seq = ?')
          .get(last.anchor.seq) as { hash: string } | undefined;
        if (!row || row.hash !== last.anchor.hash) {
          return finding(
            'fail',
            row
              ? `Entry ${last.anchor.seq} is no longer the one the last verification anchored: the chain was rewritten.`
              : `The chain ends at entry ${head.seq}, before the anchored entry ${last.anchor.seq}: its tail was cut off.`,
            'Verify the chain (Audit view or `loci audit verify`) to see the first broken entry; restore a backup if you did not expect this.',
            true,
          );
        }
      }
      const age = now - Date.parse(last.last.at);
      const anchor = last.anchor ? `anchor at entry ${last.anchor.seq}` : 'no anchor';
      if (age > limits.auditStaleDays * DAY_MS) {
        return finding(
          'warn',
          `Last verified ${Math.floor(age / DAY_MS)} days ago (${anchor}); ${head.seq - (last.anchor?.seq ?? 0)} entries since.`,
          'Verify it again (read-only).',
          true,
        );
      }
      return ok(`Verified ${when} UTC (${last.last.checked} entries, ${anchor}).`);
    },
    async fix({ engine, store }) {
      const r = await engine.audit.verify({ store: store.name });
      return r.ok
        ? `Verified ${r.checked} entries; anchor ${r.anchor_text ?? ''}`
        : `Entry ${r.first_broken?.seq ?? '?'} is broken (${r.first_broken?.reason ?? ''}): ${r.first_broken?.detail ?? ''}`;
    },
  },
  {
    id: 'memory.fading',
    group: 'Memories',
    title: 'Memories about to fade',
    run({ store, now }) {
      const n = (
        store.db
          .prepare(
            `SELECT COUNT(*) AS n FROM memory m JOIN memory_state s ON s.rid = m.rid
              WHERE m.deleted_at IS NULL AND m.pinned = 0 AND s.last_review IS NOT NULL
                AND s.stability > 0 AND (? - s.last_review) > ? * s.stability * ${DAY_MS}`,
          )
          .get(now, AT_RISK_RATIO) as { n: number }
      ).n;
      if (n > 0) {
        return finding(
          'warn',
          `${n} memories are at risk of fading (unlikely to be recalled).`,
          'Pin or use the ones you want to keep (Memories view, filter “at risk”).',
        );
      }
      return ok('No memory is at risk of fading.');
    },
  },
  {
    id: 'memory.quarantine',
    group: 'Memories',
    title: 'Quarantined memories',
    run({ store }) {
      const q = (
        store.db
          .prepare(
            `SELECT COUNT(*) AS n FROM memory WHERE trust = 'quarantined' AND deleted_at IS NULL`,
          )
          .get() as { n: number }
      ).n;
      const review = (
        store.db.prepare(`SELECT COUNT(*) AS n FROM review_item WHERE state = 'pending'`).get() as {
          n: number;
        }
      ).n;
      if (q + review > 0) {
        return finding(
          'warn',
          `${q} quarantined memories and ${review} review items wait for a person.`,
          [
            q > 0 ? 'Promote or erase them in the Memories view (filter “quarantined”).' : '',
            review > 0
              ? 'Accept or reject what dreams propose in the Dreams view (Review inbox) or with `loci review`.'
              : '',
          ]
            .filter(Boolean)
            .join(' '),
        );
      }
      return ok('Nothing waits in quarantine or review.');
    },
  },
];
