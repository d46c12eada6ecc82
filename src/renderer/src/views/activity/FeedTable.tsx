// The feed itself: one row per call (time, client, tool, duration, outcome), newest
// first, in its own scrolling box. The tool is a link to `#/activity/<id>`; the whole
// row opens it on click. Calls that arrived live flash once as they land.
import type { Ref, UIEvent } from 'react';
import type { ActivitySummary } from '../../../../shared/api';
import { routeHref } from '../../lib/router';
import { actorLabel, formatDuration } from './activityModel';

const clock = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function time(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : clock.format(d);
}

export function FeedTable({
  items,
  selected,
  liveAfter,
  onOpen,
  onScroll,
  scrollRef,
}: {
  items: ActivitySummary[];
  selected: number | null;
  liveAfter: number;
  onOpen: (id: number) => void;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  scrollRef: Ref<HTMLDivElement>;
}) {
  return (
    <div
      className="act-feed"
      ref={scrollRef}
      onScroll={onScroll}
      // A scrolling box must be reachable by keyboard (and the rows' links are inside it).
      tabIndex={0}
      role="region"
      aria-label="Calls, newest first"
    >
      <table className="act-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Client</th>
            <th scope="col">Tool</th>
            <th scope="col" className="act-num">
              Duration
            </th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const open = item.id === selected;
            const classes = [
              'act-row',
              open ? 'is-open' : '',
              item.id > liveAfter ? 'is-new' : '',
              item.ok ? '' : 'is-error',
            ]
              .filter(Boolean)
              .join(' ');
            return (
              <tr
                key={item.id}
                className={classes}
                data-call={item.id}
                onClick={() => onOpen(item.id)}
              >
                <td className="num nowrap">
                  <time dateTime={item.at} title={new Date(item.at).toLocaleString()}>
                    {time(item.at)}
                  </time>
                </td>
                <td>
                  <span className="act-client-cell">
                    <span className="truncate" title={item.actor}>
                      {actorLabel(item.actor)}
                    </span>
                    <span className="act-transport">{item.transport}</span>
                  </span>
                </td>
                <td>
                  <a
                    className="act-tool"
                    href={routeHref(`/activity/${item.id}`)}
                    aria-current={open ? 'true' : undefined}
                    onClick={(e) => e.stopPropagation()}
                  >
                    {item.tool}
                  </a>
                </td>
                <td className="act-num num nowrap">{formatDuration(item.duration_ms)}</td>
                <td>
                  {item.ok ? (
                    <span className="act-ok">ok</span>
                  ) : (
                    <span className="act-fail">{item.error_code ?? 'error'}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
