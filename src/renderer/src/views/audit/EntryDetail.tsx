// One audit entry opened: the memory it is about (by name, a link to it), what the entry
// records (keyed fingerprints of the state before and after, the fields that changed, the
// version), and — when the versions it is about still exist — the diff between them.
import type { AuditEntryView, HistoryResult, MemoryView } from '../../../../shared/api';
import { MemoryRef, type TitleBook } from '../../components/MemoryRef';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { VersionDiff, type DiffSide } from '../memories/VersionDiff';
import { isMemoryId } from './auditModel';

/** Actions that write a new version of a memory: `data.version` is the version written. */
const VERSIONED = new Set(['memory.update', 'memory.promote', 'memory.redact']);

const LABELS: Record<string, string> = {
  old: 'Before (fingerprint)',
  new: 'After (fingerprint)',
  state: 'State (fingerprint)',
  fields: 'Fields changed',
  version: 'Version',
};

function value(v: unknown): string {
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) return v.join(', ');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The two sides of the change, when both versions are still kept. */
function sides(
  history: HistoryResult | undefined,
  memory: MemoryView | undefined,
  version: number,
): [DiffSide, DiffSide] | null {
  if (!history) return null;
  const at = (n: number): DiffSide | undefined => {
    if (n === history.current_version && memory) return memory;
    return history.versions.find((v) => v.version === n);
  };
  const before = at(version - 1);
  const after = at(version);
  return before && after ? [before, after] : null;
}

export function EntryDetail({ entry, titles }: { entry: AuditEntryView; titles: TitleBook }) {
  const store = useUiStore((s) => s.store);
  const at = store ? { store } : {};
  const target = entry.target && isMemoryId(entry.target) ? entry.target : null;
  const version = typeof entry.data.version === 'number' ? entry.data.version : null;
  const wantDiff = target !== null && version !== null && VERSIONED.has(entry.action);
  const history = useEngineQuery(
    'memory.history',
    { ...at, id: target ?? '' },
    { enabled: wantDiff },
  );
  const memory = useEngineQuery(
    'memory.get',
    { ...at, id: target ?? '', include_deleted: true },
    { enabled: wantDiff },
  );
  const pair = wantDiff && version !== null ? sides(history.data, memory.data, version) : null;
  return (
    <div className="au-entry" data-testid={`audit-entry-detail-${entry.seq}`}>
      {target ? (
        <p>
          About <MemoryRef id={target} book={titles} />{' '}
          <span className="au-muted mono">{target}</span>
        </p>
      ) : null}
      <dl className="au-entry-data">
        {Object.entries(entry.data).map(([k, v]) => (
          <div key={k}>
            <dt>{LABELS[k] ?? k}</dt>
            <dd className={typeof v === 'string' && /^[0-9a-f]{16,}$/.test(v) ? 'mono' : undefined}>
              {value(v)}
            </dd>
          </div>
        ))}
        <div>
          <dt>Entry hash</dt>
          <dd className="mono">
            {entry.hash} (key {entry.key_id})
          </dd>
        </div>
      </dl>
      {wantDiff ? (
        history.loading || memory.loading ? (
          <p className="au-muted">Loading the versions…</p>
        ) : pair ? (
          <div className="au-entry-diff">
            <p className="au-entry-h">
              Version {(version as number) - 1} → {version}
            </p>
            <VersionDiff before={pair[0]} after={pair[1]} mode="words" />
          </div>
        ) : (
          <p className="au-muted">
            The versions this entry is about are no longer kept (the memory was erased, or they were
            pruned): the fingerprints above are what remains.
          </p>
        )
      ) : null}
    </div>
  );
}
