// The offer of an embedding model, while recall matches spelling only: the catalogue's
// default with its size and licence, one click to install it (with live progress) and one
// to say "not now" (remembered: `models.decline`). Nothing downloads without that click.
// Shown on the Overview (the first screen, also the desktop app's first window) and in
// Settings; it disappears once a model is installed or the offer is declined.
import { useState } from 'react';
import type { ModelListResult } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { useEngineClient } from '../../lib/engineContext';
import { formatBytes } from '../../lib/format';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { progressText } from './ModelsCard';
import { ProgressBar } from './ProgressBar';
import { useInstallProgress } from './useInstallProgress';

export function ModelOffer({ onChanged }: { onChanged?: (list: ModelListResult) => void }) {
  const client = useEngineClient();
  const list = useEngineQuery(
    'models.list',
    {},
    { refreshOn: ['models.progressed'], throttleMs: 2_000 },
  );
  const { progress, start, stop } = useInstallProgress();
  const [busy, setBusy] = useState<'install' | 'decline' | null>(null);
  const [error, setError] = useState<LociError | null>(null);
  const offer = list.data?.offer ?? null;
  if (!offer) return null;

  const size =
    offer.size_bytes === null
      ? null
      : `${offer.approximate ? 'about ' : ''}${formatBytes(offer.size_bytes)}`;

  const install = async () => {
    setBusy('install');
    setError(null);
    start(offer.id, offer.size_bytes);
    try {
      const info = await client.call('models.install', { id: offer.id });
      useUiStore.getState().toast({
        message: info.active
          ? `Installed ${info.name}: recall now finds memories by meaning. Your memories are embedded in the background.`
          : `Installed ${info.name}. Choose it in Settings to have recall use it.`,
        tone: 'success',
      });
    } catch (err) {
      setError(toLociError(err));
    } finally {
      stop();
      setBusy(null);
      list.reload();
    }
  };

  const decline = async () => {
    setBusy('decline');
    setError(null);
    try {
      const r = await client.call('models.decline', {});
      onChanged?.(r);
      useUiStore.getState().toast({
        message: 'Not now: recall keeps matching words. Settings can install a model any time.',
      });
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(null);
      list.reload();
    }
  };

  return (
    <section
      className="card card-wide model-offer"
      aria-labelledby="model-offer-title"
      data-testid="model-offer"
    >
      <h2 id="model-offer-title" className="card-title">
        <Icon name="vector" /> Recall by meaning
      </h2>
      <p className="card-lead">{offer.reason}</p>
      <p>
        Install <strong>{offer.name}</strong> (
        {[size, `licence ${offer.license}`].filter(Boolean).join(', ')}): {offer.description} It
        downloads once, is checked against its sha256 and runs on this machine; your memories never
        leave it.
      </p>
      {progress ? (
        <div className="sv-install" data-testid="offer-progress">
          <p>
            <strong>Installing {offer.name}</strong>{' '}
            <span className="muted">{progressText(progress)}</span>
          </p>
          <ProgressBar
            label={`Downloading ${offer.name}`}
            value={progress.fraction}
            valueText={progressText(progress)}
          />
        </div>
      ) : null}
      {error ? (
        <ErrorState
          compact
          title={`Could not install ${offer.name}`}
          error={error}
          onRetry={() => void install()}
        />
      ) : null}
      <div className="sv-inline-actions">
        <Button
          variant="primary"
          icon="download"
          busy={busy === 'install'}
          disabled={busy !== null}
          onClick={() => void install()}
        >
          {size ? `Install (${size})` : 'Install'}
        </Button>
        <Button
          variant="ghost"
          busy={busy === 'decline'}
          disabled={busy !== null}
          onClick={() => void decline()}
        >
          Not now
        </Button>
      </div>
    </section>
  );
}
