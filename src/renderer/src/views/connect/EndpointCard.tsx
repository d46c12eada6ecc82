// Where agents reach this Loci: the MCP URL and the bearer token (hidden until revealed,
// copyable, and rotatable after a confirmation that says what rotation breaks). After a
// rotation the page switches to the new token itself and keeps working.
import { useState } from 'react';
import type { SystemInfo } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';
import { useConnectionStore } from '../../stores/connectionStore';
import { useUiStore } from '../../stores/uiStore';
import type { LociError } from '../../../../shared/errors';
import { adoptToken } from './adoptToken';
import { CopyButton } from './CopyButton';
import { MASK } from './snippet';

export interface EndpointCardProps {
  info: SystemInfo;
  /** The token to show: the page's own, or the one a rotation just returned. */
  token: string | null;
  revealed: boolean;
  onReveal(revealed: boolean): void;
  /** After a rotation: the new token (the snippets and checks change with it). */
  onRotated(token: string): void;
}

export function mcpUrl(info: Pick<SystemInfo, 'url'>): string | null {
  return info.url ? `${info.url.replace(/\/+$/, '')}/mcp` : null;
}

function RotateDialog({
  open,
  onClose,
  onRotated,
}: {
  open: boolean;
  onClose(): void;
  onRotated(token: string): void;
}) {
  const client = useEngineClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);

  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('token.rotate', {});
      // Over HTTP every later call needs the new token; over the desktop bridge the
      // page holds no token at all.
      if (client.transport === 'http') adoptToken(result.token);
      onRotated(result.token);
      onClose();
      useUiStore.getState().toast({
        message:
          'New token in use. Set up each editor again (Write config below, or `loci setup`): the old token no longer works.',
        tone: 'success',
        durationMs: 8_000,
      });
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? () => undefined : onClose} title="Rotate the access token?">
      <div className="cv-dialog-body">
        <p>
          A new token replaces the current one <strong>at once</strong>, and the old one stops
          working everywhere.
        </p>
        <ul className="cv-list">
          <li>
            Every editor configured with the token (over HTTP) must be set up again — with{' '}
            <em>Write config</em> on this page, or <code>loci setup</code> — or its calls to Loci
            are refused.
          </li>
          <li>This page switches to the new token by itself.</li>
          <li>Rotate when the token may have leaked, e.g. shared in a screenshot or a log.</li>
        </ul>
        {error ? <ErrorState compact title="Could not rotate the token" error={error} /> : null}
      </div>
      <div className="cv-dialog-actions">
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" icon="refresh" busy={busy} onClick={() => void rotate()}>
          Rotate token
        </Button>
      </div>
    </Dialog>
  );
}

export function EndpointCard({ info, token, revealed, onReveal, onRotated }: EndpointCardProps) {
  const [rotating, setRotating] = useState(false);
  const transport = useEngineClient().transport;
  const status = useConnectionStore((s) => s.status);
  const url = mcpUrl(info);
  const hasToken = Boolean(info.token_path);

  return (
    <section className="card cv-endpoint" aria-labelledby="cv-endpoint">
      <h2 id="cv-endpoint" className="card-title">
        <Icon name="link" /> Endpoint
      </h2>
      <dl className="cv-fields">
        <div className="cv-field">
          <dt>MCP URL</dt>
          <dd>
            {url ? (
              <>
                <code className="cv-value" data-testid="mcp-url">
                  {url}
                </code>
                <CopyButton text={url} what="the MCP URL" />
              </>
            ) : (
              <span className="muted">
                Not served over HTTP: editors start <code>loci mcp</code> (stdio) instead.
              </span>
            )}
          </dd>
        </div>
        <div className="cv-field">
          <dt>Access token</dt>
          <dd>
            {!hasToken ? (
              <span className="muted">
                None: this daemon accepts requests without a token (it was started with{' '}
                <code>--no-auth</code>), or it is not served over HTTP.
              </span>
            ) : (
              <>
                {token ? (
                  <code className="cv-value cv-token" data-testid="token-value">
                    {revealed ? token : MASK}
                  </code>
                ) : (
                  <span className="muted cv-value">
                    Held by the desktop app: <code>loci token show</code> prints it.
                  </span>
                )}
                <Button
                  size="sm"
                  icon={revealed ? 'eyeOff' : 'eye'}
                  aria-pressed={revealed}
                  disabled={!token}
                  onClick={() => onReveal(!revealed)}
                >
                  {revealed ? 'Hide' : 'Reveal'}
                </Button>
                {token ? <CopyButton text={token} what="the token" /> : null}
                <Button
                  size="sm"
                  variant="ghost"
                  icon="refresh"
                  onClick={() => setRotating(true)}
                  disabled={status !== 'ready'}
                >
                  Rotate…
                </Button>
              </>
            )}
          </dd>
        </div>
      </dl>
      {hasToken ? (
        <p className="card-note">
          Clients send it as{' '}
          <code>Authorization: Bearer {revealed && token ? token : '<token>'}</code>. Kept in{' '}
          <code className="mono">{info.token_path}</code>
          {transport === 'http' ? '; this tab keeps its own copy until you close it.' : '.'}
        </p>
      ) : null}
      <RotateDialog open={rotating} onClose={() => setRotating(false)} onRotated={onRotated} />
    </section>
  );
}
