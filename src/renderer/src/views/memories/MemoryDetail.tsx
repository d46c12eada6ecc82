// The detail panel of one memory (`#/memories/<id>`): its full text (or the editor), and
// the actions on it — pin, forget with Undo, restore, erase after confirmation, promote
// out of quarantine after an explanation — then tags, links, versions, strength and
// provenance. It follows engine events for this memory, so an agent's change shows.
import { useEffect, useRef, useState } from 'react';
import type { MemoryView } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { KindBadge } from '../../components/KindBadge';
import { LoadingState } from '../../components/LoadingState';
import { SecretText } from '../../components/SecretText';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { useUiStore } from '../../stores/uiStore';
import { EraseDialog, PromoteDialog, RedactDialog } from './ConfirmDialogs';
import { ProvenanceSection, StrengthSection } from './InfoSections';
import { LinksSection } from './LinksSection';
import { MemoryEditor } from './MemoryEditor';
import { TagEditor } from './TagEditor';
import { useMemoryActions } from './useMemoryActions';
import { useMemoryDetail } from './useMemoryDetail';
import { VersionsSection } from './VersionsSection';

export const DETAIL_HEADING_ID = 'mem-detail-title';

function Header({
  memory,
  editing,
  onEdit,
  onClose,
  onErased,
}: {
  memory: MemoryView;
  editing: boolean;
  onEdit: () => void;
  onClose: () => void;
  onErased: () => void;
}) {
  const actions = useMemoryActions();
  const [dialog, setDialog] = useState<'erase' | 'promote' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const target = {
    id: memory.id,
    title: memory.title,
    version: memory.version,
    pinned: memory.pinned,
    deleted: memory.deleted_at !== null,
  };
  const deleted = memory.deleted_at !== null;
  const run = async (name: string, fn: () => Promise<unknown>) => {
    setBusy(name);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };

  return (
    <header className="mem-detail-head">
      <div className="mem-detail-titlebar">
        <h2 id={DETAIL_HEADING_ID} className="mem-detail-title" tabIndex={-1}>
          <SecretText text={memory.title} />
        </h2>
        <button
          type="button"
          className="icon-btn"
          aria-label="Close the details (Esc)"
          title="Close (Esc)"
          onClick={onClose}
        >
          <Icon name="close" />
        </button>
      </div>
      <div className="mem-detail-badges">
        <KindBadge kind={memory.kind} />
        {memory.pinned ? (
          <span className="mem-flag">
            <Icon name="pin" size={12} /> pinned
          </span>
        ) : null}
        {memory.trust === 'quarantined' ? (
          <span className="mem-flag mem-flag-warn">
            <Icon name="alert" size={12} /> quarantined
          </span>
        ) : null}
        {deleted ? <span className="mem-flag mem-flag-deleted">forgotten</span> : null}
        <span className="muted">
          v{memory.version} · written <TimeAgo iso={memory.created_at} />
        </span>
      </div>
      {editing ? null : (
        <div className="mem-detail-actions" role="toolbar" aria-label="Actions on this memory">
          {deleted ? (
            <Button
              size="sm"
              variant="primary"
              icon="undo"
              busy={busy === 'restore'}
              onClick={() => void run('restore', () => actions.restore([target]))}
            >
              Restore
            </Button>
          ) : (
            <>
              <Button size="sm" icon="pencil" onClick={onEdit}>
                Edit
              </Button>
              <Button
                size="sm"
                icon="pin"
                aria-pressed={memory.pinned}
                busy={busy === 'pin'}
                onClick={() => void run('pin', () => actions.setPinned([target], !memory.pinned))}
              >
                {memory.pinned ? 'Unpin' : 'Pin'}
              </Button>
              {memory.trust === 'quarantined' ? (
                <Button size="sm" icon="check" onClick={() => setDialog('promote')}>
                  Promote…
                </Button>
              ) : null}
              <Button
                size="sm"
                icon="trash"
                busy={busy === 'forget'}
                onClick={() => void run('forget', () => actions.forget([target]))}
              >
                Forget
              </Button>
            </>
          )}
          <Button size="sm" variant="ghost" icon="trash" onClick={() => setDialog('erase')}>
            Erase…
          </Button>
        </div>
      )}
      {dialog === 'erase' ? (
        <EraseDialog
          targets={[target]}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            const outcome = await actions.erase([target]);
            if (outcome.ok.length) onErased();
          }}
        />
      ) : null}
      {dialog === 'promote' ? (
        <PromoteDialog
          targets={[target]}
          reasons={memory.quarantine_reasons}
          onClose={() => setDialog(null)}
          onConfirm={() => actions.promote([target])}
        />
      ) : null}
    </header>
  );
}

