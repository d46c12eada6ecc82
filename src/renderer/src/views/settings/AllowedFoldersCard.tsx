// Allowed folders for agents: the MCP tool `ingest_file` reads files only inside these
// (ingest.folders / ingest.setFolders). The observatory's own imports and `loci ingest`
// are not limited by it: a person chose those files.
import { useState, type FormEvent } from 'react';
import type { LociError } from '../../../../shared/errors';
import { LIMITS } from '../../../../shared/constants';
import { CheckedField } from './CheckedField';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';

/** Absolute on the engine's machine: `/home/me/notes`, `C:\Users\me\notes`, `\\server\share`. */
export function folderProblem(path: string, taken: readonly string[]): string | null {
  if (path === '') return 'Type the absolute path of a folder.';
  if (!(path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\')))
    return 'Give an absolute path, e.g. /home/me/notes or C:\\Users\\me\\notes.';
  if (taken.includes(path)) return 'This folder is allowed already.';
  if (taken.length >= LIMITS.ingestFoldersMax)
    return `At most ${LIMITS.ingestFoldersMax} folders; remove one first.`;
  return null;
}

export function AllowedFoldersCard() {
  const client = useEngineClient();
  const query = useEngineQuery('ingest.folders', {});
  const [saved, setSaved] = useState<string[] | null>(null);
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<LociError | null>(null);

  const folders = saved ?? query.data?.folders ?? null;
  const path = value.trim();
  const problem = folderProblem(path, folders ?? []);
  const showProblem = touched && path !== '' && problem;

  const save = async (next: string[], done: string) => {
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('ingest.setFolders', { folders: next });
      setSaved(result.folders);
      useUiStore.getState().toast({ message: done, tone: 'success' });
      return true;
    } catch (err) {
      setError(toLociError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || !folders) return;
    if (await save([...folders, path], `Agents may now import files from ${path}.`)) {
      setValue('');
      setTouched(false);
    }
  };

  return (
    <section className="card card-wide" aria-labelledby="sv-folders">
      <h2 id="sv-folders" className="card-title">
        <Icon name="folder" /> Allowed folders for agents
      </h2>
      <p className="card-note">
        The MCP tool <code>ingest_file</code> may read files only inside these folders (and their
        subfolders). Files you drop on the Ingest view, and <code>loci ingest</code>, are not
        limited by this list.
      </p>
      {!folders ? (
        query.loading ? (
          <LoadingState label="Loading the allowed folders…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not load the allowed folders"
            error={query.error}
            onRetry={query.reload}
          />
        )
      ) : (
        <>
          {folders.length === 0 ? (
            <p className="sv-hint" data-testid="allowed-folders-empty">
              None yet: agents cannot import files. Add a folder below to let them.
            </p>
          ) : (
            <ul className="sv-folders" data-testid="allowed-folders">
              {folders.map((folder) => (
                <li key={folder}>
                  <code className="mono sv-path">{folder}</code>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="trash"
                    disabled={busy}
                    aria-label={`Remove ${folder}`}
                    onClick={() =>
                      void save(
                        folders.filter((f) => f !== folder),
                        `Agents may no longer import files from ${folder}.`,
                      )
                    }
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <form className="sv-create" onSubmit={(e) => void add(e)} noValidate>
            <CheckedField
              label="Folder to allow"
              value={value}
              onChange={(v) => {
                setValue(v);
                setError(null);
              }}
              onBlur={() => setTouched(true)}
              placeholder="/home/me/notes"
              mono
              problem={showProblem || null}
              hint="An absolute path on the machine Loci runs on."
              submitLabel="Allow folder"
              busy={busy}
            />
          </form>
        </>
      )}
      {error ? (
        <ErrorState compact title="Could not change the allowed folders" error={error} />
      ) : null}
    </section>
  );
}
