// A memory's history: whether it holds now, what replaced it, its conflicts and its
// timeline (HistoryTimeline), then its versions — the current one and every earlier one
// (who changed it, when), a diff of any earlier version against the current one, and
// restoring it, which adds a new version with the old text, so a restore is itself
// undoable. An edit on the timeline opens its diff here.
import { useRef, useState } from 'react';
import type { HistoryResult, MemoryView } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import type { LociError } from '../../../../shared/errors';
import { HistoryTimeline } from './HistoryTimeline';
import { VersionDiff, type DiffMode } from './VersionDiff';

export function VersionsSection({
  memory,
  history,
  historyError,
  onReload,
}: {
  memory: MemoryView;
  history: HistoryResult | undefined;
  historyError: LociError | null;
  onReload: () => void;
}) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const [picked, setPicked] = useState<number | null>(null);
  const [mode, setMode] = useState<DiffMode>('words');
  const [busy, setBusy] = useState(false);
  const compareRef = useRef<HTMLDivElement>(null);
  const earlier = history?.versions ?? [];
  // The newest earlier version is compared by default: the last change is what one
  // usually wants to see.
  const chosen = earlier.find((v) => v.version === picked) ?? earlier[0];
  const readOnly = memory.deleted_at !== null;

  const restore = async (version: number) => {
    setBusy(true);
    const at = store ? { store } : {};
    const from = memory.version;
    try {
      const result = await client.call('memory.revert', {
        ...at,
        id: memory.id,
        version,
        expected_version: from,
      });
      setPicked(null);
      useUiStore.getState().toast({
        message: `Restored version ${version} as version ${result.version}.`,
        tone: 'success',
        action: {
          label: 'Undo',
          run: async () => {
            await client.call('memory.revert', {
              ...at,
              id: memory.id,
              version: from,
              expected_version: result.version,
            });
          },
        },
      });
    } catch (err) {
      const error = toLociError(err);
      useUiStore.getState().toast({
        tone: 'error',
        message:
          error.code === 'conflict'
            ? 'It changed while you looked at it; the versions are reloaded. Try again.'
            : `Could not restore version ${version}: ${error.message}`,
      });
    } finally {
      setBusy(false);
      onReload();
    }
  };

  return (
    <section className="mem-section" aria-labelledby="mem-history">
      <h3 id="mem-history" className="mem-section-title">
        History
      </h3>
      {historyError && !history ? (
        <ErrorState
          compact
          title="Could not load the history"
          error={historyError}
          onRetry={onReload}
        />
      ) : null}
      {history ? (
        <HistoryTimeline
          memory={memory}
          history={history}
          onCompare={(version) => {
            setPicked(version);
            requestAnimationFrame(() =>
              compareRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }),
            );
          }}
        />
      ) : null}
      <h4 id="mem-versions" className="mem-subtitle">
        Versions
      </h4>
      <ol className="mem-versions" aria-label="Versions, newest first">
        <li className="mem-version is-current">
          <span className="mem-version-no">v{memory.version}</span>
          <span className="mem-version-what">current</span>
          <span className="muted">
            <TimeAgo iso={memory.updated_at} />
          </span>
        </li>
        {earlier.map((v) => (
          <li key={v.version} className="mem-version">
            <button
              type="button"
              className="mem-version-btn"
              aria-pressed={chosen?.version === v.version}
              onClick={() => setPicked(v.version)}
            >
              <span className="mem-version-no">v{v.version}</span>
              <span className="mem-version-what truncate">{v.title}</span>
              <span className="muted">
                replaced <TimeAgo iso={v.changed_at} /> by {v.actor}
              </span>
            </button>
          </li>
        ))}
      </ol>
      {history && earlier.length === 0 ? (
        <p className="muted">No earlier versions: it has not been changed since it was written.</p>
      ) : null}
      {chosen ? (
        <div className="mem-compare" ref={compareRef}>
          <div className="mem-compare-head">
            <span>
              Changes from <strong>v{chosen.version}</strong> to <strong>v{memory.version}</strong>{' '}
              (current)
            </span>
            <span className="segmented" role="group" aria-label="Compare by">
              <button
                type="button"
                aria-pressed={mode === 'words'}
                onClick={() => setMode('words')}
              >
                Words
              </button>
              <button
                type="button"
                aria-pressed={mode === 'lines'}
                onClick={() => setMode('lines')}
              >
                Lines
              </button>
            </span>
          </div>
          <VersionDiff before={chosen} after={memory} mode={mode} />
          <div className="mem-compare-actions">
            <Button
              size="sm"
              icon="undo"
              busy={busy}
              disabled={readOnly}
              title={readOnly ? 'Restore the memory first' : undefined}
              onClick={() => void restore(chosen.version)}
            >
              Restore version {chosen.version}
            </Button>
            <span className="muted">Restoring adds a new version; nothing is lost.</span>
          </div>
        </div>
      ) : null}
    </section>
  );
}
