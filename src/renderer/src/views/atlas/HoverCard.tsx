// The card beside the pointer on the Atlas: what a memory is, how alive it is and how
// connected. Pointer-only by nature; the same facts are in the Atlas's list for keyboard
// and screen-reader users, so the card is hidden from assistive technology.
import type { AtlasNode } from '../../../../shared/api';
import { KindBadge } from '../../components/KindBadge';
import { formatCount } from '../../lib/format';

const CARD_WIDTH = 280;
const CARD_HEIGHT = 170;
const OFFSET = 16;

export function formatActivation(activation: number | null): string {
  return activation === null || !Number.isFinite(activation) ? 'never used' : activation.toFixed(2);
}

export function formatRetrievability(r: number | null): string {
  return r === null || !Number.isFinite(r) ? '—' : `${Math.round(r * 100)}%`;
}

export function HoverCard({
  node,
  x,
  y,
  width,
  height,
}: {
  node: AtlasNode;
  x: number;
  y: number;
  width: number;
  height: number;
}) {
  // Beside the pointer, flipped to the other side near the right or bottom edge.
  const left = x + OFFSET + CARD_WIDTH > width ? Math.max(4, x - OFFSET - CARD_WIDTH) : x + OFFSET;
  const top =
    y + OFFSET + CARD_HEIGHT > height ? Math.max(4, y - OFFSET - CARD_HEIGHT) : y + OFFSET;
  const tags = node.tags.slice(0, 6);
  return (
    <div className="atlas-card" style={{ left, top }} aria-hidden data-testid="atlas-hover-card">
      <p className="atlas-card-title">{node.title || 'Untitled memory'}</p>
      <div className="atlas-card-badges">
        <KindBadge kind={node.kind} />
        {node.pinned ? <span className="pill">pinned</span> : null}
        {node.trust === 'quarantined' ? <span className="pill pill-warn">quarantined</span> : null}
      </div>
      {tags.length ? (
        <p className="atlas-card-tags">
          {tags.map((t) => (
            <span key={t} className="atlas-tag">
              {t}
            </span>
          ))}
          {node.tags.length > tags.length ? (
            <span className="muted">+{node.tags.length - tags.length}</span>
          ) : null}
        </p>
      ) : null}
      <dl className="atlas-card-facts">
        <dt>Activation</dt>
        <dd>{formatActivation(node.activation)}</dd>
        <dt>Retrievability</dt>
        <dd>{formatRetrievability(node.retrievability)}</dd>
        <dt>Links</dt>
        <dd>{formatCount(node.degree)}</dd>
      </dl>
      <p className="atlas-card-hint">Click for its neighbours and history</p>
    </div>
  );
}
