// A recall result's open contradictions (`conflicts_with`): which memory it conflicts
// with, which of the two holds now, and a link to decide it in the Conflicts view.
// Shown in the Recall lab, the Activity view (what a client received) and the Memories
// search.
import type { ConflictMark } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { routeHref } from '../../lib/router';
import './conflicts.css';

export function ConflictWith({
  selfId,
  marks,
  titles,
}: {
  selfId: string;
  marks: readonly ConflictMark[] | undefined;
  /** Titles of the other memories the answer holds, by id (else the mark's own). */
  titles?: ReadonlyMap<string, string>;
}) {
  if (!marks?.length) return null;
  return (
    <ul className="cf-with-list" aria-label="Conflicts">
      {marks.map((m) => {
        const title = titles?.get(m.id) ?? m.title;
        const current =
          m.current === selfId ? 'this one' : m.current === m.id ? 'the other' : 'neither';
        return (
          <li key={m.conflict} className="cf-with" data-conflict={m.conflict}>
            <Icon name="conflicts" size={13} />
            <span>
              Conflicts with{' '}
              <a href={routeHref(`/memories/${m.id}`)} title={m.id}>
                “{title}”
              </a>
            </span>{' '}
            <span>
              — current: <span className="cf-with-current">{current}</span>
            </span>{' '}
            <a className="cf-with-go" href={routeHref(`/conflicts/${m.conflict}`)}>
              Resolve
            </a>
          </li>
        );
      })}
    </ul>
  );
}
