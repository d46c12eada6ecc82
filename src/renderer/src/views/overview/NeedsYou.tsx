// The Overview's first card: what waits for the person (stats.attention), worst first,
// each a link to the view — filtered — that deals with it. Kept current by the events
// that change what it counts.
import type { AttentionItem } from '../../../../shared/api';
import { Icon, type IconName } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { ErrorState } from '../../components/ErrorState';
import { routeHref } from '../../lib/router';
import { useEngineQuery } from '../../lib/useEngineQuery';

const ICONS: Record<AttentionItem['id'], IconName> = {
  conflicts: 'conflicts',
  review: 'dreams',
  quarantine: 'alert',
  doctor: 'doctor',
  audit: 'audit',
  model: 'vector',
};

const SEVERITY: Record<AttentionItem['severity'], string> = {
  fail: 'Needs fixing',
  warn: 'Waits for you',
  info: 'Worth a look',
};

/** `/memories?trust=quarantined` → the hash link with its query. */
function href(route: string): string {
  const [path, search] = route.split('?');
  return routeHref(
    path as string,
    search ? Object.fromEntries(new URLSearchParams(search)) : undefined,
  );
}

export function NeedsYou({ store }: { store: string | null }) {
  const q = useEngineQuery('stats.attention', store ? { store } : {}, {
    refreshOn: [
      'memory.changed',
      'conflict.changed',
      'review.changed',
      'doctor.finished',
      'audit.progressed',
      'embedding.progressed',
    ],
    throttleMs: 2_000,
  });
  return (
    <section className="card card-wide needs" aria-labelledby="ov-needs" data-testid="needs-you">
      <h2 id="ov-needs" className="card-title">
        <Icon name="info" /> Needs you
      </h2>
      {q.loading ? (
        <LoadingState label="Looking at what waits for you…" />
      ) : !q.data ? (
        <ErrorState
          compact
          title="Could not tell what needs you"
          error={q.error}
          onRetry={q.reload}
        />
      ) : q.data.items.length === 0 ? (
        <p className="needs-none">
          <Icon name="check" /> Nothing needs you: no conflict, no proposal, nothing in quarantine,
          the doctor is content and the audit chain was verified lately.
        </p>
      ) : (
        <ul className="needs-list">
          {q.data.items.map((item) => (
            <li key={item.id} className={`needs-item needs-${item.severity}`} data-need={item.id}>
              <a className="needs-link" href={href(item.route)}>
                <Icon name={ICONS[item.id]} />
                <span className="needs-text">
                  <span className="needs-title">{item.title}</span>
                  <span className="needs-detail">{item.detail}</span>
                </span>
                <span className="needs-severity">{SEVERITY[item.severity]}</span>
                <Icon name="arrowRight" />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
