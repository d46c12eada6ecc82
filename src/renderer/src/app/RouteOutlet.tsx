// Renders the view that owns the current route (views/index.ts), loading its code on
// first visit; `#/` goes to the default view; an address no view owns says so.
import { Suspense, useEffect } from 'react';
import { EmptyState } from '../components/EmptyState';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { LoadingState } from '../components/LoadingState';
import { navigate, type Route } from '../lib/router';
import { DEFAULT_VIEW, matchView } from '../views';

export function RouteOutlet({ route }: { route: Route }) {
  const match = matchView(route.segments);
  const atRoot = route.segments.length === 0;

  useEffect(() => {
    if (atRoot) navigate(DEFAULT_VIEW.path, { replace: true });
  }, [atRoot]);

  const title = match ? `${match.view.label} · Loci` : 'Loci';
  useEffect(() => {
    document.title = title;
  }, [title]);

  if (atRoot) return null;
  if (!match) {
    return (
      <EmptyState
        icon="alert"
        title="No view here"
        action={{
          label: `Go to ${DEFAULT_VIEW.label}`,
          icon: 'arrowRight',
          onClick: () => navigate(DEFAULT_VIEW.path),
        }}
      >
        <p>
          Nothing in this observatory handles <code>#{route.path}</code>. The link may come from a
          newer version of Loci.
        </p>
      </EmptyState>
    );
  }
  const View = match.view.component;
  return (
    <ErrorBoundary resetKey={match.view.id}>
      <Suspense fallback={<LoadingState label={`Loading ${match.view.label}…`} />}>
        <View rest={match.rest} query={route.query} />
      </Suspense>
    </ErrorBoundary>
  );
}
