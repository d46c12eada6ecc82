// Sync of the current store (sync.status, refreshed on `sync.changed`): when it does not
// sync, what syncing shares and a form to join a PostgreSQL team hub or a synced folder
// (sync.connect); when it syncs, where to, its state, last push and pull, what waits to
// be sent, the lag, the last error with its fix and the next try, what the pulls skipped,
// the recent merges, a clock warning, "Sync now" (sync.now), "Leave" after a confirmation
// (sync.leave), and the devices that share the store (sync.devices).
import { useId, useState, type FormEvent } from 'react';
import type {
  SyncDevicesResult,
  SyncRunResult,
  SyncStatusResult,
  SyncStoreStatus,
} from '../../../../shared/api';
import { DEFAULT_STORE_NAME } from '../../../../shared/constants';
import type { LociError } from '../../../../shared/errors';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { MemoryRef, useMemoryTitles } from '../../components/MemoryRef';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { formatCount } from '../../lib/format';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { toLociError, useEngineQuery, type EngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { folderProblem } from './AllowedFoldersCard';
import './sync.css';

type Via = 'hub' | 'folder';
type SyncState = SyncStoreStatus['state'];

export const HUB_PLACEHOLDER = 'postgres://user@host:5432/loci?sslmode=verify-full';
/** Above this, the clock of another device is fast enough to be worth a warning. */
export const CLOCK_WARN_MS = 60_000;

const STATE_TEXT: Record<SyncState, string> = {
  idle: 'in step',
  syncing: 'syncing',
  error: 'error',
};

const SECRET_TEXT: Record<SyncStoreStatus['secret'], string> = {
  keychain: 'in the OS keychain',
  keyring: 'in the OS keyring (Secret Service)',
  file: 'in a file only you can read, in the data directory',
  none: 'none kept',
};

const VIA_TEXT: Record<Via, string> = { hub: 'PostgreSQL hub', folder: 'Synced folder' };

/** 850 → "850 ms", 4_200 → "4.2 s", 300_000 → "5 min", 5_400_000 → "1.5 h". */
export function formatMs(ms: number): string {
  const a = Math.abs(ms);
  if (a < 1_000) return `${Math.round(a)} ms`;
  if (a < 59_500) return `${Number((a / 1_000).toFixed(a < 10_000 ? 1 : 0))} s`;
  if (a < 3_570_000) return `${Math.round(a / 60_000)} min`;
  return `${Number((a / 3_600_000).toFixed(a < 36_000_000 ? 1 : 0))} h`;
}

/** A device's clock against the hub's: "2.1 s fast", "4 min slow", "in step". */
export function skewText(ms: number | null): string {
  if (ms === null) return 'not measured';
  if (Math.abs(ms) < 1_000) return 'in step';
  return `${formatMs(ms)} ${ms > 0 ? 'fast' : 'slow'}`;
}

/** A hub URL as libpq reads it, or why not; null when it looks right. */
export function hubUrlProblem(url: string): string | null {
  if (url === '') return 'Type the hub’s URL.';
  if (!/^postgres(ql)?:\/\/[^/]+/i.test(url))
    return `A hub URL starts with postgres://, e.g. ${HUB_PLACEHOLDER}`;
  return null;
}

function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
}

function Rules() {
  return (
    <details className="sv-sync-rules">
      <summary>How changes from two devices are merged</summary>
      <ul>
        <li>
          Each field of a memory keeps the change with the later clock; the value it replaced is
          kept as a version, so no text is lost.
        </li>
        <li>Two devices editing different fields both keep their edit.</li>
        <li>
          Forgetting on one device and editing on another both hold: the memory is forgotten, with
          the edited text if it is restored.
        </li>
        <li>Erasing wins over everything, whatever the clocks.</li>
        <li>
          A memory made private or quarantined is withdrawn from the others, and comes back whole
          when it is shared again.
        </li>
        <li>
          Links keep the latest add or remove; procedure outcomes add up; a contradiction keeps the
          latest decision.
        </li>
      </ul>
    </details>
  );
}

// ------------------------------------------------------------------ not syncing

