// The memory clicked on the map, beside it: its text (masked if quarantined), its
// neighbours on the map with the type of each link (each opens in this panel), its history
// (whether it holds now, what replaced it, its conflicts) and "Open in Memories". The map
// stays where it is.
import { useEffect, useMemo, useRef } from 'react';
import type { AtlasLink } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { KindBadge } from '../../components/KindBadge';
import { LoadingState } from '../../components/LoadingState';
import { SecretText } from '../../components/SecretText';
import { navigate } from '../../lib/router';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import type { AtlasModel } from './model';

/** Neighbours listed, the strongest links first. */
const NEIGHBOURS = 12;
/** Events of the history listed, the newest first. */
const EVENTS = 6;

export function NodePanel({
  model,
  links,
  id,
  onSelect,
  onClose,
}: {
  model: AtlasModel;
  links: readonly AtlasLink[];
  id: string;
  onSelect(id: string): void;
  onClose(): void;
}) {
  const store = useUiStore((s) => s.store);
  const at = store ? { store } : {};
  const memory = useEngineQuery('memory.get', { ...at, id, include_deleted: true });
  const history = useEngineQuery('memory.history', { ...at, id });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);

  const neighbours = useMemo(() => {
    const i = model.indexOf.get(id);
    if (i === undefined) return [];
    const out: { id: string; title: string; type: string; weight: number }[] = [];
    for (const l of links) {
      const other = l.from === id ? l.to : l.to === id ? l.from : null;
      if (other === null) continue;
      const j = model.indexOf.get(other);
      if (j === undefined) continue;
      out.push({ id: other, title: model.nodes[j]!.title, type: l.type, weight: l.weight });
    }
    return out.sort((a, b) => b.weight - a.weight).slice(0, NEIGHBOURS);
  }, [model, links, id]);

  const m = memory.data;
  const h = history.data;
  return (
    <aside
      className="atlas-panel"
      aria-labelledby="atlas-panel-title"
      data-testid="atlas-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="atlas-panel-head">
        <h2 id="atlas-panel-title" className="atlas-panel-title" tabIndex={-1} ref={heading}>
          {m ? <SecretText text={m.title} /> : 'Memory'}
        </h2>
        <button
          type="button"
          className="icon-btn"
          aria-label="Close the panel (Esc)"
          onClick={onClose}
        >
          <Icon name="close" />
        </button>
      </div>
      {memory.loading ? (
        <LoadingState label="Loading the memory…" />
      ) : !m ? (
        <ErrorState
          compact
          title="Could not load this memory"
          error={memory.error}
          onRetry={memory.reload}
        />
      ) : (
        <>
          <p className="atlas-panel-badges">
            <KindBadge kind={m.kind} />
            {m.trust === 'quarantined' ? <span className="pill pill-warn">quarantined</span> : null}
            {h ? (
              <span className={h.current ? 'pill pill-ok' : 'pill pill-warn'}>
                {h.current ? 'holds now' : 'no longer holds'}
              </span>
            ) : null}
            <span className="muted">v{m.version}</span>
          </p>
          <p className="atlas-panel-text">
            <SecretText text={m.content.length > 400 ? `${m.content.slice(0, 399)}…` : m.content} />
          </p>
          <Button size="sm" icon="arrowRight" onClick={() => navigate(`/memories/${id}`)}>
            Open in Memories
          </Button>
        </>
      )}
      <section aria-labelledby="atlas-panel-nb">
        <h3 id="atlas-panel-nb" className="atlas-panel-h">
          Neighbours ({neighbours.length})
        </h3>
        {neighbours.length === 0 ? (
          <p className="muted">Not linked to anything on the map.</p>
        ) : (
          <ul className="atlas-panel-list">
            {neighbours.map((nb) => (
              <li key={`${nb.id}-${nb.type}`}>
                <span className={`atlas-linktype atlas-linktype-${nb.type}`}>
                  {nb.type.replace('_', ' ')}
                </span>{' '}
                <button type="button" className="atlas-panel-link" onClick={() => onSelect(nb.id)}>
                  <SecretText text={nb.title} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="atlas-panel-hist">
        <h3 id="atlas-panel-hist" className="atlas-panel-h">
          History
        </h3>
        {!h ? (
          history.loading ? (
            <LoadingState label="Loading its history…" />
          ) : null
        ) : (
          <ul className="atlas-panel-list">
            {[...h.timeline]
              .reverse()
              .slice(0, EVENTS)
              .map((e, i) => (
                <li key={`${e.at}-${i}`}>
                  <time className="muted" dateTime={e.at}>
                    {e.at.slice(0, 10)}
                  </time>{' '}
                  {e.text}
                </li>
              ))}
          </ul>
        )}
      </section>
    </aside>
  );
}
