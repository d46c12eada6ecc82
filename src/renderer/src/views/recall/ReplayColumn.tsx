// One stage of the replay board: its memories as chips (rank, title, score bar), or for
// the two gates (recognition, abstention) the decision they took. Chips of the stage
// being shown fly in from where they were a stage earlier; chips a later filter dropped
// fade; hovering a chip lights up the same memory in every column.
import type { CSSProperties } from 'react';
import type { TraceItem, TraceStage } from '../../../../shared/api';
import { formatScore } from '../../lib/format';
import {
  barShare,
  chipMotions,
  droppedIds,
  VISIBLE_CHIPS,
  type Replay,
  type ChipMotion,
  type ReplayColumn as Column,
} from './replayModel';
import { stageFacts } from './stages';

export type ColumnStatus = 'done' | 'current' | 'upcoming' | 'skipped';

export interface ColumnProps {
  replay: Replay;
  column: Column;
  status: ColumnStatus;
  /** The replay's current step: filters up to it have already dropped memories. */
  step: number;
  animate: boolean;
  highlight: string | null;
  onHighlight: (id: string | null) => void;
  /** Stages after the pipeline stopped say "not reached" rather than "not run". */
  stoppedBefore: boolean;
}

function Chip({
  stage,
  item,
  row,
  style,
  className,
  badge,
  onHighlight,
}: {
  stage: TraceStage;
  item: TraceItem;
  row: number;
  style?: CSSProperties;
  className: string;
  badge?: { text: string; tone: 'up' | 'down' | 'new' } | null;
  onHighlight: (id: string | null) => void;
}) {
  const share = barShare(stage, item, row);
  return (
    <li
      className={className}
      style={style}
      data-id={item.id}
      title={`${item.title}${item.note ? ` — ${item.note}` : ''} (${formatScore(item.score)})`}
      onMouseEnter={() => onHighlight(item.id)}
      onMouseLeave={() => onHighlight(null)}
    >
      <span className="rl-chip-rank num">{row + 1}</span>
      <span className="rl-chip-title">{item.title || item.id}</span>
      {badge ? <span className={`rl-chip-badge rl-badge-${badge.tone}`}>{badge.text}</span> : null}
      <span className="rl-chip-score num">
        {stage.name === 'lexical' && item.note
          ? item.note.replace(' terms', '')
          : formatScore(item.score)}
      </span>
      <span className="rl-chip-bar" aria-hidden>
        <span style={{ width: `${Math.round(share * 100)}%` }} />
      </span>
    </li>
  );
}

/** What a chip says about its journey: reached over links, or places gained in ranking. */
function chipBadge(
  stage: string,
  m: ChipMotion | undefined,
): { text: string; tone: 'up' | 'down' | 'new' } | null {
  if (!m) return null;
  if ((stage === 'spreading' && m.fresh) || (stage === 'ranking' && m.via === 'spreading'))
    return { text: 'linked', tone: 'new' };
  if (stage === 'ranking' && m.via === 'fusion' && m.moved)
    return m.moved > 0
      ? { text: `▲${m.moved}`, tone: 'up' }
      : { text: `▼${-m.moved}`, tone: 'down' };
  return null;
}

function GateBody({ stage }: { stage: TraceStage }) {
  const d = stage.detail;
  const two = (v: unknown) => (typeof v === 'number' ? v.toFixed(2) : '—');
  if (stage.name === 'recognise') {
    const answered = d.answered === true;
    return (
      <div className="rl-gate">
        <p className={answered ? 'rl-verdict rl-verdict-ok' : 'rl-verdict'}>
          {answered ? 'Named one memory' : 'Fell through'}
        </p>
        <p className="rl-gate-line">
          best <strong className="num">{two(d.best)}</strong> · next{' '}
          <span className="num">{two(d.runner_up)}</span>
        </p>
        <p className="rl-gate-note">answers alone at ≥ 0.72, 0.15 ahead, most words shared</p>
      </div>
    );
  }
  const abstained = d.abstained === true;
  return (
    <div className="rl-gate">
      <p className={abstained ? 'rl-verdict rl-verdict-warn' : 'rl-verdict rl-verdict-ok'}>
        {abstained ? 'Abstain' : 'Answer'}
      </p>
      <p className="rl-gate-line">
        every term matched: <strong>{d.all_terms_matched ? 'yes' : 'no'}</strong>
      </p>
      <p className="rl-gate-line">
        best similarity <strong className="num">{two(d.best_similarity)}</strong> vs bar{' '}
        <span className="num">{two(d.threshold)}</span>
      </p>
      <p className="rl-gate-note">
        {d.threshold_source === 'calibrated'
          ? 'bar calibrated on this store'
          : 'default bar (not calibrated)'}
      </p>
    </div>
  );
}

