// Thought mode: ask as an agent would, and watch the recall happen on the map — the seeds
// light up, then each hop of spreading activation, then the final ranking — step by step
// (Play, or the arrows), the camera following each step. The recall does not count as a
// use of what it finds (no rehearsal).
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { RecallResult } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { toLociError } from '../../lib/useEngineQuery';
import { useEngineClient } from '../../lib/engineContext';
import { useUiStore } from '../../stores/uiStore';
import type { AtlasModel } from './model';
import { thoughtSteps, type ThoughtStep } from './thought';

/** How long a step stays on screen while playing. */
const STEP_MS = 1400;

export interface ThoughtView {
  /** The memories to light up now (a mask over the model's nodes), or null. */
  mask: Uint8Array | null;
}

export function ThoughtPanel({
  model,
  onShow,
  onClose,
}: {
  model: AtlasModel;
  /** The step's memories to light up and frame (null: none). */
  onShow(mask: Uint8Array | null): void;
  onClose(): void;
}) {
  const ids = useId();
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<RecallResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const steps: ThoughtStep[] = useMemo(() => (result ? thoughtSteps(result) : []), [result]);
  const current = steps[step];

  const mask = useMemo(() => {
    if (!current) return null;
    const m = new Uint8Array(model.nodes.length);
    for (const id of current.shown) {
      const i = model.indexOf.get(id);
      if (i !== undefined) m[i] = 1;
    }
    return m;
  }, [current, model]);
  const offMap = current ? current.ids.filter((id) => !model.indexOf.has(id)).length : 0;

  useEffect(() => onShow(mask), [mask, onShow]);
  useEffect(() => () => onShow(null), [onShow]);
  useEffect(() => {
    if (!playing) return;
    if (step >= steps.length - 1) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setStep((s) => s + 1), STEP_MS);
    return () => clearTimeout(timer);
  }, [playing, step, steps.length]);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    if (!q) return;
    setBusy(true);
    setError(null);
    try {
      const r = await client.call('memory.recall', {
        ...(store ? { store } : {}),
        query: q,
        limit: 10,
        explain: true,
        rehearse: false,
        format: 'compact',
      });
      setResult(r);
      setStep(0);
      setPlaying(true);
    } catch (err) {
      setError(toLociError(err).message);
    } finally {
      setBusy(false);
    }
  };

  const title = (id: string) => model.nodes[model.indexOf.get(id) ?? -1]?.title ?? id;
  return (
    <aside
      className="atlas-panel atlas-thought"
      aria-labelledby={`${ids}-t`}
      data-testid="atlas-thought"
    >
      <div className="atlas-panel-head">
        <h2 id={`${ids}-t`} className="atlas-panel-title">
          Thought
        </h2>
        <button
          type="button"
          className="icon-btn"
          aria-label="Leave Thought mode"
          onClick={onClose}
        >
          <Icon name="close" />
        </button>
      </div>
      <p className="muted">Ask as an agent would, then watch recall find its answer on the map.</p>
      <form className="atlas-thought-form" onSubmit={(e) => void run(e)}>
        <label htmlFor={`${ids}-q`} className="visually-hidden">
          Question
        </label>
        <input
          id={`${ids}-q`}
          className="input"
          type="search"
          value={query}
          placeholder="How do we roll back a release?"
          onChange={(e) => setQuery(e.target.value)}
        />
        <Button type="submit" size="sm" variant="primary" busy={busy}>
          Think
        </Button>
      </form>
      {error ? <p className="atlas-thought-error">Recall failed: {error}</p> : null}
      {steps.length ? (
        <>
          <div className="atlas-thought-controls" role="group" aria-label="Replay">
            <Button
              size="sm"
              disabled={step === 0}
              onClick={() => setStep((s) => Math.max(0, s - 1))}
            >
              Previous
            </Button>
            <Button
              size="sm"
              variant={playing ? 'secondary' : 'primary'}
              onClick={() => {
                if (!playing && step >= steps.length - 1) setStep(0);
                setPlaying((p) => !p);
              }}
            >
              {playing ? 'Pause' : 'Play'}
            </Button>
            <Button
              size="sm"
              disabled={step >= steps.length - 1}
              onClick={() => setStep((s) => Math.min(steps.length - 1, s + 1))}
            >
              Next
            </Button>
          </div>
          <ol className="atlas-thought-steps">
            {steps.map((s, i) => (
              <li
                key={s.title}
                aria-current={i === step ? 'step' : undefined}
                className={i === step ? 'is-current' : undefined}
              >
                <button type="button" className="atlas-panel-link" onClick={() => setStep(i)}>
                  {s.title}
                </button>{' '}
                <span className="muted">({s.ids.length})</span>
              </li>
            ))}
          </ol>
          {current ? (
            <div className="atlas-thought-now" aria-live="polite" data-testid="thought-step">
              <p>
                <strong>{current.title}:</strong> {current.text}
                {offMap ? ` (${offMap} not on the map)` : ''}
              </p>
              <ul className="atlas-panel-list">
                {current.ids.slice(0, 8).map((id) => (
                  <li key={id}>{title(id)}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : null}
    </aside>
  );
}
