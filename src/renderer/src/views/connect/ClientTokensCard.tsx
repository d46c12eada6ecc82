// Client tokens: a token of its own for each editor or agent, with what it may do
// (read-only, some stores only, no ingest, no forget, shared memories only). A new or
// rotated token is shown once, to copy into the client; revoking stops it at once.
import { useState, type FormEvent } from 'react';
import type {
  ClientTokenResult,
  RegisteredClient,
  RegisteredClientsResult,
} from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { policyWords } from '../../../../shared/policy';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError, type EngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { CopyButton } from './CopyButton';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function NewToken({ result, onClose }: { result: ClientTokenResult; onClose(): void }) {
  return (
    <Dialog open onClose={onClose} title={`The token of ${result.client.name}`}>
      <div className="cv-dialog-body">
        <p>
          Copy it now: Loci keeps only its hash and <strong>cannot show it again</strong>.
        </p>
        <p className="cv-token-once">
          <code className="cv-value cv-token" data-testid="new-client-token">
            {result.token}
          </code>
          <CopyButton text={result.token} what={`the token of ${result.client.name}`} />
        </p>
        <p className="muted">
          Give it to the client as its bearer token (<code>Authorization: Bearer …</code> over HTTP)
          or as <code>LOCI_TOKEN</code> for <code>loci mcp</code>. <em>Write config</em> above does
          this for the editors Loci knows.
        </p>
      </div>
      <div className="cv-dialog-actions">
        <Button onClick={onClose}>Done</Button>
      </div>
    </Dialog>
  );
}

function AddForm({ onAdded }: { onAdded(r: ClientTokenResult): void }) {
  const client = useEngineClient();
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [stores, setStores] = useState('');
  const [noIngest, setNoIngest] = useState(false);
  const [noForget, setNoForget] = useState(false);
  const [sharedOnly, setSharedOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const nameProblem =
    name !== '' && !NAME.test(name)
      ? 'Lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.'
      : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name || nameProblem) return;
    setBusy(true);
    setError(null);
    const list = stores
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      const r = await client.call('clients.add', {
        name,
        ...(readOnly ? { read_only: true } : {}),
        ...(list.length > 0 ? { stores: list } : {}),
        ...(noIngest ? { no_ingest: true } : {}),
        ...(noForget ? { no_forget: true } : {}),
        ...(sharedOnly ? { shared_only: true } : {}),
      });
      setName('');
      setStores('');
      onAdded(r);
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="cv-token-form"
      onSubmit={(e) => void submit(e)}
      aria-label="Add a client token"
    >
      <label className="cv-token-name">
        <span>Client name</span>
        <input
          value={name}
          onChange={(e) => setName(e.target.value.trim())}
          placeholder="cursor"
          aria-invalid={nameProblem ? true : undefined}
          aria-describedby={nameProblem ? 'cv-token-name-problem' : undefined}
        />
      </label>
      {nameProblem ? (
        <p id="cv-token-name-problem" className="cv-fail" role="alert">
          {nameProblem}
        </p>
      ) : null}
      <fieldset className="cv-token-flags">
        <legend>What it may do</legend>
        <label>
          <input
            type="checkbox"
            checked={readOnly}
            onChange={(e) => setReadOnly(e.target.checked)}
          />{' '}
          Read only
        </label>
        <label>
          <input
            type="checkbox"
            checked={noIngest}
            disabled={readOnly}
            onChange={(e) => setNoIngest(e.target.checked)}
          />{' '}
          No ingesting files
        </label>
        <label>
          <input
            type="checkbox"
            checked={noForget}
            disabled={readOnly}
            onChange={(e) => setNoForget(e.target.checked)}
          />{' '}
          No forgetting
        </label>
        <label>
          <input
            type="checkbox"
            checked={sharedOnly}
            onChange={(e) => setSharedOnly(e.target.checked)}
          />{' '}
          Shared memories only
        </label>
        <label className="cv-token-stores">
          <span>Stores (comma-separated; empty: all)</span>
          <input
            value={stores}
            onChange={(e) => setStores(e.target.value)}
            placeholder="work, team"
          />
        </label>
      </fieldset>
      {error ? <ErrorState compact title="Could not add the client" error={error} /> : null}
      <Button type="submit" icon="plus" busy={busy} disabled={!name || Boolean(nameProblem)}>
        Add client
      </Button>
    </form>
  );
}

