// The embedding model: what recall uses now (semantic on or off), the catalogue with what
// is installed, and install (with live progress from `models.progressed`), use (a model,
// `auto` or `none`) and remove (after a confirmation).
import { useState } from 'react';
import type { ModelInfo } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { useEngineClient } from '../../lib/engineContext';
import { formatBytes } from '../../lib/format';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { ProgressBar } from './ProgressBar';
import { useInstallProgress, type InstallProgressView } from './useInstallProgress';

type Action = 'install' | 'use' | 'remove';

function formatSeconds(s: number): string {
  if (s < 1) return 'under a second';
  if (s < 90) return `${Math.round(s)} s`;
  return `${Math.round(s / 60)} min`;
}

export function progressText(p: InstallProgressView): string {
  if (!p.file) return 'Starting the download…';
  const parts = [
    `${p.file} (file ${p.index} of ${p.files})`,
    p.total !== null
      ? `${formatBytes(p.received)} of ${formatBytes(p.total)}`
      : formatBytes(p.received),
  ];
  if (p.speed !== null) parts.push(`${formatBytes(p.speed)}/s`);
  if (p.eta !== null)
    parts.push(`about ${formatSeconds(p.eta)} left${p.files > 1 ? ' for this file' : ''}`);
  return parts.join(' · ');
}

