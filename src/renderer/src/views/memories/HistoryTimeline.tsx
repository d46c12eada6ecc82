// What is true of a memory over time (from memory.history): whether it holds now and
// when it holds, what replaced it and what it replaced, the contradictions it took part
// in (open ones with a way to resolve them), and every event in one timeline, oldest
// first — each kind with its own marker, the other memory or the conflict it refers to
// one click away. Edits point into the versions below (VersionsSection) rather than
// repeating them.
import type { ConflictView, HistoryEvent, HistoryResult, MemoryView } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { TimeAgo } from '../../components/TimeAgo';
import { routeHref } from '../../lib/router';
import { formatWhen, relationLabel, STATE_LABEL, validityText } from '../conflicts/conflictsModel';

export const EVENT_LABEL: Record<HistoryEvent['kind'], string> = {
  created: 'Written',
  edited: 'Edited',
  'valid-from': 'Began to hold',
  'valid-to': 'Stopped holding',
  supersedes: 'Replaced another',
  superseded: 'Superseded',
  conflict: 'Conflict found',
  resolved: 'Conflict decided',
  forgotten: 'Forgotten',
};

/** The conflict a `conflict` or `resolved` event refers to, as a link into the Conflicts view. */
export function conflictHref(conflictId: string, conflicts: readonly ConflictView[]): string {
  const c = conflicts.find((x) => x.id === conflictId);
  return routeHref(
    `/conflicts/${conflictId}`,
    c && c.state !== 'open' ? { tab: 'resolved' } : undefined,
  );
}

/** Why a memory does not hold now, in words (null when it does). */
export function notCurrentReason(
  history: HistoryResult,
  memory: MemoryView,
  now: number,
): string | null {
  if (history.current) return null;
  if (memory.deleted_at) return 'it was forgotten';
  const by = history.superseded_by[0];
  if (by) return `superseded by “${by.title}”`;
  if (history.valid_to && Date.parse(history.valid_to) <= now)
    return `its validity ended ${formatWhen(history.valid_to)}`;
  if (history.valid_from && Date.parse(history.valid_from) > now)
    return `it holds only from ${formatWhen(history.valid_from)}`;
  return 'it no longer holds';
}

function eventLabel(e: HistoryEvent, now: number): string {
  // A validity end still to come is not an end yet.
  if (e.kind === 'valid-to' && Date.parse(e.at) > now) return 'Will stop holding';
  return EVENT_LABEL[e.kind];
}

function EventRef({
  event,
  history,
  versions,
  onCompare,
}: {
  event: HistoryEvent;
  history: HistoryResult;
  versions: ReadonlySet<number>;
  onCompare: (version: number) => void;
}) {
  if (event.kind === 'edited' && event.version !== undefined) {
    const before = event.version - 1;
    if (!versions.has(before)) return null;
    return (
      <button type="button" className="mem-linkish" onClick={() => onCompare(before)}>
        compare v{before} with the current text
      </button>
    );
  }
  if (!event.ref) return null;
  if (event.kind === 'conflict' || event.kind === 'resolved') {
    const c = history.conflicts.find((x) => x.id === event.ref);
    return (
      <a href={conflictHref(event.ref, history.conflicts)}>
        {c?.state === 'open' ? 'resolve' : 'see the conflict'}
      </a>
    );
  }
  return <a href={routeHref(`/memories/${event.ref}`)}>open it</a>;
}

