// What the answer says about itself: which tier answered (`how`), whether meaning was
// searched (`semantic`), how sure it is (`confidence`, with what it is based on), the
// abstention decision with its reason and a gauge of the best evidence against the bar,
// the `degraded` notes, and the token use.
import type { RecallResult } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { decisionOf, type Decision } from './scoring';

const HOW: Record<RecallResult['how'], string> = {
  fastpath: 'recognised: the query names a memory; it leads, and the query’s words find the rest',
  hybrid: 'lexical and vector candidates, fused',
  lexical: 'words only: no vector branch ran',
};

function Gauge({ gauge }: { gauge: NonNullable<Decision['gauge']> }) {
  const pct = (v: number) => `${Math.max(0, Math.min(100, v * 100))}%`;
  const best = gauge.best;
  const clears = best !== null && best >= gauge.bar;
  return (
    <figure className="rl-gauge">
      <div
        className="rl-gauge-track"
        role="img"
        aria-label={`Best similarity ${best === null ? 'none' : best.toFixed(2)}, bar ${gauge.bar.toFixed(2)}, floor ${gauge.floor.toFixed(2)}`}
      >
        {best !== null ? (
          <span
            className={clears ? 'rl-gauge-fill is-clear' : 'rl-gauge-fill'}
            style={{ width: pct(best) }}
          />
        ) : null}
        {gauge.floor < gauge.bar ? (
          <span className="rl-gauge-mark is-floor" style={{ left: pct(gauge.floor) }} />
        ) : null}
        <span className="rl-gauge-mark" style={{ left: pct(gauge.bar) }} />
      </div>
      <figcaption className="rl-gauge-legend">
        <span>
          best similarity <strong className="num">{best === null ? '—' : best.toFixed(2)}</strong>
        </span>
        <span>
          {gauge.calibrated ? 'calibrated' : 'default'} bar{' '}
          <strong className="num">{gauge.bar.toFixed(2)}</strong>
        </span>
        {gauge.floor < gauge.bar ? (
          <span>
            floor <span className="num">{gauge.floor.toFixed(2)}</span>
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

export function AnswerFacts({ result, asClient }: { result: RecallResult; asClient: string }) {
  const total = result.timings.total_ms;
  return (
    <dl className="rl-facts" aria-label="What the answer says">
      <div>
        <dt>how</dt>
        <dd>
          <span
            className={`rl-pill rl-how-${result.how}`}
            data-testid="recall-how"
            title={HOW[result.how]}
          >
            {result.how}
          </span>
        </dd>
      </div>
      <div>
        <dt>semantic</dt>
        <dd>
          <span className={result.semantic === 'on' ? 'rl-pill rl-ok' : 'rl-pill rl-warn'}>
            {result.semantic}
          </span>
        </dd>
      </div>
      <div>
        <dt>answer</dt>
        <dd>
          <span
            className={result.abstained ? 'rl-pill rl-warn' : 'rl-pill rl-ok'}
            data-testid="recall-verdict"
          >
            {result.abstained
              ? 'abstained'
              : `${result.results.length} result${result.results.length === 1 ? '' : 's'}`}
          </span>
        </dd>
      </div>
      <div>
        <dt>confidence</dt>
        <dd>
          <span
            className={`rl-pill rl-conf-${result.confidence.level}`}
            data-testid="recall-confidence"
            title={result.confidence.basis}
          >
            {result.confidence.level} · {result.confidence.value.toFixed(2)}
          </span>
        </dd>
      </div>
      <div>
        <dt>tokens</dt>
        <dd className="num">
          {result.tokens.used}
          {result.tokens.max !== null ? ` / ${result.tokens.max}` : ''}
          {result.omitted ? ` · ${result.omitted} left out` : ''}
        </dd>
      </div>
      {typeof total === 'number' ? (
        <div>
          <dt>time</dt>
          <dd className="num">{total.toFixed(1)} ms</dd>
        </div>
      ) : null}
      <div>
        <dt>as</dt>
        <dd>{asClient ? <code>{asClient}</code> : 'the observatory'}</dd>
      </div>
    </dl>
  );
}

export function DecisionCard({ result }: { result: RecallResult }) {
  const decision = decisionOf(result);
  return (
    <section className="card rl-decision-card" aria-labelledby="rl-decision-title">
      <h2 id="rl-decision-title" className="card-title">
        Decision
      </h2>

      <div
        className={decision.abstained ? 'rl-decision is-abstained' : 'rl-decision'}
        data-testid="recall-decision"
      >
        <p className="rl-decision-title">
          <Icon name={decision.abstained ? 'alert' : 'check'} />
          {decision.abstained ? 'Abstained: nothing relevant' : 'Answered'}
        </p>
        <p className="rl-decision-reason">{decision.reason}</p>
        {decision.gauge ? <Gauge gauge={decision.gauge} /> : null}
      </div>
    </section>
  );
}

/** The answer's `degraded` notes: anything that made it weaker than usual. */
export function DegradedNotes({ notes }: { notes: string[] }) {
  if (!notes.length) return null;
  return (
    <ul className="rl-degraded" aria-label="Degraded: what limited this answer">
      {notes.map((note) => (
        <li key={note}>
          <Icon name="info" />
          <span>{note}</span>
        </li>
      ))}
    </ul>
  );
}
