// "Write config": shows the change `loci setup` would make to one client's file (the Loci
// entry before and after, tokens masked unless revealed), says that the original is
// backed up first, and writes it on confirmation (setup.write).
import { useState } from 'react';
import type { MethodArgs, SetupPlan, SetupWriteResult } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';
import { maskTokens } from './snippet';

export function DiffView({ diff, label }: { diff: string; label: string }) {
  const [path, ...lines] = diff.split('\n');
  return (
    <figure className="cv-diff">
      <figcaption>
        <code>{path}</code>
      </figcaption>
      <pre aria-label={label} tabIndex={0}>
        {lines.map((l, i) => {
          const kind = l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'same';
          return (
            <span key={i} className={`cv-diff-line cv-diff-${kind}`}>
              {kind === 'add' ? (
                <span className="visually-hidden">added: </span>
              ) : kind === 'del' ? (
                <span className="visually-hidden">removed: </span>
              ) : null}
              {l}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </figure>
  );
}

export interface WriteConfigDialogProps {
  plan: SetupPlan | null;
  token: string | null;
  revealed: boolean;
  onClose(): void;
  onWritten(result: SetupWriteResult): void;
}

export function WriteConfigDialog({
  plan,
  token,
  revealed,
  onClose,
  onWritten,
}: WriteConfigDialogProps) {
  const client = useEngineClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);

  const write = async () => {
    if (!plan) return;
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('setup.write', {
        // The plan names its client with a plain string; it is one the engine knows.
        client: plan.client as MethodArgs<'setup.write'>['client'],
        transport: plan.transport,
      });
      onWritten(result);
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  return (
    <Dialog
      open={plan !== null}
      onClose={close}
      title={plan ? `Write the Loci entry for ${plan.name}?` : 'Write config'}
      className="cv-write-dialog"
    >
      {plan ? (
        <>
          <div className="cv-dialog-body">
            <p>
              {plan.action === 'update' ? 'Replaces the Loci entry in' : 'Adds a Loci entry to'}{' '}
              <code className="mono">{plan.file}</code> (
              {plan.transport === 'http' ? 'HTTP' : 'stdio'}
              ):
            </p>
            <DiffView
              diff={revealed ? plan.diff : maskTokens(plan.diff, token)}
              label={`The change to ${plan.file}`}
            />
            <p className="card-note">
              If the file exists, it is copied to{' '}
              <code className="mono">{plan.file}.loci-backup-&lt;time&gt;</code> first. Comments,
              formatting and every other entry are kept. Restart {plan.name} afterwards.
            </p>
            {error ? <ErrorState compact title="Could not write the file" error={error} /> : null}
          </div>
          <div className="cv-dialog-actions">
            <Button variant="ghost" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button variant="primary" icon="check" busy={busy} onClick={() => void write()}>
              Write config
            </Button>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
