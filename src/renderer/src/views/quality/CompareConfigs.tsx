// Comparing two ranking configurations on the marked cases: a few knobs per side (vector
// search, the recogniser, the ranking weights), both run over the same cases, and the
// paired difference B − A with its 95 % interval, said in words. Nothing is saved.
import { useId, useState } from 'react';
import type { EvalRunResult } from '../../../../shared/eval';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';
import {
  DEFAULT_KNOBS,
  formatEstimate,
  knobsToConfig,
  METRICS,
  signed,
  verdict,
  type Knobs,
} from './qualityModel';

const WEIGHTS = ['relevance', 'activation', 'retrievability', 'salience'] as const;

function Side({
  name,
  knobs,
  onChange,
}: {
  name: 'A' | 'B';
  knobs: Knobs;
  onChange: (k: Knobs) => void;
}) {
  const id = useId();
  return (
    <fieldset className="q-side" data-side={name}>
      <legend>Configuration {name}</legend>
      <label className="q-check">
        <input
          type="checkbox"
          checked={knobs.use_vectors}
          onChange={(e) => onChange({ ...knobs, use_vectors: e.target.checked })}
        />
        Vector search
      </label>
      <label className="q-check">
        <input
          type="checkbox"
          checked={knobs.use_recognizer}
          onChange={(e) => onChange({ ...knobs, use_recognizer: e.target.checked })}
        />
        Recogniser fast path
      </label>
      {WEIGHTS.map((w) => (
        <div key={w} className="q-weight">
          <label htmlFor={`${id}-${w}`}>Weight: {w}</label>
          <input
            id={`${id}-${w}`}
            className="input q-number"
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={knobs[w]}
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v)) onChange({ ...knobs, [w]: Math.min(1, Math.max(0, v)) });
            }}
          />
        </div>
      ))}
    </fieldset>
  );
}

export function CompareConfigs({ store }: { store: string | undefined }) {
  const client = useEngineClient();
  const [a, setA] = useState<Knobs>(DEFAULT_KNOBS);
  const [b, setB] = useState<Knobs>({ ...DEFAULT_KNOBS, use_vectors: false });
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const [result, setResult] = useState<EvalRunResult | null>(null);

  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      setResult(
        await client.call('eval.run', {
          ...(store ? { store } : {}),
          config: knobsToConfig(a),
          label: 'A',
          against: knobsToConfig(b),
          against_label: 'B',
          save: false,
        }),
      );
    } catch (err) {
      setError(toLociError(err));
      setResult(null);
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="card" aria-labelledby="q-compare-title" data-testid="quality-compare">
      <h2 className="card-title" id="q-compare-title">
        Compare two configurations
      </h2>
      <p className="card-note">
        Both run over the same marked cases without being saved; the difference is paired case by
        case, with a 95 % bootstrap interval. A difference whose interval holds zero is not one you
        can rely on yet: mark more recalls.
      </p>
      <div className="q-sides">
        <Side name="A" knobs={a} onChange={setA} />
        <Side name="B" knobs={b} onChange={setB} />
      </div>
      <div>
        <Button variant="primary" icon="refresh" busy={running} onClick={() => void run()}>
          Run both
        </Button>
      </div>
      {error ? (
        <ErrorState
          compact
          title="The comparison failed"
          error={error}
          onRetry={() => void run()}
        />
      ) : null}
      {result && result.against && result.difference ? (
        <div className="q-result" data-testid="quality-compare-result">
          <table className="q-table">
            <caption className="visually-hidden">
              Metrics of A and B, and the paired difference B − A
            </caption>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">A</th>
                <th scope="col">B</th>
                <th scope="col">B − A [95 %]</th>
              </tr>
            </thead>
            <tbody>
              {METRICS.map((m) => {
                const d = result.difference![m.key];
                return (
                  <tr key={m.key}>
                    <th scope="row" title={m.hint}>
                      {m.label}
                    </th>
                    <td className="num">{formatEstimate(result.run.summary[m.key])}</td>
                    <td className="num">{formatEstimate(result.against!.summary[m.key])}</td>
                    <td className="num">
                      {d.n === 0 ? '—' : `${signed(d.mean)} [${signed(d.low)}, ${signed(d.high)}]`}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <ul className="q-verdicts" aria-live="polite">
            {(['ndcg10', 'wrong10'] as const).map((k) => {
              const v = verdict(result.difference![k], k, 'A', 'B');
              return (
                <li key={k} className={`q-verdict q-verdict-${v.tone}`}>
                  {v.text}
                </li>
              );
            })}
          </ul>
          <p className="card-note">
            A: {result.run.label}. B: {result.against.label}. {result.run.cases} case
            {result.run.cases === 1 ? '' : 's'}.
          </p>
        </div>
      ) : null}
    </section>
  );
}
