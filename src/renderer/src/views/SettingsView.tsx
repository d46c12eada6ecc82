// Settings: the stores (create, switch, rename), the embedding model (install with
// progress, use, remove), the current store's vectors (embed what waits, recalibrate),
// the folders agents may import files from, the current store's sync (a team hub or a
// synced folder, its devices, state and errors), the daemon (port, token, data directory,
// versions) and about.
import { useEngineQuery } from '../lib/useEngineQuery';
import { ErrorState } from '../components/ErrorState';
import { AllowedFoldersCard } from './settings/AllowedFoldersCard';
import { EmbeddingCard } from './settings/EmbeddingCard';
import { ModelOffer } from './settings/ModelOffer';
import { ModelsCard } from './settings/ModelsCard';
import { StoresCard } from './settings/StoresCard';
import { SyncCard } from './settings/SyncCard';
import { AboutCard, DaemonCard } from './settings/SystemCards';
import { LoadingState } from '../components/LoadingState';
import './settings/settings.css';

export default function SettingsView() {
  const info = useEngineQuery('system.info', {});
  return (
    <div className="view settings-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Settings</h1>
          <p className="view-subtitle">Stores, the embedding model, sync and the daemon</p>
        </div>
      </header>
      <div className="sv-grid">
        <StoresCard />
        <ModelOffer />
        <ModelsCard />
        <EmbeddingCard />
        <AllowedFoldersCard />
        <SyncCard />
        {info.data ? (
          <DaemonCard info={info.data} />
        ) : info.loading ? (
          <section className="card" aria-label="Daemon">
            <LoadingState label="Loading the daemon's details…" fill={false} />
          </section>
        ) : (
          <ErrorState
            compact
            title="Could not load the daemon's details"
            error={info.error}
            onRetry={info.reload}
          />
        )}
        <AboutCard version={info.data?.version} />
      </div>
    </div>
  );
}