function RemoveDialog({
  model,
  busy,
  onCancel,
  onConfirm,
}: {
  model: ModelInfo | null;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
}) {
  return (
    <Dialog
      open={model !== null}
      onClose={() => (busy ? undefined : onCancel())}
      title={model ? `Remove ${model.name}?` : 'Remove the model?'}
    >
      {model ? (
        <>
          <div className="sv-dialog-body">
            <p>
              Deletes its files
              {model.dir ? (
                <>
                  {' '}
                  from <code className="mono">{model.dir}</code>
                </>
              ) : null}
              .
            </p>
            {model.active ? (
              <p>
                <strong>Recall uses it now.</strong> Without it, recall uses another installed
                model, or falls back to matching words rather than meaning (semantic off) until you
                install one.
              </p>
            ) : null}
            <p className="card-note">You can install it again later.</p>
          </div>
          <div className="sv-dialog-actions">
            <Button variant="ghost" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" icon="trash" busy={busy} onClick={onConfirm}>
              Remove
            </Button>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}

export function ModelsCard() {
  const client = useEngineClient();
  const list = useEngineQuery('models.list', {});
  const { progress, start, stop } = useInstallProgress();
  const [busy, setBusy] = useState<{ id: string; action: Action } | null>(null);
  const [error, setError] = useState<{ title: string; error: LociError } | null>(null);
  const [removing, setRemoving] = useState<ModelInfo | null>(null);
  const toast = (message: string, tone: 'success' | 'error' = 'success') =>
    useUiStore.getState().toast({ message, tone });

  const run = async (id: string, action: Action, title: string, work: () => Promise<void>) => {
    setBusy({ id, action });
    setError(null);
    try {
      await work();
    } catch (err) {
      setError({ title, error: toLociError(err) });
    } finally {
      setBusy(null);
      list.reload();
    }
  };

  const install = (m: ModelInfo) =>
    run(m.id, 'install', `Could not install ${m.name}`, async () => {
      start(m.id, m.size_bytes);
      try {
        const info = await client.call('models.install', { id: m.id });
        toast(
          info.active
            ? `Installed ${info.name}: recall uses it now.`
            : `Installed ${info.name}. Press “Use” to have recall use it.`,
        );
      } finally {
        stop();
      }
    });

  const use = (id: string, name: string) =>
    run(id, 'use', `Could not switch to ${name}`, async () => {
      const r = await client.call('models.use', { id });
      toast(
        r.semantic === 'on'
          ? `Recall now uses ${r.active}. Memories without its vectors are embedded in the background.`
          : 'Recall now matches words only (the hashing fallback): semantic off.',
      );
    });

  const remove = (m: ModelInfo) =>
    run(m.id, 'remove', `Could not remove ${m.name}`, async () => {
      try {
        await client.call('models.remove', { id: m.id });
        toast(`Removed ${m.name}.`);
      } finally {
        setRemoving(null);
      }
    });

  const data = list.data;
  const anyBusy = busy !== null;

  return (
    <section className="card card-wide" aria-labelledby="sv-models">
      <h2 id="sv-models" className="card-title">
        <Icon name="vector" /> Embedding model
      </h2>
      {!data ? (
        list.loading ? (
          <LoadingState label="Loading the models…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not list the models"
            error={list.error}
            onRetry={list.reload}
          />
        )
      ) : (
        <>
          <div className="sv-model-status">
            <p className="card-lead">
              <span
                className={data.semantic === 'on' ? 'pill pill-ok' : 'pill pill-warn'}
                data-testid="semantic"
              >
                semantic {data.semantic}
              </span>
              Recall uses <code className="mono">{data.active}</code>
            </p>
            {data.note ? <p className="card-note">{data.note}</p> : null}
            {data.semantic === 'off' ? (
              <p className="card-note">
                Without a model, recall matches spelling, not meaning. Install one below (the first
                is small and fast); nothing is downloaded unless you ask.
              </p>
            ) : null}
            <div className="sv-inline-actions">
              <Button
                size="sm"
                disabled={anyBusy || !data.models.some((m) => m.installed)}
                busy={busy?.id === 'auto'}
                onClick={() => void use('auto', 'the best installed model')}
              >
                Use the best installed
              </Button>
              <Button
                size="sm"
                variant="ghost"
                disabled={anyBusy || data.semantic === 'off'}
                busy={busy?.id === 'none'}
                onClick={() => void use('none', 'the hashing fallback')}
              >
                Use none (words only)
              </Button>
            </div>
          </div>
          {error ? <ErrorState compact title={error.title} error={error.error} /> : null}
          {progress ? (
            <div className="sv-install" data-testid="install-progress">
              <p>
                <strong>Installing {progress.model}</strong>{' '}
                <span className="muted">{progressText(progress)}</span>
              </p>
              <ProgressBar
                label={`Downloading ${progress.model}`}
                value={progress.fraction}
                valueText={progressText(progress)}
              />
            </div>
          ) : null}
          <div className="sv-table-wrap">
            <table className="sv-table" data-testid="models-table">
              <caption className="visually-hidden">
                Embedding models: the catalogue and what is installed
              </caption>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Languages</th>
                  <th scope="col" className="sv-num">
                    Dims
                  </th>
                  <th scope="col" className="sv-num">
                    Size
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.models.map((m) => (
                  <tr key={m.id} data-model={m.id}>
                    <th scope="row">
                      <span className="sv-model-name">{m.name}</span>
                      <code className="mono sv-model-id">{m.id}</code>
                      <span className="sv-model-desc">
                        {m.description} <span className="muted">Licence: {m.license}.</span>
                      </span>
                    </th>
                    <td>
                      {m.languages.length > 3
                        ? `${m.languages.length} languages`
                        : m.languages.join(', ') || '—'}
                    </td>
                    <td className="sv-num">{m.dims}</td>
                    <td className="sv-num">
                      {m.size_bytes !== null ? formatBytes(m.size_bytes) : '—'}
                    </td>
                    <td>
                      {m.active ? (
                        <span className="pill pill-ok">in use</span>
                      ) : m.installed ? (
                        <span className="pill sv-pill-muted">installed</span>
                      ) : (
                        <span className="muted">not installed</span>
                      )}
                      {!m.pinned ? (
                        <span className="sv-model-note">
                          hashes recorded at download, not pinned
                        </span>
                      ) : null}
                    </td>
                    <td className="sv-actions">
                      {!m.installed ? (
                        <Button
                          size="sm"
                          icon="download"
                          disabled={anyBusy}
                          busy={busy?.id === m.id && busy.action === 'install'}
                          aria-label={`Install ${m.name}`}
                          onClick={() => void install(m)}
                        >
                          Install
                        </Button>
                      ) : (
                        <>
                          {!m.active ? (
                            <Button
                              size="sm"
                              disabled={anyBusy}
                              busy={busy?.id === m.id && busy.action === 'use'}
                              aria-label={`Use ${m.name}`}
                              onClick={() => void use(m.id, m.name)}
                            >
                              Use
                            </Button>
                          ) : null}
                          <Button
                            size="sm"
                            variant="ghost"
                            icon="trash"
                            disabled={anyBusy}
                            aria-label={`Remove ${m.name}`}
                            onClick={() => setRemoving(m)}
                          >
                            Remove…
                          </Button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <RemoveDialog
        model={removing}
        busy={busy?.action === 'remove'}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void remove(removing);
        }}
      />
    </section>
  );
}
