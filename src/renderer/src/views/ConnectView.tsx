// Connect: how agents reach this Loci. The endpoint (MCP URL, token: reveal, copy,
// rotate), a configuration entry per editor with "Write config" (setup.write, after
// showing the change), "Check" (setup.check), the clients' own tokens (clients.*) and
// the clients connected now.
import { useState } from 'react';
import { Button } from '../components/Button';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { useEngineQuery } from '../lib/useEngineQuery';
import { useConnectionStore } from '../stores/connectionStore';
import { CheckCard } from './connect/CheckCard';
import { ClientTokensCard } from './connect/ClientTokensCard';
import { EndpointCard, mcpUrl } from './connect/EndpointCard';
import { LiveClientsCard } from './connect/LiveClientsCard';
import { SnippetsCard } from './connect/SnippetsCard';
import { useClients } from './connect/useClients';
import './connect/connect.css';

export default function ConnectView() {
  const pageToken = useConnectionStore((s) => s.token);
  // Over the desktop bridge the page holds no token; a rotation still tells us the new one.
  const [rotatedToken, setRotatedToken] = useState<string | null>(null);
  const token = pageToken ?? rotatedToken;
  const [revealed, setRevealed] = useState(false);

  const info = useEngineQuery('system.info', {});
  const planHttp = useEngineQuery('setup.plan', { transport: 'http' });
  const planStdio = useEngineQuery('setup.plan', { transport: 'stdio' });
  const check = useEngineQuery('setup.check', {});
  const clients = useClients();
  const tokens = useEngineQuery('clients.tokens', {});

  const reloadSetup = () => {
    planHttp.reload();
    planStdio.reload();
    check.reload();
  };

  const url = info.data ? mcpUrl(info.data) : null;

  return (
    <div className="view connect-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Connect</h1>
          <p className="view-subtitle">
            {url ? (
              <>
                Agents reach this Loci at <code className="mono">{url}</code>
              </>
            ) : (
              'Point your editors and agents at this Loci'
            )}
          </p>
        </div>
        <Button
          icon="refresh"
          size="sm"
          variant="ghost"
          onClick={() => {
            info.reload();
            reloadSetup();
            clients.reload();
            tokens.reload();
          }}
          busy={info.refreshing}
        >
          Refresh
        </Button>
      </header>
      {info.loading ? (
        <LoadingState label="Loading the endpoint…" />
      ) : !info.data ? (
        <ErrorState title="Could not load the endpoint" error={info.error} onRetry={info.reload} />
      ) : (
        <div className="cv-grid">
          <EndpointCard
            info={info.data}
            token={token}
            revealed={revealed}
            onReveal={setRevealed}
            onRotated={(t) => {
              setRotatedToken(t);
              // The entries and the check embed the token: both changed.
              reloadSetup();
            }}
          />
          <SnippetsCard
            http={planHttp}
            stdio={planStdio}
            checks={check.data?.clients}
            served={Boolean(info.data.url)}
            token={token}
            revealed={revealed}
            onReveal={setRevealed}
            onWritten={() => {
              reloadSetup();
              // Write config gives the editor a token of its own.
              tokens.reload();
            }}
          />
          <CheckCard query={check} />
          <ClientTokensCard
            query={{
              ...tokens,
              reload: () => {
                tokens.reload();
                check.reload();
              },
            }}
          />
          <LiveClientsCard query={clients} />
        </div>
      )}
    </div>
  );
}