function ConnectForm({
  store,
  device,
  onConnected,
}: {
  store: string | null;
  device: SyncStatusResult['device'];
  onConnected(status: SyncStoreStatus): void;
}) {
  const client = useEngineClient();
  const [via, setVia] = useState<Via>('hub');
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [folder, setFolder] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const ids = {
    via: useId(),
    url: useId(),
    urlHint: useId(),
    password: useId(),
    passwordHint: useId(),
    folder: useId(),
    folderHint: useId(),
  };

  const value = (via === 'hub' ? url : folder).trim();
  const problem = via === 'hub' ? hubUrlProblem(value) : folderProblem(value, []);
  const showProblem = touched && value !== '' && problem;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const status = await client.call('sync.connect', {
        ...(store ? { store } : {}),
        ...(via === 'hub'
          ? { url: value, ...(password !== '' ? { password } : {}) }
          : { folder: value }),
      });
      setPassword('');
      onConnected(status);
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setError(null);
  };

  return (
    <>
      <p className="card-note">
        The store “{store ?? DEFAULT_STORE_NAME}” does not sync. Syncing sends its shared memories
        to a PostgreSQL team hub, or to a folder that Syncthing, Dropbox, iCloud Drive or git keeps
        in step across your devices, and brings in what the other devices changed. Private and
        quarantined memories never leave this device. The others will know it as{' '}
        <strong>{device.name}</strong>.
      </p>
      <form
        className="sv-sync-connect"
        aria-label="Connect the store to sync"
        onSubmit={(e) => void submit(e)}
        noValidate
      >
        <fieldset className="sv-sync-via">
          <legend>Sync through</legend>
          {(['hub', 'folder'] as const).map((v) => (
            <label key={v}>
              <input
                type="radio"
                name={ids.via}
                value={v}
                checked={via === v}
                onChange={() => {
                  setVia(v);
                  setTouched(false);
                  setError(null);
                }}
                disabled={busy}
              />
              {v === 'hub' ? 'A team hub (PostgreSQL)' : 'A synced folder'}
            </label>
          ))}
        </fieldset>
        {via === 'hub' ? (
          <>
            <label htmlFor={ids.url} className="sv-label">
              Hub URL
            </label>
            <input
              id={ids.url}
              className="input mono"
              value={url}
              placeholder={HUB_PLACEHOLDER}
              onChange={(e) => edit(setUrl)(e.target.value)}
              onBlur={() => setTouched(true)}
              autoComplete="off"
              spellCheck={false}
              readOnly={busy}
              aria-invalid={showProblem ? true : undefined}
              aria-describedby={ids.urlHint}
            />
            <p id={ids.urlHint} className={showProblem ? 'sv-hint sv-hint-error' : 'sv-hint'}>
              {showProblem ||
                'libpq’s URL form. Every device of the team gives the same hub; each keeps its own role.'}
            </p>
            <label htmlFor={ids.password} className="sv-label">
              Password <span className="muted">(optional)</span>
            </label>
            <input
              id={ids.password}
              className="input"
              type="password"
              value={password}
              onChange={(e) => edit(setPassword)(e.target.value)}
              autoComplete="new-password"
              readOnly={busy}
              aria-describedby={ids.passwordHint}
            />
            <p id={ids.passwordHint} className="sv-hint">
              Kept in the OS keychain or a file only you can read, never in the settings. Leave it
              empty when the URL holds it or the hub needs none.
            </p>
          </>
        ) : (
          <>
            <label htmlFor={ids.folder} className="sv-label">
              Folder
            </label>
            <input
              id={ids.folder}
              className="input mono"
              value={folder}
              placeholder="/home/me/Sync/loci"
              onChange={(e) => edit(setFolder)(e.target.value)}
              onBlur={() => setTouched(true)}
              autoComplete="off"
              spellCheck={false}
              readOnly={busy}
              aria-invalid={showProblem ? true : undefined}
              aria-describedby={ids.folderHint}
            />
            <p id={ids.folderHint} className={showProblem ? 'sv-hint sv-hint-error' : 'sv-hint'}>
              {showProblem ||
                'An absolute path on the machine Loci runs on, inside a folder Syncthing, Dropbox, iCloud Drive or a git repository keeps in step.'}
            </p>
          </>
        )}
        <div className="sv-inline-actions">
          <Button type="submit" variant="primary" icon="link" busy={busy} disabled={value === ''}>
            {busy ? 'Connecting…' : 'Connect'}
          </Button>
        </div>
        {error ? <ErrorState compact title="Could not connect" error={error} /> : null}
      </form>
      <Rules />
    </>
  );
}

// ------------------------------------------------------------------ syncing

