// Atlas: every memory of the store as a map (graph.atlas), laid out by d3-force in a
// worker and drawn on a canvas; kept current by memory and link events. Loading, empty
// (nothing to draw yet), error and cut-short (beyond the limit) states each say so.
import { connectEditorAction } from './connect/connectAction';
import { useState } from 'react';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { formatCount } from '../lib/format';
import { useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { AtlasExplorer } from './atlas/AtlasExplorer';
import './atlas/atlas.css';
import type { ViewProps } from './index';

/** graph.atlas's default and ceiling (the contract's). */
export const DEFAULT_LIMIT = 5000;
export const MAX_LIMIT = 20_000;

export default function AtlasView({ query }: Partial<ViewProps> = {}) {
  const store = useUiStore((s) => s.store);
  const [limit, setLimit] = useState(DEFAULT_LIMIT);
  const atlas = useEngineQuery('graph.atlas', store ? { store, limit } : { limit }, {
    refreshOn: ['memory.changed', 'link.changed'],
    // Bursts (an import, a dream) redraw once; positions of known memories are kept.
    throttleMs: 1500,
  });
  const { data, error } = atlas;
  const nextLimit = Math.min(MAX_LIMIT, limit * 2);

  return (
    <div className="view atlas-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Atlas</h1>
          <p className="view-subtitle">
            Store <strong>{data?.store ?? store ?? '…'}</strong>
            {data && data.nodes.length > 0 ? (
              <span data-stat="atlas.summary">
                · {formatCount(data.nodes.length)} memories · {formatCount(data.links.length)} links
                · {formatCount(data.communities)} communities
              </span>
            ) : null}
          </p>
        </div>
        <Button
          icon="refresh"
          size="sm"
          variant="ghost"
          onClick={atlas.reload}
          busy={atlas.refreshing}
        >
          Refresh
        </Button>
      </header>
      {error && data ? (
        <ErrorState
          compact
          title="Could not refresh the map"
          error={error}
          onRetry={atlas.reload}
        />
      ) : null}
      {data?.truncated ? (
        <p className="atlas-banner" data-testid="atlas-truncated">
          <span>
            Showing the {formatCount(data.nodes.length)} most recently used of{' '}
            {formatCount(data.total)} memories (pinned ones first).
          </span>
          {limit < MAX_LIMIT ? (
            <Button size="sm" onClick={() => setLimit(nextLimit)} busy={atlas.refreshing}>
              Draw up to {formatCount(nextLimit)}
            </Button>
          ) : (
            <span className="muted">The Atlas draws at most {formatCount(MAX_LIMIT)}.</span>
          )}
        </p>
      ) : null}
      {atlas.loading ? (
        <LoadingState label="Loading the map of memories…" />
      ) : !data ? (
        <ErrorState title="Could not load the map" error={error} onRetry={atlas.reload} />
      ) : data.nodes.length === 0 ? (
        <EmptyState
          icon="atlas"
          title={`Nothing to map in “${data.store}” yet`}
          {...connectEditorAction()}
        >
          <p>
            The Atlas draws each memory as a point and each link as a line. Memories arrive when an
            agent calls <em>remember</em> over MCP; connect your editor with <code>loci setup</code>
            , or add one yourself:
          </p>
          <p>
            <code>loci remember "The deploy script lives in ops/deploy.sh"</code>
          </p>
        </EmptyState>
      ) : (
        <AtlasExplorer result={data} initialQuery={query?.get('q') ?? ''} />
      )}
    </div>
  );
}
