// Stores: the list (store.list), switching the one every view shows (the same choice as
// the top bar's switcher), creating one and renaming one. `default` keeps its name: the
// engine refuses, and the button says why before anyone tries.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { StoreInfo } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { CheckedField } from './CheckedField';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { DEFAULT_STORE, STORE_NAME_HINT, storeNameProblem } from './storeName';

function switchTo(name: string): void {
  useUiStore.getState().setStore(name);
  useUiStore.getState().toast({ message: `Every view now shows the store “${name}”.` });
}

function RenameDialog({
  store,
  taken,
  onClose,
  onRenamed,
}: {
  store: StoreInfo;
  taken: string[];
  onClose(): void;
  onRenamed(from: string, to: StoreInfo): void;
}) {
  const client = useEngineClient();
  const [value, setValue] = useState(store.name);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const hintId = useId();

  const to = value.trim();
  const problem =
    to === store.name
      ? 'Type the new name.'
      : storeNameProblem(
          to,
          taken.filter((n) => n !== store.name),
        );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const info = await client.call('store.rename', { name: store.name, to });
      onRenamed(store.name, info);
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  const showProblem = touched && problem;
  return (
    <Dialog
      open
      onClose={() => (busy ? undefined : onClose())}
      title={`Rename the store “${store.name}”`}
      initialFocus={input}
    >
      <form className="sv-dialog-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="sv-dialog-body">
          <label htmlFor={fieldId} className="sv-label">
            New name
          </label>
          <input
            ref={input}
            id={fieldId}
            className="input"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            onBlur={() => setTouched(true)}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={showProblem ? true : undefined}
            aria-describedby={hintId}
          />
          <p id={hintId} className={showProblem ? 'sv-hint sv-hint-error' : 'sv-hint'}>
            {showProblem ? problem : STORE_NAME_HINT}
          </p>
          <p className="card-note">
            Its memories, versions and audit chain move with it. Clients that name the old store
            must use the new name.
          </p>
          {error ? <ErrorState compact title="Could not rename the store" error={error} /> : null}
        </div>
        <div className="sv-dialog-actions">
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" busy={busy}>
            Rename
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function CreateForm({ taken, onCreated }: { taken: string[]; onCreated(info: StoreInfo): void }) {
  const client = useEngineClient();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const name = value.trim();
  const problem = storeNameProblem(name, taken);
  const showProblem = touched && name !== '' && problem;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const info = await client.call('store.create', { name });
      setValue('');
      setTouched(false);
      onCreated(info);
    } catch (err) {
      setError(toLociError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="sv-create" onSubmit={(e) => void submit(e)} noValidate>
      <CheckedField
        label="New store"
        value={value}
        onChange={(v) => {
          setValue(v);
          setError(null);
        }}
        onBlur={() => setTouched(true)}
        placeholder="e.g. work or side-project"
        problem={showProblem || null}
        hint={`A store is a separate memory: its own database, index and audit chain. ${STORE_NAME_HINT}`}
        submitLabel="Create store"
        busy={busy}
      />
      {error ? <ErrorState compact title="Could not create the store" error={error} /> : null}
    </form>
  );
}

export function StoresCard() {
  const current = useUiStore((s) => s.store);
  const list = useEngineQuery('store.list', {}, { refreshOn: ['store.created', 'store.renamed'] });
  const [renaming, setRenaming] = useState<StoreInfo | null>(null);
  const defaultNoteId = useId();

  // The top bar's switcher lists the same stores: keep it in step with what we load.
  const data = list.data;
  useEffect(() => {
    if (data) useUiStore.getState().setStores(data.stores);
  }, [data]);

  const names = data?.stores.map((s) => s.name) ?? [];

  return (
    <section className="card card-wide" aria-labelledby="sv-stores">
      <h2 id="sv-stores" className="card-title">
        <Icon name="database" /> Stores
      </h2>
      {!data ? (
        list.loading ? (
          <LoadingState label="Loading the stores…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not list the stores"
            error={list.error}
            onRetry={list.reload}
          />
        )
      ) : (
        <>
          <div className="sv-table-wrap">
            <table className="sv-table" data-testid="stores-table">
              <caption className="visually-hidden">The stores in {data.data_dir}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Created</th>
                  <th scope="col">Database</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.stores.map((s) => {
                  const shown = s.name === current;
                  const fixed = s.name === DEFAULT_STORE;
                  return (
                    <tr key={s.name} data-store={s.name} aria-current={shown ? 'true' : undefined}>
                      <th scope="row">
                        <span className="sv-store-name">{s.name}</span>
                        {s.is_default ? <span className="pill sv-pill-muted">default</span> : null}
                        {shown ? <span className="pill pill-ok">shown now</span> : null}
                      </th>
                      <td>
                        <TimeAgo iso={s.created_at} />
                      </td>
                      <td>
                        <code className="mono sv-path">{s.path}</code>
                      </td>
                      <td className="sv-actions">
                        <Button
                          size="sm"
                          disabled={shown}
                          onClick={() => switchTo(s.name)}
                          aria-label={shown ? `${s.name} is shown now` : `Switch to ${s.name}`}
                        >
                          {shown ? 'Shown' : 'Switch to'}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          icon="pencil"
                          disabled={fixed}
                          aria-label={`Rename ${s.name}`}
                          aria-describedby={fixed ? defaultNoteId : undefined}
                          onClick={() => setRenaming(s)}
                        >
                          Rename…
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p id={defaultNoteId} className="card-note">
            The <code>default</code> store keeps its name: every call that names no store uses it.
            Stores live in <code className="mono">{data.data_dir}</code>.
          </p>
          <CreateForm
            taken={names}
            onCreated={(info) => {
              list.reload();
              useUiStore.getState().toast({
                message: `Created the store “${info.name}”.`,
                tone: 'success',
                action: { label: 'Switch to it', run: () => switchTo(info.name) },
              });
            }}
          />
        </>
      )}
      {renaming ? (
        <RenameDialog
          key={renaming.name}
          store={renaming}
          taken={names}
          onClose={() => setRenaming(null)}
          onRenamed={(from, info) => {
            setRenaming(null);
            if (useUiStore.getState().store === from) useUiStore.getState().setStore(info.name);
            list.reload();
            useUiStore.getState().toast({
              message: `Renamed the store “${from}” to “${info.name}”.`,
              tone: 'success',
            });
          }}
        />
      ) : null}
    </section>
  );
}