function Banners({
  memory,
  revealed,
  revealing,
  onPromote,
  onReveal,
  onHide,
  onRedact,
}: {
  memory: MemoryView;
  /** The secret is shown in clear (a person asked; the engine audited it). */
  revealed: boolean;
  revealing: boolean;
  onPromote: () => void;
  onReveal: () => void;
  onHide: () => void;
  onRedact: () => void;
}) {
  const hidden = memory.secrets_hidden ?? 0;
  return (
    <>
      {memory.deleted_at ? (
        <div className="mem-banner">
          <Icon name="info" />
          <span>
            Forgotten <TimeAgo iso={memory.deleted_at} />: hidden from recall and from agents.
            Restore brings it back as it was; erase removes it for good.
          </span>
        </div>
      ) : null}
      {memory.trust === 'quarantined' ? (
        <div className="mem-banner mem-banner-warn" data-testid="quarantine-banner">
          <Icon name="alert" />
          <div className="mem-banner-body">
            <span>
              <strong>Quarantined:</strong> it looked like it holds a secret
              {memory.quarantine_reasons.length ? (
                <>
                  {' '}
                  (<span className="mono">{memory.quarantine_reasons.join(', ')}</span>)
                </>
              ) : null}
              , so no agent is given it.{' '}
              {revealed
                ? 'The secret is shown in clear (your reveal is in the audit chain).'
                : hidden
                  ? `${hidden === 1 ? 'The secret is' : `${hidden} secrets are`} masked here.`
                  : ''}{' '}
              Redact it to release the rest, edit it out, or{' '}
              <button type="button" className="mem-linkish" onClick={onPromote}>
                promote it
              </button>{' '}
              if it is safe to share.
            </span>
            {memory.deleted_at ? null : (
              <span className="mem-banner-actions">
                {revealed ? (
                  <Button size="sm" icon="eyeOff" onClick={onHide}>
                    Hide
                  </Button>
                ) : hidden ? (
                  <Button size="sm" icon="eye" busy={revealing} onClick={onReveal}>
                    Reveal
                  </Button>
                ) : null}
                {hidden || revealed ? (
                  <Button size="sm" icon="key" onClick={onRedact}>
                    Redact…
                  </Button>
                ) : null}
              </span>
            )}
          </div>
        </div>
      ) : null}
    </>
  );
}