function Row({
  c,
  onChanged,
  onToken,
}: {
  c: RegisteredClient;
  onChanged(): void;
  onToken(r: ClientTokenResult): void;
}) {
  const client = useEngineClient();
  const [confirm, setConfirm] = useState<'revoke' | 'rotate' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const act = async () => {
    if (!confirm) return;
    setBusy(true);
    setError(null);
    try {
      if (confirm === 'rotate') onToken(await client.call('clients.rotate', { name: c.name }));
      else {
        await client.call('clients.revoke', { name: c.name });
        useUiStore.getState().toast({
          message: `The token of ${c.name} no longer works.`,
          tone: 'success',
        });
      }
      setConfirm(null);
      onChanged();
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-client-token={c.name}>
      <th scope="row">{c.name}</th>
      <td>
        <ul className="cv-policy" aria-label={`What ${c.name} may do`}>
          {policyWords(c.policy).map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </td>
      <td>
        <code>{c.token_hint}…</code>
      </td>
      <td>
        {c.last_used_at ? <TimeAgo iso={c.last_used_at} /> : <span className="muted">never</span>}
      </td>
      <td className="cv-token-actions">
        <Button size="sm" variant="ghost" icon="refresh" onClick={() => setConfirm('rotate')}>
          Rotate
        </Button>
        <Button size="sm" variant="ghost" icon="trash" onClick={() => setConfirm('revoke')}>
          Revoke
        </Button>
        <Dialog
          open={confirm !== null}
          onClose={busy ? () => undefined : () => setConfirm(null)}
          title={
            confirm === 'rotate'
              ? `Rotate the token of ${c.name}?`
              : `Revoke the token of ${c.name}?`
          }
        >
          <div className="cv-dialog-body">
            <p>
              {confirm === 'rotate'
                ? `A new token replaces it at once; ${c.name} is refused until it gets the new one.`
                : `Its token stops working at once; ${c.name} is refused until it gets another.`}
            </p>
            {error ? <ErrorState compact title="Could not change the token" error={error} /> : null}
          </div>
          <div className="cv-dialog-actions">
            <Button variant="ghost" onClick={() => setConfirm(null)} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" busy={busy} onClick={() => void act()}>
              {confirm === 'rotate' ? 'Rotate token' : 'Revoke token'}
            </Button>
          </div>
        </Dialog>
      </td>
    </tr>
  );
}

export function ClientTokensCard({ query }: { query: EngineQuery<RegisteredClientsResult> }) {
  const [shown, setShown] = useState<ClientTokenResult | null>(null);
  const { data, error } = query;
  const onToken = (r: ClientTokenResult) => {
    setShown(r);
    query.reload();
  };
  return (
    <section className="card card-wide" aria-labelledby="cv-tokens">
      <h2 id="cv-tokens" className="card-title">
        <Icon name="key" /> Client tokens
      </h2>
      <p className="muted">
        Give each editor or agent a token of its own, with what it may do: every call it makes is
        held to it, and a refusal is in the audit trail. The endpoint&apos;s token above stays yours
        (this page and the CLI).
      </p>
      {!data ? (
        query.loading ? (
          <LoadingState label="Loading the client tokens…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not list the client tokens"
            error={error}
            onRetry={query.reload}
          />
        )
      ) : data.clients.length === 0 ? (
        <p role="note" className="cv-empty">
          No client has a token of its own yet: every client uses yours.
        </p>
      ) : (
        <div className="cv-table-wrap">
          <table className="cv-table" data-testid="client-tokens">
            <caption className="visually-hidden">Clients with a token of their own</caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">May</th>
                <th scope="col">Token</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.clients.map((c) => (
                <Row key={c.id} c={c} onChanged={query.reload} onToken={onToken} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AddForm onAdded={onToken} />
      {shown ? <NewToken result={shown} onClose={() => setShown(null)} /> : null}
    </section>
  );
}
