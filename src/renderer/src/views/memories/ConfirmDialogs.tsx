// The two questions the Memories view asks before acting: erase (irreversible, names the
// memory or counts them) and promote out of quarantine (explains what trusting it means).
// Cancel has the focus first, so Enter alone never destroys anything.
import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon, type IconName } from '../../components/Icon';
import { formatCount } from '../../lib/format';
import { describeTargets, type Target } from './useMemoryActions';

const SHOWN = 5;

/** Cancel (focused first) and the confirming button, busy while its action runs. */
function DialogActions({
  cancel,
  variant,
  icon,
  onClose,
  onConfirm,
  children,
}: {
  cancel: RefObject<HTMLButtonElement | null>;
  variant: 'danger' | 'primary';
  icon: IconName;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="mem-dialog-actions">
      <Button ref={cancel} onClick={onClose} disabled={busy}>
        Cancel
      </Button>
      <Button
        variant={variant}
        icon={icon}
        busy={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            onClose();
          }
        }}
      >
        {children}
      </Button>
    </div>
  );
}

export function EraseDialog({
  targets,
  onClose,
  onConfirm,
}: {
  targets: readonly Target[];
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const many = targets.length > 1;
  const title = `Erase ${describeTargets(targets)} for good?`;
  return (
    <Dialog open onClose={onClose} title={title} initialFocus={cancel} className="mem-dialog">
      <div className="mem-dialog-body">
        <p className="mem-danger-note">
          <Icon name="alert" /> This cannot be undone.
        </p>
        <p>
          Erasing removes {many ? 'them' : 'it'} from every table and index of this store: the text,{' '}
          {many ? 'their' : 'its'} earlier versions, links and history of use. Only an audit entry
          saying that something was erased remains.
        </p>
        <p className="muted">
          To hide {many ? 'them' : 'it'} from recall and keep a way back, forget instead.
        </p>
        {many ? (
          <ul className="mem-dialog-list">
            {targets.slice(0, SHOWN).map((t) => (
              <li key={t.id} className="truncate">
                {t.title}
              </li>
            ))}
            {targets.length > SHOWN ? (
              <li className="muted">and {formatCount(targets.length - SHOWN)} more</li>
            ) : null}
          </ul>
        ) : null}
      </div>
      <DialogActions
        cancel={cancel}
        variant="danger"
        icon="trash"
        onClose={onClose}
        onConfirm={onConfirm}
      >
        {many ? `Erase ${formatCount(targets.length)} for good` : 'Erase for good'}
      </DialogActions>
    </Dialog>
  );
}

export function PromoteDialog({
  targets,
  reasons,
  onClose,
  onConfirm,
}: {
  targets: readonly Target[];
  /** Why Loci held it back (one memory); empty for many. */
  reasons: readonly string[];
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Release ${describeTargets(targets)} from quarantine?`}
      initialFocus={cancel}
      className="mem-dialog"
    >
      <div className="mem-dialog-body">
        {targets.length > 1 ? (
          <p>
            Loci held these {formatCount(targets.length)} memories back because each looks like it
            holds a secret. Quarantined memories are shown here but never given to an agent.
          </p>
        ) : (
          <p>
            Loci held this memory back because it looks like it holds a secret
            {reasons.length ? (
              <>
                {' '}
                (<span className="mono">{reasons.join(', ')}</span>)
              </>
            ) : null}
            . Quarantined memories are shown here but never given to an agent.
          </p>
        )}
        <p>
          Promoting makes {targets.length > 1 ? 'them' : 'it'} <strong>trusted</strong>: every agent
          connected to this store can recall {targets.length > 1 ? 'them' : 'it'} from now on. Do
          this only if {targets.length > 1 ? 'none holds' : 'it holds no'} credential — or edit the
          secret out first.
        </p>
      </div>
      <DialogActions
        cancel={cancel}
        variant="primary"
        icon="check"
        onClose={onClose}
        onConfirm={onConfirm}
      >
        Promote to trusted
      </DialogActions>
    </Dialog>
  );
}

export function RedactDialog({
  target,
  hidden,
  onClose,
  onConfirm,
}: {
  target: Target;
  /** How many credentials the engine masked in it. */
  hidden: number;
  onClose: () => void;
  onConfirm: () => Promise<unknown>;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Redact the secret in ${describeTargets([target])}?`}
      initialFocus={cancel}
      className="mem-dialog"
    >
      <div className="mem-dialog-body">
        <p>
          {hidden === 1 ? 'The credential' : `The ${formatCount(hidden)} credentials`} Loci found
          will be replaced, in this version and in every earlier one, by a placeholder such as{' '}
          <code>[redacted github-token 3f9a…]</code>. The placeholder keeps a keyed fingerprint: the
          same secret gives the same fingerprint in this store, and nothing can turn it back into
          the secret.
        </p>
        <p>
          What is left is released from quarantine, so agents can recall it. This cannot be undone:
          keep the secret somewhere else first if you still need it.
        </p>
      </div>
      <DialogActions
        cancel={cancel}
        variant="danger"
        icon="key"
        onClose={onClose}
        onConfirm={onConfirm}
      >
        Redact and release
      </DialogActions>
    </Dialog>
  );
}
