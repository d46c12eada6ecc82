// One recall result as the lab (and the Activity view, for what a client received)
// shows it: rank, title linking to the memory, kind, score, the engine's `why`, the
// content, and — for verbose answers — the per-branch breakdown and how the final score
// is made of its weighted parts.
import { useState, type ReactNode } from 'react';
import type { RecallHit } from '../../../../shared/api';
import { KindBadge } from '../../components/KindBadge';
import { formatScore } from '../../lib/format';
import { routeHref } from '../../lib/router';
import { ConflictWith } from '../conflicts/ConflictWith';
import { breakdownRows, contributionsOf } from './scoring';
import './hits.css';

/** What every answer carries per result; the rest is optional (MCP's structured results lack some). */
export type HitLike = Pick<RecallHit, 'id' | 'title' | 'content' | 'kind' | 'score' | 'why'> &
  Partial<Omit<RecallHit, 'id' | 'title' | 'content' | 'kind' | 'score' | 'why'>>;

const LONG = 280;

function Composition({ hit }: { hit: HitLike }) {
  if (!hit.breakdown) return null;
  const parts = contributionsOf(hit.breakdown);
  const summary = `${parts
    .filter((p) => p.value > 0)
    .map((p) => `${p.label.toLowerCase()} ${p.value.toFixed(2)}`)
    .join(' + ')} = ${hit.breakdown.final.toFixed(2)}`;
  return (
    <div className="rl-compose">
      <div className="rl-compose-bar" role="img" aria-label={`Final score: ${summary}`}>
        {parts.map((p) =>
          p.value > 0 ? (
            <span
              key={p.key}
              className={`rl-seg rl-seg-${p.key}`}
              style={{ width: `${Math.min(100, p.value * 100)}%` }}
              title={`${p.label}: ${p.weight.toFixed(2)} × ${p.input.toFixed(2)} = ${p.value.toFixed(3)}`}
            />
          ) : null,
        )}
      </div>
      <ul className="rl-legend" aria-hidden>
        {parts.map((p) => (
          <li key={p.key} className={p.value > 0 ? '' : 'is-zero'}>
            <span className={`rl-swatch rl-seg-${p.key}`} />
            {p.label} <span className="num">{p.value.toFixed(2)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function HitCard({
  hit,
  rank,
  onFocusHit,
  muted = false,
  actions,
  titles,
}: {
  hit: HitLike;
  rank: number;
  onFocusHit?: (id: string | null) => void;
  /** A near miss: shown, but not an answer. */
  muted?: boolean;
  /** Controls under the head (the Activity view's "this one was wrong"). */
  actions?: ReactNode;
  /** Titles of the answer's other memories, by id (to name what a result conflicts with). */
  titles?: ReadonlyMap<string, string>;
}) {
  const [expanded, setExpanded] = useState(false);
  const long = hit.content.length > LONG;
  const rows = breakdownRows(hit as RecallHit);
  return (
    <li
      className={muted ? 'rl-hit is-muted' : 'rl-hit'}
      data-hit={hit.id}
      onMouseEnter={() => onFocusHit?.(hit.id)}
      onMouseLeave={() => onFocusHit?.(null)}
      onFocus={() => onFocusHit?.(hit.id)}
      onBlur={() => onFocusHit?.(null)}
    >
      <div className="rl-hit-head">
        <span className="rl-hit-rank num" aria-hidden>
          {rank}
        </span>
        <a className="rl-hit-title" href={routeHref(`/memories/${hit.id}`)}>
          {hit.title || hit.id}
        </a>
        <KindBadge kind={hit.kind} />
        {hit.pinned ? <span className="rl-flag">pinned</span> : null}
        {hit.quarantined ? <span className="rl-flag rl-flag-warn">quarantined</span> : null}
        {typeof hit.confidence === 'number' ? (
          <span
            className="rl-hit-conf num"
            title="Probability that this is one of the memories asked for"
          >
            {Math.round(hit.confidence * 100)} %<span className="visually-hidden"> confidence</span>
          </span>
        ) : null}
        <span className="rl-hit-score num" title="The score the answer gives this memory">
          <span className="visually-hidden">score </span>
          {formatScore(hit.score)}
        </span>
      </div>
      {hit.speaker || hit.occurred_at || hit.session ? (
        <p className="rl-hit-said">
          {[
            hit.speaker ? `said by ${hit.speaker}` : '',
            hit.occurred_at ? new Date(hit.occurred_at).toLocaleString() : '',
            hit.session ? `session ${hit.session}` : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      ) : null}
      {actions ? <div className="rl-hit-actions">{actions}</div> : null}
      <ConflictWith selfId={hit.id} marks={hit.conflicts_with} {...(titles ? { titles } : {})} />
      <p className="rl-hit-why">{hit.why}</p>
      <p className={long && !expanded ? 'rl-hit-content is-clamped' : 'rl-hit-content'}>
        {hit.content}
      </p>
      {long ? (
        <button type="button" className="rl-link-btn" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : 'Show all'}
        </button>
      ) : null}
      {hit.tags?.length ? (
        <ul className="rl-tags" aria-label="Tags">
          {hit.tags.map((t) => (
            <li key={t}>#{t}</li>
          ))}
        </ul>
      ) : null}
      {hit.breakdown ? (
        <div className="rl-breakdown">
          <Composition hit={hit} />
          <dl className="rl-breakdown-grid">
            {rows.map((r) => (
              <div key={r.label} title={r.hint}>
                <dt>{r.label}</dt>
                <dd className="num">{r.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </li>
  );
}