export function MemoryDetail({
  id,
  onClose,
  onFilterTag,
  onShowSession,
}: {
  id: string;
  onClose: () => void;
  onFilterTag: (tag: string) => void;
  /** Lists a session's turns in the order they were said. */
  onShowSession?: (session: string) => void;
}) {
  const store = useUiStore((s) => s.store);
  const { memory, history, neighbors } = useMemoryDetail(id, store);
  const [editing, setEditing] = useState(false);
  const [promoting, setPromoting] = useState(false);
  const [redacting, setRedacting] = useState(false);
  const [revealed, setRevealed] = useState<MemoryView | null>(null);
  const [revealing, setRevealing] = useState(false);
  const actions = useMemoryActions();
  const client = useEngineClient();
  const panel = useRef<HTMLElement>(null);
  const masked = memory.data;
  // What is shown: the clear text once a person revealed this version, else the masked one.
  const data =
    revealed && masked && revealed.id === masked.id && revealed.version === masked.version
      ? revealed
      : masked;

  // Another memory: leave the editor, start at the top, hide what was revealed.
  useEffect(() => {
    setEditing(false);
    setRevealed(null);
    panel.current?.scrollTo?.({ top: 0 });
  }, [id]);

  /** The memory in clear (audited by the engine as a reveal by `ui`). */
  const reveal = async (): Promise<MemoryView | null> => {
    setRevealing(true);
    try {
      const view = await client.call('memory.get', {
        ...(store ? { store } : {}),
        id,
        include_deleted: true,
        reveal: true,
      });
      setRevealed(view);
      return view;
    } catch (err) {
      useUiStore.getState().toast({
        message: `Could not reveal it: ${(err as Error).message}`,
        tone: 'error',
      });
      return null;
    } finally {
      setRevealing(false);
    }
  };
  // Editing masked text would save the mask: the editor always gets the text in clear.
  const edit = async () => {
    if (data?.secrets_hidden && !(await reveal())) return;
    setEditing(true);
  };

  const reloadAll = () => {
    memory.reload();
    history.reload();
  };

  let body;
  if (memory.loading) {
    body = <LoadingState label="Loading the memory…" />;
  } else if (!data) {
    body =
      memory.error?.code === 'not-found' ? (
        <EmptyState
          icon="info"
          title="This memory is not here"
          action={{ label: 'Close', onClick: onClose, icon: 'close' }}
        >
          <p>
            It was erased, or it belongs to another store. Nothing with the id <code>{id}</code>{' '}
            exists in <strong>{store ?? 'this store'}</strong>.
          </p>
        </EmptyState>
      ) : (
        <ErrorState
          title="Could not load this memory"
          error={memory.error}
          onRetry={memory.reload}
        />
      );
  } else {
    body = (
      <>
        <Header
          memory={data}
          editing={editing}
          onEdit={() => void edit()}
          onClose={onClose}
          onErased={onClose}
        />
        {memory.error ? (
          <ErrorState compact title="Could not refresh" error={memory.error} onRetry={reloadAll} />
        ) : null}
        <Banners
          memory={masked ?? data}
          revealed={data !== masked}
          revealing={revealing}
          onPromote={() => setPromoting(true)}
          onReveal={() => void reveal()}
          onHide={() => setRevealed(null)}
          onRedact={() => setRedacting(true)}
        />
        {editing ? (
          <MemoryEditor
            key={data.id}
            memory={data}
            onDone={() => setEditing(false)}
            onReload={reloadAll}
          />
        ) : (
          <div className="mem-content" data-testid="memory-content">
            <SecretText text={data.content} />
          </div>
        )}
        <TagEditor memory={data} onFilterTag={onFilterTag} />
        <LinksSection memory={data} neighbors={neighbors.data} />
        <VersionsSection
          memory={data}
          history={history.data}
          historyError={history.error}
          onReload={reloadAll}
        />
        <StrengthSection memory={data} />
        <ProvenanceSection memory={data} {...(onShowSession ? { onShowSession } : {})} />
        {redacting ? (
          <RedactDialog
            target={{ id: data.id, title: (masked ?? data).title }}
            hidden={Math.max(1, (masked ?? data).secrets_hidden ?? 1)}
            onClose={() => setRedacting(false)}
            onConfirm={async () => {
              const outcome = await actions.redact([
                { id: data.id, title: (masked ?? data).title },
              ]);
              if (outcome.ok.length) setRevealed(null);
            }}
          />
        ) : null}
        {promoting ? (
          <PromoteDialog
            targets={[{ id: data.id, title: data.title }]}
            reasons={data.quarantine_reasons}
            onClose={() => setPromoting(false)}
            onConfirm={() => actions.promote([{ id: data.id, title: data.title }])}
          />
        ) : null}
      </>
    );
  }

  return (
    <aside
      ref={panel}
      className="mem-detail"
      aria-labelledby={data ? DETAIL_HEADING_ID : undefined}
      aria-label={data ? undefined : 'Memory details'}
      data-testid="memory-detail"
    >
      {body}
    </aside>
  );
}
