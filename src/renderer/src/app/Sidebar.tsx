// The left navigation: one link per registered view (views/index.ts), the current one
// marked with aria-current.
import { Icon } from '../components/Icon';
import { routeHref, type Route } from '../lib/router';
import { matchView, VIEWS } from '../views';

export function Sidebar({ route }: { route: Route }) {
  const current = matchView(route.segments)?.view.id;
  return (
    <nav className="sidebar" aria-label="Views">
      <div className="brand">
        <Icon name="loci" size={20} />
        <span className="brand-name">Loci</span>
      </div>
      <ul className="nav-list">
        {VIEWS.map((view) => (
          <li key={view.id}>
            <a
              className="nav-link"
              href={routeHref(view.path)}
              aria-current={view.id === current ? 'page' : undefined}
              title={view.description}
            >
              <Icon name={view.icon} />
              <span className="nav-label">{view.label}</span>
              {view.badge ? <view.badge /> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
