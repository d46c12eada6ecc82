// The Verify card: runs `audit.verify` with a progress bar fed by `audit.progressed`,
// then says whether the chain is intact, or which entry is the first broken one and why,
// and shows the anchor to keep elsewhere. Before a run it shows the last verification.
import { useState } from 'react';
import type { AuditVerifyResult } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { useEngineQuery, toLociError } from '../../lib/useEngineQuery';
import { CopyButton } from '../connect/CopyButton';
import { inStore, REASONS } from './auditModel';

export interface VerifyCardProps {
  store: string | undefined;
  /** Called with the first broken entry (or null) once a run ends. */
  onResult(result: AuditVerifyResult): void;
  onShowEntry(seq: number): void;
}

export function VerifyCard({ store, onResult, onShowEntry }: VerifyCardProps) {
  const client = useEngineClient();
  const last = useEngineQuery('audit.anchor', inStore(store, {}));
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<{ checked: number; total: number } | null>(null);
  const [result, setResult] = useState<AuditVerifyResult | null>(null);
  const [error, setError] = useState<LociError | null>(null);

  useEngineEvent('audit.progressed', (p) => {
    if ((store === undefined || p.store === store) && running && !p.done)
      setProgress({ checked: p.checked, total: p.total });
  });

  const verify = async () => {
    setRunning(true);
    setError(null);
    setProgress(null);
    try {
      const r = await client.call('audit.verify', inStore(store, {}));
      setResult(r);
      onResult(r);
      last.reload();
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setRunning(false);
    }
  };

  const broken = result?.first_broken ?? null;
  const previous = last.data?.last_verify ?? null;
  const pct =
    progress && progress.total > 0 ? Math.round((progress.checked / progress.total) * 100) : 0;

  return (
    <section className="card au-verify" aria-labelledby="au-verify-title">
      <div className="au-verify-head">
        <h2 className="card-title" id="au-verify-title">
          <Icon name="audit" /> Verification
        </h2>
        <Button variant="primary" icon="check" busy={running} onClick={() => void verify()}>
          {running ? 'Verifying…' : 'Verify the chain'}
        </Button>
      </div>

      {running ? (
        <div className="au-progress" role="status" aria-live="polite">
          <progress
            max={progress?.total || 1}
            value={progress?.checked ?? 0}
            aria-label="Entries verified"
          />
          <span>
            {progress
              ? `${progress.checked.toLocaleString()} of ${progress.total.toLocaleString()} entries (${pct}%)`
              : 'Starting…'}
          </span>
        </div>
      ) : null}

      {error ? (
        <ErrorState compact title="Could not verify" error={error} onRetry={() => void verify()} />
      ) : null}

      {result && !running ? (
        <div
          className={broken ? 'au-verdict au-verdict-broken' : 'au-verdict au-verdict-ok'}
          role="status"
          data-testid="audit-verdict"
        >
          <Icon name={broken ? 'alert' : 'check'} size={18} />
          {broken ? (
            <div>
              <strong>Broken at entry {broken.seq}</strong>: {REASONS[broken.reason]}.{' '}
              <span className="au-muted">{broken.detail}</span>
              <div className="au-verdict-actions">
                <Button size="sm" onClick={() => onShowEntry(broken.seq)}>
                  Show entry {broken.seq}
                </Button>
                <span className="au-muted">
                  {result.checked.toLocaleString()} entries before it verified.
                </span>
              </div>
            </div>
          ) : (
            <div>
              <strong>Chain intact</strong>: {result.checked.toLocaleString()} entries verified in{' '}
              {result.duration_ms} ms
              {result.anchor_checked
                ? `, including against the anchor of entry ${result.anchor_checked.seq}`
                : ''}
              .
            </div>
          )}
        </div>
      ) : null}

      {result?.anchor_text && !running ? (
        <div className="au-anchor">
          <p className="card-note">
            Anchor of this verification: keep a copy somewhere else (a note, a password manager).{' '}
            <code>loci audit verify --anchor &lt;it&gt;</code> later proves that no entry was cut
            from the end.
          </p>
          <div className="au-anchor-row">
            <code className="au-anchor-text" data-testid="audit-anchor">
              {result.anchor_text}
            </code>
            <CopyButton text={result.anchor_text} what="the anchor" />
          </div>
        </div>
      ) : null}

      {!result && !running && !error ? (
        <p className="card-note" data-testid="audit-last-verify">
          {previous ? (
            <>
              Last verified <TimeAgo iso={previous.at} />:{' '}
              {previous.ok
                ? `intact (${previous.checked.toLocaleString()} entries).`
                : `broken at entry ${previous.first_broken?.seq ?? '?'}.`}
            </>
          ) : (
            'This chain has not been verified yet. Verifying never changes the chain or your memories.'
          )}
        </p>
      ) : null}
    </section>
  );
}