export function ReplayColumnView({
  replay,
  column,
  status,
  step,
  animate,
  highlight,
  onHighlight,
  stoppedBefore,
}: ColumnProps) {
  const { info, stage } = column;
  const items = stage?.items ?? [];
  const shown = status === 'done' || status === 'current';
  const motions = shown && stage ? chipMotions(replay, column) : new Map();
  const dropped = shown ? droppedIds(replay, column, step) : new Set<string>();
  const entering = animate && status === 'current';
  const facts = stage && shown ? stageFacts(stage) : [];
  const label = `${info.label}: ${
    status === 'skipped'
      ? stoppedBefore
        ? 'not reached'
        : 'not run'
      : status === 'upcoming'
        ? 'not shown yet'
        : info.gate
          ? (facts[0] ?? '')
          : `${items.length}${items.length >= 30 ? '+' : ''} memories`
  }`;

  return (
    <section
      className={`rl-col rl-col-${status}${info.gate ? ' rl-col-gate' : ''}`}
      data-stage={info.name}
      data-status={status}
      aria-label={label}
      aria-current={status === 'current' ? 'step' : undefined}
    >
      <header className="rl-col-head">
        <span className="rl-col-name">{info.label}</span>
        {stage && shown ? (
          <span className="rl-col-meta num">
            {info.gate ? '' : `${items.length}${items.length >= 30 ? '+' : ''} · `}
            {stage.ms.toFixed(2)} ms
          </span>
        ) : null}
      </header>
      {status === 'skipped' ? (
        <p className="rl-col-empty">{stoppedBefore ? 'not reached' : 'not run'}</p>
      ) : status === 'upcoming' || !stage ? (
        <div className="rl-col-placeholder" aria-hidden>
          <span />
          <span />
          <span />
        </div>
      ) : info.gate ? (
        // Keyed by status: becoming current re-mounts, which replays the entry animation.
        <div key={status} className={entering ? 'rl-gate-wrap is-entering' : 'rl-gate-wrap'}>
          <GateBody stage={stage} />
        </div>
      ) : items.length === 0 ? (
        <p className="rl-col-empty">
          {info.name === 'vector' && stage.detail.used === false ? 'not used' : 'no memories'}
        </p>
      ) : (
        <ol key={status} className="rl-chips">
          {items.slice(0, VISIBLE_CHIPS).map((item, row) => {
            const m = motions.get(item.id);
            const isDropped = dropped.has(item.id);
            const badge = chipBadge(info.name, m);
            const classes = [
              'rl-chip',
              entering ? 'is-entering' : '',
              entering && (m?.fresh ?? true) ? 'is-fresh' : '',
              isDropped ? 'is-dropped' : '',
              highlight === item.id ? 'is-trail' : '',
            ]
              .filter(Boolean)
              .join(' ');
            const style = {
              '--cols-back': m?.colsBack ?? 0,
              '--rows-back': m?.rowsBack ?? 0,
              '--row': row,
            } as CSSProperties;
            return (
              <Chip
                key={item.id}
                stage={stage}
                item={item}
                row={row}
                style={style}
                className={classes}
                badge={badge}
                onHighlight={onHighlight}
              />
            );
          })}
        </ol>
      )}
      {shown && !info.gate && items.length > VISIBLE_CHIPS ? (
        <p className="rl-col-more">+{items.length - VISIBLE_CHIPS} more</p>
      ) : null}
      {shown && dropped.size > 0 ? (
        <p className="rl-col-dropped">{dropped.size} dropped by the next filter</p>
      ) : null}
    </section>
  );
}
