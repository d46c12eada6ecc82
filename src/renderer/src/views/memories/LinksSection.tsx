// A memory's links, both ways: what it points to and what points to it, each with the
// other memory's title and kind (from graph.neighbors), the type and weight, a way to go
// there and to remove the link; and a picker to add one.
import { useState } from 'react';
import type { LinkView, MemoryView, NeighborsResult } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { KindBadge } from '../../components/KindBadge';
import { useEngineClient } from '../../lib/engineContext';
import { routeHref } from '../../lib/router';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { LinkPicker } from './LinkPicker';
import { LINK_TYPE_LABELS } from './model';

/** Links shown before "Show all". */
const FIRST = 12;

function LinkItem({
  link,
  direction,
  other,
  readOnly,
  onRemove,
}: {
  link: LinkView;
  direction: 'out' | 'in';
  other: NeighborsResult['nodes'][number] | undefined;
  readOnly: boolean;
  onRemove: (link: LinkView) => void;
}) {
  const otherId = direction === 'out' ? link.to : link.from;
  const title = other?.title ?? otherId;
  return (
    <li className="mem-link">
      <span className="mem-link-type">
        {direction === 'out' ? '→' : '←'} {LINK_TYPE_LABELS[link.type]}
      </span>
      <a className="mem-link-target truncate" href={routeHref(`/memories/${otherId}`)}>
        {title}
      </a>
      {other ? <KindBadge kind={other.kind} /> : null}
      <span className="mem-link-weight num" title="Link weight (0–1)">
        {link.weight.toFixed(1)}
      </span>
      {readOnly ? null : (
        <button
          type="button"
          className="icon-btn"
          aria-label={`Remove the link ${direction === 'out' ? 'to' : 'from'} “${title}”`}
          title="Remove this link"
          onClick={() => onRemove(link)}
        >
          <Icon name="close" size={14} />
        </button>
      )}
    </li>
  );
}

export function LinksSection({
  memory,
  neighbors,
}: {
  memory: MemoryView;
  neighbors: NeighborsResult | undefined;
}) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const [picking, setPicking] = useState(false);
  const [all, setAll] = useState(false);
  const byId = new Map((neighbors?.nodes ?? []).map((n) => [n.id, n]));
  const readOnly = memory.deleted_at !== null;
  const links = [
    ...memory.links.outgoing.map((link) => ({ link, direction: 'out' as const })),
    ...memory.links.incoming.map((link) => ({ link, direction: 'in' as const })),
  ];
  const shown = all ? links : links.slice(0, FIRST);

  const remove = async (link: LinkView) => {
    const at = store ? { store } : {};
    try {
      await client.call('link.remove', { ...at, from: link.from, to: link.to, type: link.type });
      useUiStore.getState().toast({
        message: 'Link removed.',
        tone: 'success',
        action: {
          label: 'Undo',
          run: async () => {
            await client.call('link.create', {
              ...at,
              from: link.from,
              to: link.to,
              type: link.type,
              weight: link.weight,
            });
          },
        },
      });
    } catch (err) {
      useUiStore.getState().toast({
        tone: 'error',
        message: `Could not remove the link: ${toLociError(err).message}`,
      });
    }
  };

  return (
    <section className="mem-section" aria-labelledby="mem-links">
      <div className="mem-section-head">
        <h3 id="mem-links" className="mem-section-title">
          Links <span className="mem-count">{links.length}</span>
        </h3>
        {readOnly ? null : (
          <Button size="sm" variant="ghost" icon="link" onClick={() => setPicking(true)}>
            Add link…
          </Button>
        )}
      </div>
      {links.length === 0 ? (
        <p className="muted">
          Not linked to anything. Links let recall spread from one memory to related ones.
        </p>
      ) : (
        <ul className="mem-links">
          {shown.map(({ link, direction }) => (
            <LinkItem
              key={`${direction}-${link.from}-${link.to}-${link.type}`}
              link={link}
              direction={direction}
              other={byId.get(direction === 'out' ? link.to : link.from)}
              readOnly={readOnly}
              onRemove={(l) => void remove(l)}
            />
          ))}
        </ul>
      )}
      {links.length > FIRST ? (
        <Button size="sm" variant="ghost" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${links.length}`}
        </Button>
      ) : null}
      {picking ? <LinkPicker memory={memory} onClose={() => setPicking(false)} /> : null}
    </section>
  );
}
