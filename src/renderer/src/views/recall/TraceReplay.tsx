// The animated replay of one recall, from its explain trace: a rail of the pipeline's
// stages to jump between, a caption saying what the shown stage did (announced
// politely), and the board, one column per stage, revealed stage by stage. Plays by
// itself at a chosen speed, or steps (←/→, Home/End on the board); with reduced motion
// nothing moves and nothing plays: each step simply shows the next column.
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
} from 'react';
import type { RecallTrace } from '../../../../shared/api';
import { ReplayColumnView, type ColumnStatus } from './ReplayColumn';
import { ReplayControls } from './ReplayControls';
import { buildReplay } from './replayModel';
import { stageFacts } from './stages';
import { STEP_MS, useReplay } from './useReplay';
import { usePrefersReducedMotion } from './usePrefersReducedMotion';
import './replay.css';

export interface TraceReplayProps {
  trace: RecallTrace;
  /** Changes for every new answer: the replay starts again. */
  runId: number;
  /** A memory to light up on the board (hovered in the results). */
  focusId?: string | null;
  /** Tells the page which stage is shown (the timings chart marks it). */
  onStage?: (name: string | null) => void;
}

export function TraceReplay({ trace, runId, focusId = null, onStage }: TraceReplayProps) {
  const reduced = usePrefersReducedMotion();
  const replay = useMemo(() => buildReplay(trace), [trace]);
  const controls = useReplay(replay.steps.length, runId, { reduced });
  const [hover, setHover] = useState<string | null>(null);
  const board = useRef<HTMLDivElement>(null);
  const current = replay.steps[controls.step];
  const lastRun = replay.steps[replay.steps.length - 1]?.index ?? -1;

  useEffect(() => {
    onStage?.(current?.info.name ?? null);
  }, [current, onStage]);

  // Keep the shown stage in view: the board is wider than the page.
  useEffect(() => {
    const el = board.current;
    const col = current
      ? el?.querySelector<HTMLElement>(`[data-stage="${current.info.name}"]`)
      : null;
    if (!el || !col || typeof el.scrollTo !== 'function') return;
    const right = col.offsetLeft + col.offsetWidth + 16;
    const left = col.offsetLeft - 16;
    const target =
      right > el.scrollLeft + el.clientWidth
        ? right - el.clientWidth
        : left < el.scrollLeft
          ? left
          : el.scrollLeft;
    if (target !== el.scrollLeft)
      el.scrollTo({ left: target, behavior: reduced ? 'auto' : 'smooth' });
  }, [current, reduced]);

  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowRight: controls.next,
      ArrowLeft: controls.prev,
      Home: controls.first,
      End: controls.last,
    };
    const run = keys[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  };

  const statusOf = (step: number | null): ColumnStatus =>
    step === null
      ? 'skipped'
      : step < controls.step
        ? 'done'
        : step === controls.step
          ? 'current'
          : 'upcoming';
  const facts = current?.stage ? stageFacts(current.stage) : [];
  const highlight = hover ?? focusId;
  const style = {
    '--rl-move-ms': `${Math.round((STEP_MS * 0.6) / controls.speed)}ms`,
  } as CSSProperties;

  return (
    <section className="card rl-replay" aria-labelledby="rl-replay-title" style={style}>
      <header className="rl-replay-head">
        <h2 id="rl-replay-title" className="card-title">
          Replay
        </h2>
        <ol className="rl-rail" aria-label="Pipeline stages">
          {replay.columns.map((col) => {
            const status = statusOf(col.step);
            return (
              <li key={col.info.name}>
                <button
                  type="button"
                  className={`rl-rail-step rl-rail-${status}`}
                  disabled={col.step === null}
                  aria-current={status === 'current' ? 'step' : undefined}
                  onClick={() => col.step !== null && controls.goTo(col.step)}
                  title={col.step === null ? `${col.info.label}: not run` : col.info.blurb}
                >
                  {col.info.label}
                </button>
              </li>
            );
          })}
        </ol>
        <ReplayControls replay={controls} reduced={reduced} />
      </header>

      <p className="rl-caption" aria-live="polite" data-testid="replay-caption">
        {current ? (
          <>
            <strong>
              Stage {controls.step + 1} of {controls.count} · {current.info.label}
            </strong>{' '}
            <span className="muted">{current.info.blurb}</span>
            {facts.length ? <span className="rl-caption-facts"> {facts.join(' · ')}</span> : null}
          </>
        ) : (
          'This answer carries no trace.'
        )}
      </p>

      <div
        ref={board}
        className="rl-board"
        // Focusable so the board scrolls by keyboard and takes ←/→ to step.
        tabIndex={0}
        role="group"
        aria-label="The pipeline, one column per stage (← and → step through it)"
        onKeyDown={onKeyDown}
        onMouseLeave={() => setHover(null)}
      >
        <section className="rl-col rl-col-query rl-col-done" aria-label="The query and its terms">
          <header className="rl-col-head">
            <span className="rl-col-name">Query</span>
          </header>
          <p className="rl-query-text">“{replay.query}”</p>
          {replay.terms.length ? (
            <ul className="rl-terms" aria-label="Query terms">
              {replay.terms.map((t, i) => (
                <li key={`${t}-${i}`}>{t}</li>
              ))}
            </ul>
          ) : (
            <p className="rl-col-empty">no searchable words</p>
          )}
        </section>
        {replay.columns.map((col) => (
          <ReplayColumnView
            key={col.info.name}
            replay={replay}
            column={col}
            status={statusOf(col.step)}
            step={controls.step}
            animate={!reduced}
            highlight={highlight}
            onHighlight={setHover}
            stoppedBefore={col.index > lastRun}
          />
        ))}
      </div>
    </section>
  );
}