function ConflictItem({ conflict, id }: { conflict: ConflictView; id: string }) {
  const other = conflict.older.id === id ? conflict.newer : conflict.older;
  const holds =
    conflict.current === id
      ? 'this one holds'
      : conflict.current === other.id
        ? 'the other holds'
        : 'both hold';
  return (
    <li className="mem-conflict" data-state={conflict.state}>
      <span className="mem-conflict-head">
        <span className={`cf-relation cf-relation-${conflict.relation}`}>
          {relationLabel(conflict.relation)}
        </span>
        <span className={`cf-state cf-state-${conflict.state}`}>{STATE_LABEL[conflict.state]}</span>
        <a className="mem-conflict-go" href={conflictHref(conflict.id, [conflict])}>
          {conflict.state === 'open' ? 'Resolve' : 'See the decision'}
          <Icon name="arrowRight" size={12} />
        </a>
      </span>
      <span className="mem-conflict-text">
        with <a href={routeHref(`/memories/${other.id}`)}>{other.title || other.id}</a>
        <span className="muted">
          {' '}
          ·{' '}
          {conflict.spans
            .map((s) => `${s.older || 'absent'} → ${s.newer || 'absent'}`)
            .join(', ')}{' '}
          · {holds}
        </span>
      </span>
    </li>
  );
}

export function HistoryTimeline({
  memory,
  history,
  onCompare,
}: {
  memory: MemoryView;
  history: HistoryResult;
  /** Shows this earlier version against the current one (the versions below). */
  onCompare: (version: number) => void;
}) {
  const now = Date.now();
  const timeline = history.timeline ?? [];
  const conflicts = history.conflicts ?? [];
  const supersededBy = history.superseded_by ?? [];
  const supersedes = history.supersedes ?? [];
  const versions = new Set(history.versions.map((v) => v.version));
  // What replaced it is listed just below: the line says only when it holds.
  const reason = supersededBy.length ? null : notCurrentReason(history, memory, now);
  return (
    <div className="mem-history">
      <p className="mem-holds" data-testid="memory-holds">
        {history.current ? (
          <span className="mem-flag mem-flag-ok">
            <Icon name="check" size={12} /> holds now
          </span>
        ) : (
          <span className="mem-flag mem-flag-past">no longer holds</span>
        )}
        <span className="muted">
          {reason ? `${reason[0]?.toUpperCase()}${reason.slice(1)}. ` : ''}
          {validityText(history.valid_from ?? null, history.valid_to ?? null)}.
        </span>
      </p>
      {supersededBy.length || supersedes.length ? (
        <ul className="mem-supersession">
          {supersededBy.map((l) => (
            <li key={`by-${l.id}`}>
              <span className="mem-supersession-what">Superseded by</span>{' '}
              <a href={routeHref(`/memories/${l.id}`)}>{l.title || l.id}</a>{' '}
              <span className="muted">
                <TimeAgo iso={l.at} />
              </span>
            </li>
          ))}
          {supersedes.map((l) => (
            <li key={`of-${l.id}`}>
              <span className="mem-supersession-what">Supersedes</span>{' '}
              <a href={routeHref(`/memories/${l.id}`)}>{l.title || l.id}</a>{' '}
              <span className="muted">
                <TimeAgo iso={l.at} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {conflicts.length ? (
        <>
          <h4 className="mem-subtitle">
            Conflicts <span className="mem-count">{conflicts.length}</span>
          </h4>
          <ul className="mem-conflicts" aria-label="Conflicts it took part in">
            {conflicts.map((c) => (
              <ConflictItem key={c.id} conflict={c} id={memory.id} />
            ))}
          </ul>
        </>
      ) : null}
      {timeline.length ? (
        <ol className="mem-timeline" aria-label="History, oldest first">
          {timeline.map((e, i) => (
            <li
              key={`${e.at}-${e.kind}-${i}`}
              className={`mem-tl mem-tl-${e.kind}`}
              data-kind={e.kind}
            >
              <span className="mem-tl-marker" aria-hidden />
              <span className="mem-tl-when">
                <time dateTime={e.at} title={new Date(e.at).toLocaleString()}>
                  {formatWhen(e.at)}
                </time>
              </span>
              <span className="mem-tl-body">
                <span className="mem-tl-kind">{eventLabel(e, now)}</span>{' '}
                {/* "Written written": the engine's words add nothing to the kind's. */}
                {e.text.trim().toLowerCase() !== eventLabel(e, now).toLowerCase() ? (
                  <span className="mem-tl-text">{e.text}</span>
                ) : null}{' '}
                <EventRef event={e} history={history} versions={versions} onCompare={onCompare} />
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
