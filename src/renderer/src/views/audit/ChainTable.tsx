// The chain, one row per entry (seq, time, actor, action, target, previous hash → hash),
// newest first. The first broken entry of the last verification is marked in words and
// colour; a memory target links to the memory.
import type { AuditEntryView } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { actorLabel, isMemoryId, shortHash } from './auditModel';

export interface ChainTableProps {
  entries: AuditEntryView[];
  brokenSeq: number | null;
}

export function ChainTable({ entries, brokenSeq }: ChainTableProps) {
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
            return (
              <tr
                key={e.seq}
                id={`audit-entry-${e.seq}`}
                className={broken ? 'is-broken' : undefined}
                data-testid={`audit-row-${e.seq}`}
              >
                <td className="au-num">
                  {broken ? (
                    <span className="au-broken-mark">
                      <Icon name="alert" label="First broken entry" /> {e.seq}
                    </span>
                  ) : (
                    e.seq
                  )}
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
                  {isMemoryId(e.target) ? (
                    <a href={`#/memories/${e.target}`}>{e.target}</a>
                  ) : (
                    (e.target ?? <span className="au-muted">—</span>)
                  )}
                </td>
                <td className="au-hash">
                  <code title={`previous ${e.prev_hash}`}>{shortHash(e.prev_hash)}</code>
                  <span aria-hidden> → </span>
                  <span className="visually-hidden"> then </span>
                  <code title={`${e.hash} (key ${e.key_id})`}>{shortHash(e.hash)}</code>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
