// The current store's vectors: how many memories have one of the active model and how
// many wait (stats.get), embedding the waiting ones now with live progress
// (embedding.backfill + `embedding.progressed`), and recalibrating when recall abstains
// (recall.calibrate: the similarity threshold and how well it separates).
import { useId, useState, type FormEvent } from 'react';
import type { CalibrationResult } from '../../../../shared/api';
import type { EventMap } from '../../../../shared/events';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { formatCount, formatPercent } from '../../lib/format';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { ProgressBar } from './ProgressBar';

const SAMPLE_MIN = 10;
const SAMPLE_MAX = 2000;
const SAMPLE_DEFAULT = 200;

type Progress = EventMap['embedding.progressed'];

function Calibration({ store }: { store: string | null }) {
  const client = useEngineClient();
  const [sample, setSample] = useState(String(SAMPLE_DEFAULT));
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CalibrationResult | null>(null);
  const [error, setError] = useState<LociError | null>(null);
  const fieldId = useId();
  const hintId = useId();
  const n = Number(sample);
  const valid = Number.isInteger(n) && n >= SAMPLE_MIN && n <= SAMPLE_MAX;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setBusy(true);
    setError(null);
    try {
      const r = await client.call('recall.calibrate', { ...(store ? { store } : {}), sample: n });
      setResult(r);
      useUiStore.getState().toast({
        message: `Recalibrated “${r.store}”: threshold ${r.threshold.toFixed(3)}.`,
        tone: 'success',
      });
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sv-calibrate">
      <h3 className="sv-subtitle">Abstention</h3>
      <p className="card-note">
        Recall answers “nothing relevant” when the best match is less similar than a threshold,
        learnt from this store’s own memories. Recalibrate after a model change or a large import.
      </p>
      <form className="sv-row" onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={fieldId} className="sv-label-inline">
          Sample
        </label>
        <input
          id={fieldId}
          className="input sv-number"
          type="number"
          inputMode="numeric"
          min={SAMPLE_MIN}
          max={SAMPLE_MAX}
          step={10}
          value={sample}
          onChange={(e) => setSample(e.target.value)}
          aria-invalid={!valid || undefined}
          aria-describedby={hintId}
        />
        <Button type="submit" icon="refresh" busy={busy} disabled={!valid}>
          Recalibrate
        </Button>
        <span id={hintId} className={valid ? 'sv-hint' : 'sv-hint sv-hint-error'}>
          memories to ask about ({SAMPLE_MIN}–{formatCount(SAMPLE_MAX)})
        </span>
      </form>
      {error ? <ErrorState compact title="Could not recalibrate" error={error} /> : null}
      {result ? (
        <dl className="pairs sv-calibration" data-testid="calibration">
          <dt>Threshold</dt>
          <dd data-stat="calibration.threshold">{result.threshold.toFixed(3)}</dd>
          <dt>Balanced accuracy</dt>
          <dd data-stat="calibration.accuracy">{(result.balanced_accuracy * 100).toFixed(1)}%</dd>
          <dt>Questions</dt>
          <dd>
            {formatCount(result.answerable)} answerable · {formatCount(result.unanswerable)}{' '}
            unanswerable
          </dd>
          <dt>Memories</dt>
          <dd>{formatCount(result.memories)}</dd>
          <dt>Model</dt>
          <dd>
            <code className="mono">{result.model}</code>
          </dd>
          <dt>Calibrated</dt>
          <dd>
            <TimeAgo iso={result.calibrated_at} />
          </dd>
        </dl>
      ) : null}
    </div>
  );
}

export function EmbeddingCard() {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const stats = useEngineQuery('stats.get', store ? { store } : {}, {
    refreshOn: ['memory.changed', 'embedding.progressed'],
    throttleMs: 1_000,
  });
  const [progress, setProgress] = useState<Progress | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const shown = stats.data?.store ?? store;

  // The daemon also embeds on its own (after writes, after a model change): show that too.
  useEngineEvent('embedding.progressed', (p) => {
    if (p.store === shown) setProgress(p.done >= p.total && !running ? null : p);
  });

  const backfill = async () => {
    setRunning(true);
    setError(null);
    try {
      const v = await client.call('embedding.backfill', store ? { store } : {});
      useUiStore.getState().toast({
        message:
          v.pending === 0
            ? `Every memory of “${shown}” has a vector of ${v.model}.`
            : `${formatCount(v.pending)} memories still wait for a vector.`,
        tone: 'success',
      });
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setRunning(false);
      setProgress(null);
      stats.reload();
    }
  };

  const v = stats.data?.vectors;
  const total = v ? v.embedded + v.pending : 0;
  return (
    <section className="card card-wide" aria-labelledby="sv-embedding">
      <h2 id="sv-embedding" className="card-title">
        <Icon name="vector" /> Vectors of “{shown ?? '…'}”
      </h2>
      {!v ? (
        stats.loading ? (
          <LoadingState label="Loading the store's vectors…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not load the vectors"
            error={stats.error}
            onRetry={stats.reload}
          />
        )
      ) : (
        <div className="sv-embedding">
          <div className="sv-embedding-status">
            <p className="card-lead">
              <span className={v.semantic === 'on' ? 'pill pill-ok' : 'pill pill-warn'}>
                semantic {v.semantic}
              </span>
              <code className="mono">{v.model}</code>
            </p>
            <dl className="pairs">
              <dt>Embedded</dt>
              <dd data-stat="vectors.embedded">
                {formatCount(v.embedded)}{' '}
                <span className="muted">({formatPercent(v.embedded, total)})</span>
              </dd>
              <dt>Waiting</dt>
              <dd data-stat="vectors.pending">{formatCount(v.pending)}</dd>
            </dl>
            {progress || running ? (
              <div className="sv-install" data-testid="backfill-progress">
                <p className="muted">
                  {progress
                    ? `Embedding with ${progress.model}: ${formatCount(progress.done)} of ${formatCount(progress.total)}`
                    : 'Embedding…'}
                </p>
                <ProgressBar
                  label={`Embedding the memories of ${shown}`}
                  value={progress && progress.total > 0 ? progress.done / progress.total : null}
                  {...(progress
                    ? {
                        valueText: `${formatCount(progress.done)} of ${formatCount(progress.total)}`,
                      }
                    : {})}
                />
              </div>
            ) : null}
            <div className="sv-inline-actions">
              <Button
                icon="vector"
                busy={running}
                disabled={v.pending === 0}
                onClick={() => void backfill()}
              >
                {v.pending === 0 ? 'Nothing to embed' : `Embed ${formatCount(v.pending)} waiting`}
              </Button>
            </div>
            {error ? <ErrorState compact title="Could not embed" error={error} /> : null}
          </div>
          <Calibration store={store} />
        </div>
      )}
    </section>
  );
}
