// The chain, one row per entry (seq, time, actor, action, target, previous hash → hash),
// newest first. The first broken entry of the last verification is marked in words and
// colour; a memory target is named by its title and links to the memory; an entry opens
// (its seq is a disclosure button) to what it records and the diff of its versions.
import { Fragment, useMemo, useState } from 'react';
import type { AuditEntryView } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { MemoryRef, useMemoryTitles } from '../../components/MemoryRef';
import { actorLabel, isMemoryId, shortHash } from './auditModel';
import { EntryDetail } from './EntryDetail';

export interface ChainTableProps {
  entries: AuditEntryView[];
  brokenSeq: number | null;
}

/** The memories an entry is about: one id, or two for a link (`from->to`). */
function targetIds(target: string | null): string[] {
  if (!target) return [];
  const parts = target.split('->');
  return parts.every((p) => isMemoryId(p)) ? parts : [];
}

export function ChainTable({ entries, brokenSeq }: ChainTableProps) {
  const titles = useMemoryTitles(
    useMemo(() => entries.flatMap((e) => targetIds(e.target)), [entries]),
  );
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (seq: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(seq)) next.add(seq);
      return next;
    });
  return (
    <div className="au-table-wrap" role="region" aria-label="Audit entries" tabIndex={0}>
      <table className="au-table" aria-label="Audit entries, newest first">
        <thead>
          <tr>
            <th scope="col">Seq</th>
            <th scope="col">Time (UTC)</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Hash (previous → this)</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => {
            const broken = e.seq === brokenSeq;
            const expanded = open.has(e.seq);
            return (
              <Fragment key={e.seq}>
                <tr
                  id={`audit-entry-${e.seq}`}
                  className={broken ? 'is-broken' : undefined}
                  data-testid={`audit-row-${e.seq}`}
                >
                  <td className="au-num">
                    <button
                      type="button"
                      className="au-open"
                      aria-expanded={expanded}
                      aria-controls={`audit-entry-detail-${e.seq}`}
                      aria-label={`Entry ${e.seq}: ${expanded ? 'close' : 'open'} what it records`}
                      onClick={() => toggle(e.seq)}
                    >
                      <span aria-hidden className="au-caret">
                        {expanded ? '▾' : '▸'}
                      </span>
                      {broken ? (
                        <span className="au-broken-mark">
                          <Icon name="alert" label="First broken entry" /> {e.seq}
                        </span>
                      ) : (
                        e.seq
                      )}
                    </button>
                  </td>
                  <td className="au-time">
                    <time dateTime={e.at}>{e.at.slice(0, 19).replace('T', ' ')}</time>
                  </td>
                  <td>
                    <span
                      className={e.actor.startsWith('mcp:') ? 'au-actor au-actor-mcp' : 'au-actor'}
                    >
                      {actorLabel(e.actor)}
                    </span>
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td className="au-target">
                    {targetIds(e.target).length
                      ? targetIds(e.target).map((id, i) => (
                          <Fragment key={id}>
                            {i ? <span> → </span> : null}
                            <MemoryRef id={id} book={titles} />
                          </Fragment>
                        ))
                      : (e.target ?? <span className="au-muted">—</span>)}
                  </td>
                  <td className="au-hash">
                    <code title={`previous ${e.prev_hash}`}>{shortHash(e.prev_hash)}</code>
                    <span aria-hidden> → </span>
                    <span className="visually-hidden"> then </span>
                    <code title={`${e.hash} (key ${e.key_id})`}>{shortHash(e.hash)}</code>
                  </td>
                </tr>
                {expanded ? (
                  <tr className="au-detail-row" id={`audit-entry-detail-${e.seq}`}>
                    <td colSpan={6}>
                      <EntryDetail entry={e} titles={titles} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