function When({ iso, never = 'not yet' }: { iso: string | null; never?: string }) {
  return iso ? <TimeAgo iso={iso} /> : <span className="muted">{never}</span>;
}

function StateBadge({ state }: { state: SyncState }) {
  return (
    <span className={`sv-sync-state sv-sync-state-${state}`} data-testid="sync-state">
      <span className="sv-sync-dot" aria-hidden />
      {STATE_TEXT[state]}
    </span>
  );
}

function LastError({ status }: { status: SyncStoreStatus }) {
  const { error } = status;
  if (!error) return null;
  return (
    <section
      className="state state-error state-compact sv-sync-error"
      role="alert"
      data-testid="sync-error"
    >
      <span className="state-icon" aria-hidden>
        <Icon name="alert" size={16} />
      </span>
      <div className="state-main">
        <h3 className="state-title">
          The last sync failed <TimeAgo iso={error.at} />
        </h3>
        <div className="state-body">
          <p>{error.message}</p>
          <p>
            <strong>Fix:</strong> {error.fix}
          </p>
          {status.next_retry_at ? (
            <p data-testid="sync-next-retry">
              Loci tries again at{' '}
              <time dateTime={status.next_retry_at} title={status.next_retry_at}>
                {clockTime(status.next_retry_at)}
              </time>
              .
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function Problems({ status }: { status: SyncStoreStatus }) {
  if (status.problems.length === 0) return null;
  return (
    <div className="sv-sync-block">
      <h3 className="sv-subtitle">Skipped ({formatCount(status.problems.length)})</h3>
      <p className="card-note">
        The pulls applied everything else; these stay skipped until what they name is fixed.
      </p>
      <ul className="sv-sync-list" data-testid="sync-problems">
        {status.problems.map((p, i) => (
          <li key={`${p.where} ${p.at} ${i}`}>
            <code className="mono sv-path">{p.where}</code>
            <span>{p.message}</span>
            <span className="sv-sub">
              <strong>Fix:</strong> {p.fix}
            </span>
            <span className="sv-sub">
              <TimeAgo iso={p.at} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Merges({ status }: { status: SyncStoreStatus }) {
  const book = useMemoryTitles(status.merges.map((m) => m.id));
  if (status.merges.length === 0) return null;
  return (
    <div className="sv-sync-block">
      <h3 className="sv-subtitle">Recent merges</h3>
      <p className="card-note">
        Changed on two devices; the later clock kept, the other is a version.
      </p>
      <ul className="sv-sync-list" data-testid="sync-merges">
        {status.merges.map((m, i) => (
          <li key={`${m.id} ${m.at} ${i}`}>
            <MemoryRef id={m.id} book={book} />
            <span>
              {m.fields.length === 1 ? 'field' : 'fields'}{' '}
              {m.fields.map((f, j) => (
                <span key={f}>
                  {j > 0 ? ', ' : null}
                  <code>{f}</code>
                </span>
              ))}
            </span>
            <span className="sv-sub">
              <TimeAgo iso={m.at} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Devices({ query }: { query: EngineQuery<SyncDevicesResult> }) {
  const data = query.data;
  return (
    <div className="sv-sync-block">
      <h3 className="sv-subtitle" id="sv-sync-devices">
        Devices
      </h3>
      {!data ? (
        query.loading ? (
          <LoadingState label="Loading the devices…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not list the devices"
            error={query.error}
            onRetry={query.reload}
          />
        )
      ) : data.devices.length === 0 ? (
        <p className="sv-hint">No device has joined yet.</p>
      ) : (
        <div className="sv-table-wrap">
          <table className="sv-table" data-testid="sync-devices" aria-labelledby="sv-sync-devices">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Last seen</th>
                <th scope="col">Last push</th>
                <th scope="col" className="sv-num">
                  Operations
                </th>
                <th scope="col">Clock</th>
                <th scope="col">Version</th>
              </tr>
            </thead>
            <tbody>
              {data.devices.map((d) => (
                <tr key={d.id} data-device={d.id} aria-current={d.this_device ? 'true' : undefined}>
                  <th scope="row">
                    <span className="sv-store-name" title={d.id}>
                      {d.name}
                    </span>
                    {d.this_device ? <span className="pill pill-ok">this device</span> : null}
                  </th>
                  <td>
                    <When iso={d.last_seen} never="never" />
                  </td>
                  <td>
                    <When iso={d.last_push} never="never" />
                  </td>
                  <td className="sv-num">{formatCount(d.ops)}</td>
                  <td
                    className={
                      d.clock_skew_ms !== null && Math.abs(d.clock_skew_ms) > CLOCK_WARN_MS
                        ? 'sv-sync-skew-warn'
                        : undefined
                    }
                  >
                    {skewText(d.clock_skew_ms)}
                  </td>
                  <td>{d.version ?? <span className="muted">unknown</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function LeaveDialog({
  status,
  open,
  busy,
  error,
  onCancel,
  onConfirm,
}: {
  status: SyncStoreStatus;
  open: boolean;
  busy: boolean;
  error: LociError | null;
  onCancel(): void;
  onConfirm(): void;
}) {
  return (
    <Dialog
      open={open}
      onClose={() => (busy ? undefined : onCancel())}
      title={`Stop syncing “${status.store}”?`}
    >
      <div className="sv-dialog-body">
        <p>
          This device stops sending its changes to{' '}
          <code className="mono sv-path">{status.target}</code> and receiving the others’.
        </p>
        <p>
          Its memories stay here, and the {status.transport === 'hub' ? 'hub' : 'folder'} keeps what
          it has.
          {status.secret !== 'none' ? ' The kept password is removed.' : ''}
        </p>
        {status.pending > 0 ? (
          <p>
            <strong>
              {formatCount(status.pending)} operations were not sent yet and will not be.
            </strong>
          </p>
        ) : null}
        <p className="card-note">Connecting again later shares the whole store afresh.</p>
        {error ? <ErrorState compact title="Could not leave" error={error} /> : null}
      </div>
      <div className="sv-dialog-actions">
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" busy={busy} onClick={onConfirm}>
          Leave
        </Button>
      </div>
    </Dialog>
  );
}

function runText(r: SyncRunResult): string {
  const parts = [
    `sent ${formatCount(r.pushed)}`,
    `received ${formatCount(r.pulled)}`,
    `applied ${formatCount(r.applied)}`,
  ];
  if (r.problems.length) parts.push(`skipped ${formatCount(r.problems.length)}`);
  return `Synced in ${formatMs(r.duration_ms)}: ${parts.join(', ')}.`;
}

function Syncing({
  store,
  status,
  device,
  onLeft,
  reload,
}: {
  store: string | null;
  status: SyncStoreStatus;
  device: SyncStatusResult['device'];
  onLeft(): void;
  reload(): void;
}) {
  const client = useEngineClient();
  const args = store ? { store } : {};
  const devices = useEngineQuery('sync.devices', args, {
    refreshOn: ['sync.changed'],
    throttleMs: 1_000,
  });
  const [running, setRunning] = useState(false);
  const [ran, setRan] = useState<SyncRunResult | null>(null);
  const [runError, setRunError] = useState<LociError | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [leaveError, setLeaveError] = useState<LociError | null>(null);
  const where = status.transport === 'hub' ? 'hub' : 'folder';

  const syncNow = async () => {
    setRunning(true);
    setRunError(null);
    setRan(null);
    try {
      setRan(await client.call('sync.now', args));
    } catch (err) {
      setRunError(toLociError(err));
    } finally {
      setRunning(false);
      reload();
      devices.reload();
    }
  };

  const leave = async () => {
    setLeaving(true);
    setLeaveError(null);
    try {
      await client.call('sync.leave', args);
      setConfirming(false);
      useUiStore.getState().toast({
        message: `The store “${status.store}” no longer syncs; its memories stay here.`,
        tone: 'success',
      });
      onLeft();
    } catch (err) {
      setLeaveError(toLociError(err));
    } finally {
      setLeaving(false);
    }
  };

  const ahead = status.clock_ahead_ms > CLOCK_WARN_MS;
  return (
    <>
      <p className="card-lead">
        <StateBadge state={status.state} />
        <span className="muted">{VIA_TEXT[status.transport]}</span>
        <code className="mono sv-path" data-testid="sync-target">
          {status.target}
        </code>
      </p>
      <dl className="pairs sv-pairs" data-testid="sync-status">
        <dt>Store</dt>
        <dd>{status.store}</dd>
        <dt>This device</dt>
        <dd>{device.name}</dd>
        <dt>Connected</dt>
        <dd>
          <TimeAgo iso={status.connected_at} />
        </dd>
        <dt>Last push</dt>
        <dd data-stat="sync.last_push">
          <When iso={status.last_push_at} />
        </dd>
        <dt>Last pull</dt>
        <dd data-stat="sync.last_pull">
          <When iso={status.last_pull_at} />
        </dd>
        <dt>Waiting to send</dt>
        <dd data-stat="sync.pending">
          {formatCount(status.pending)} {status.pending === 1 ? 'operation' : 'operations'}
        </dd>
        <dt>Since the daemon started</dt>
        <dd data-stat="sync.moved">
          {formatCount(status.pushed)} sent · {formatCount(status.pulled)} received
        </dd>
        {status.lag_ms ? (
          <>
            <dt>Lag</dt>
            <dd data-stat="sync.lag">
              p50 {formatMs(status.lag_ms.p50)} · p95 {formatMs(status.lag_ms.p95)}{' '}
              <span className="muted">
                ({formatCount(status.lag_ms.samples)} recent{' '}
                {status.lag_ms.samples === 1 ? 'change' : 'changes'})
              </span>
            </dd>
          </>
        ) : null}
        {status.transport === 'hub' || status.secret !== 'none' ? (
          <>
            <dt>Password</dt>
            <dd data-stat="sync.secret">{SECRET_TEXT[status.secret]}</dd>
          </>
        ) : null}
      </dl>
      <LastError status={status} />
      {ahead ? (
        <p className="sv-sync-warn" data-testid="sync-clock">
          <Icon name="alert" />
          <span>
            <strong>Clock:</strong> changes are stamped {formatMs(status.clock_ahead_ms)} ahead of
            this machine’s clock, because another device’s clock is fast. The merge rules still
            hold, but the later edit may not win; set that device’s clock right (see Clock in the
            devices below).
          </span>
        </p>
      ) : null}
      <div className="sv-inline-actions">
        <Button icon="refresh" busy={running} onClick={() => void syncNow()}>
          {running ? 'Syncing…' : 'Sync now'}
        </Button>
        <Button
          variant="ghost"
          icon="close"
          onClick={() => {
            setLeaveError(null);
            setConfirming(true);
          }}
        >
          Leave the {where}…
        </Button>
      </div>
      <p className="sv-hint" role="status" data-testid="sync-run">
        {ran ? runText(ran) : ''}
      </p>
      {runError ? <ErrorState compact title="Could not sync now" error={runError} /> : null}
      <Problems status={status} />
      <Merges status={status} />
      <Devices query={devices} />
      <Rules />
      <LeaveDialog
        status={status}
        open={confirming}
        busy={leaving}
        error={leaveError}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void leave()}
      />
    </>
  );
}

// ------------------------------------------------------------------ the card

export function SyncCard() {
  const store = useUiStore((s) => s.store);
  const name = store ?? DEFAULT_STORE_NAME;
  // Every store's status: a store that does not sync is simply absent (asking for it by
  // name would answer not-found).
  const status = useEngineQuery(
    'sync.status',
    {},
    {
      refreshOn: ['sync.changed'],
      throttleMs: 500,
    },
  );
  // What sync.connect answered, shown until sync.status has the store too.
  const [joined, setJoined] = useState<SyncStoreStatus | null>(null);
  useEngineEvent('sync.changed', (e) => {
    if (e.store === name && e.state === 'left') setJoined(null);
  });

  const data = status.data;
  const mine =
    data?.stores.find((s) => s.store === name) ?? (joined?.store === name ? joined : null);

  return (
    <section className="card card-wide sv-sync" aria-labelledby="sv-sync">
      <h2 id="sv-sync" className="card-title">
        <Icon name="refresh" /> Sync
      </h2>
      {!data ? (
        status.loading ? (
          <LoadingState label="Loading the sync status…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not load the sync status"
            error={status.error}
            onRetry={status.reload}
          />
        )
      ) : mine ? (
        <Syncing
          key={`${mine.store} ${mine.connected_at}`}
          store={store}
          status={mine}
          device={data.device}
          reload={status.reload}
          onLeft={() => {
            setJoined(null);
            status.reload();
          }}
        />
      ) : (
        <ConnectForm
          key={name}
          store={store}
          device={data.device}
          onConnected={(s) => {
            setJoined(s);
            status.reload();
            useUiStore.getState().toast({
              message: `The store “${s.store}” now syncs with ${s.target}.`,
              tone: 'success',
            });
          }}
        />
      )}
    </section>
  );
}
