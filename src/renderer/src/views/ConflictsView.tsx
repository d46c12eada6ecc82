// Conflicts: memories that seem to contradict each other, and what holds now. Open
// candidates wait for a decision — the newer one replaces the older (or the other way
// round, from a given time), both hold in their contexts, or not a conflict — one card at
// a time or the selected ones together; decided ones say who decided what, with Undo.
// "Scan the store" looks for pairs among what is already stored, with live progress.
// `#/conflicts/<id>` points at one card; `?tab=resolved` opens the decided ones;
// `?memory=<id>` shows only one memory's conflicts. Engine events keep it current.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConflictView } from '../../../shared/api';
import { MemoryRef, useMemoryTitles } from '../components/MemoryRef';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { useEngineClient } from '../lib/engineContext';
import { navigate, routeHref } from '../lib/router';
import { useEngineEvent } from '../lib/useEngineEvent';
import { toLociError, useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { Tabs } from './connect/Tabs';
import { ConflictCard } from './conflicts/ConflictCard';
import {
  plural,
  RESOLVE_MAX,
  resolveArgs,
  resolvedMessage,
  RESOLVED_FILTERS,
  type ConflictFilter,
  type ResolveChoice,
} from './conflicts/conflictsModel';
import { ScanProgress, type LiveScan } from './conflicts/ScanProgress';
import type { ViewProps } from './index';
import './connect/connect.css';
import './conflicts/conflicts.css';

/** Cards per page; "Show more" asks for more, up to the contract's page limit. */
const PAGE = 100;
const PAGE_MAX = 500;

type Tab = 'open' | 'resolved';

function useTabFromAddress(query: URLSearchParams): [Tab, (t: Tab) => void] {
  const wanted: Tab = query.get('tab') === 'resolved' ? 'resolved' : 'open';
  const [tab, setTab] = useState<Tab>(wanted);
  // A link from elsewhere (the history timeline) may ask for the other tab.
  useEffect(() => setTab(wanted), [wanted]);
  return [tab, setTab];
}

export default function ConflictsView({ rest, query }: ViewProps) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const at = store ? { store } : {};
  const targetId = rest[0] ?? null;
  const memory = query.get('memory') ?? null;
  const memoryTitle = useMemoryTitles(useMemo(() => (memory ? [memory] : []), [memory]));
  const [tab, setTab] = useTabFromAddress(query);
  const [resolvedKind, setResolvedKind] = useState<ConflictFilter>('resolved');
  const [limit, setLimit] = useState(PAGE);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const [scan, setScan] = useState<LiveScan | null>(null);
  const [scanning, setScanning] = useState(false);
  const filter: ConflictFilter = tab === 'open' ? 'open' : resolvedKind;

  const list = useEngineQuery(
    'conflict.list',
    { ...at, state: filter, ...(memory ? { memory } : {}), limit },
    { refreshOn: ['conflict.changed', 'memory.changed'], enabled: store !== null },
  );

  // Another store, tab or filter: nothing selected there, the first page again.
  useEffect(() => {
    setSelected(new Set());
    setLimit(PAGE);
  }, [store, filter, memory]);
  useEffect(() => setScan(null), [store]);

  useEngineEvent('conflict.progressed', (p) => {
    if ((store ?? 'default') !== p.store) return;
    setScan(p.finished ? null : { done: p.done, total: p.total, found: p.found });
  });

  const conflicts = useMemo(() => list.data?.conflicts ?? [], [list.data]);
  const openIds = useMemo(
    () => new Set(conflicts.filter((c) => c.state === 'open').map((c) => c.id)),
    [conflicts],
  );
  // What was selected and is still open here (another client may have decided it).
  const chosen = [...selected].filter((id) => openIds.has(id));
  const allChosen = openIds.size > 0 && chosen.length === openIds.size;

  // The card the address points at: scrolled to once it is on the page.
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!targetId || scrolledTo.current === targetId) return;
    if (!conflicts.some((c) => c.id === targetId)) return;
    scrolledTo.current = targetId;
    document.getElementById(`conflict-${targetId}`)?.scrollIntoView?.({ block: 'center' });
  }, [targetId, conflicts]);

  const toast = (message: string, tone: 'success' | 'error' | 'info' = 'success') =>
    useUiStore.getState().toast({ message, tone });

  const reopenAll = async (ids: string[]) => {
    try {
      for (const id of ids) await client.call('conflict.reopen', { ...at, id });
      toast(
        ids.length === 1
          ? 'Decision undone: the conflict is open again.'
          : `${plural(ids.length, 'decision')} undone.`,
      );
    } catch (err) {
      toast(`Could not undo: ${toLociError(err).message}`, 'error');
    } finally {
      list.reload();
    }
  };

  const resolve = async (ids: string[], choice: ResolveChoice, key: string) => {
    if (ids.length === 0) return;
    setBusy(key);
    try {
      const r = await client.call('conflict.resolve', resolveArgs(store, ids, choice));
      const done = r.resolved.map((c) => c.id);
      useUiStore.getState().toast({
        message: resolvedMessage(choice.resolution, done.length),
        tone: 'success',
        action: { label: 'Undo', run: () => reopenAll(done) },
      });
      setSelected((s) => new Set([...s].filter((id) => !done.includes(id))));
    } catch (err) {
      toast(`Could not resolve: ${toLociError(err).message}`, 'error');
    } finally {
      setBusy(null);
      list.reload();
    }
  };

  const reopen = async (conflict: ConflictView) => {
    setBusy(`${conflict.id}:reopen`);
    try {
      await client.call('conflict.reopen', { ...at, id: conflict.id });
      toast('Decision undone: the conflict is open again.');
    } catch (err) {
      toast(`Could not undo the decision: ${toLociError(err).message}`, 'error');
    } finally {
      setBusy(null);
      list.reload();
    }
  };

  const startScan = async () => {
    setScanning(true);
    setScan({ done: 0, total: 0, found: 0 });
    try {
      const r = await client.call('conflict.scan', at);
      toast(
        `Scan done: ${plural(r.examined, 'memory', 'memories')} compared, ${
          r.found ? plural(r.found, 'new conflict') : 'no new conflict'
        } found (${(r.ms / 1000).toFixed(1)} s).`,
        r.found ? 'success' : 'info',
      );
    } catch (err) {
      toast(`The scan failed: ${toLociError(err).message}`, 'error');
    } finally {
      setScanning(false);
      setScan(null);
      list.reload();
    }
  };

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const open = list.data?.open ?? null;
  const more = list.data?.next_cursor ? true : false;

  let body;
  if (list.loading) {
    body = <LoadingState label="Loading the conflicts…" />;
  } else if (list.error && !list.data) {
    body = (
      <ErrorState title="Could not load the conflicts" error={list.error} onRetry={list.reload} />
    );
  } else if (conflicts.length === 0) {
    body =
      tab === 'open' ? (
        <EmptyState
          icon="check"
          title={memory ? 'No open conflict for this memory' : 'Nothing contradicts anything'}
          action={{ label: 'Scan the store', icon: 'search', onClick: () => void startScan() }}
        >
          <p>
            When a new memory says something else about the same thing as an older one — the port
            changed from 8080 to 9090, a service is <em>no longer</em> used — both wait here for you
            to decide what is true now: the newer replaces the older, both hold in different
            contexts, or they do not conflict at all.
          </p>
          <p>
            New writes are checked as they arrive. To look among what is already stored, scan the
            store.
          </p>
        </EmptyState>
      ) : (
        <EmptyState icon="info" title="No decision here yet">
          <p>
            Conflicts you or an agent decided are listed here with who decided what and when, each
            with an Undo.
          </p>
        </EmptyState>
      );
  } else {
    body = (
      <>
        {list.error ? (
          <ErrorState compact title="Could not refresh" error={list.error} onRetry={list.reload} />
        ) : null}
        {targetId && !conflicts.some((c) => c.id === targetId) ? (
          <p className="cf-note" role="note">
            The conflict this link points at is not among these
            {tab === 'open' ? (
              <>
                {' '}
                — it may have been decided:{' '}
                <a href={routeHref(`/conflicts/${targetId}`, { tab: 'resolved' })}>
                  look among the resolved ones
                </a>
              </>
            ) : null}
            .
          </p>
        ) : null}
        <ul
          className="cf-list"
          aria-label={tab === 'open' ? 'Open conflicts' : 'Decided conflicts'}
        >
          {conflicts.map((c) => (
            <ConflictCard
              key={c.id}
              conflict={c}
              target={c.id === targetId}
              selected={selected.has(c.id)}
              onSelect={() => toggle(c.id)}
              busy={busy?.startsWith(`${c.id}:`) ? busy.slice(c.id.length + 1) : null}
              onResolve={(choice) => void resolve([c.id], choice, `${c.id}:${choice.resolution}`)}
              onReopen={() => void reopen(c)}
            />
          ))}
        </ul>
        {more ? (
          limit < PAGE_MAX ? (
            <Button
              variant="ghost"
              busy={list.refreshing}
              onClick={() => setLimit((l) => Math.min(PAGE_MAX, l + PAGE))}
            >
              Show more
            </Button>
          ) : (
            <p className="cf-note">
              Showing the first {PAGE_MAX}. Decide some of these to see the rest.
            </p>
          )
        ) : null}
      </>
    );
  }

  return (
    <div className="view cf-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Conflicts</h1>
          <p className="view-subtitle">
            Store <strong>{store ?? '…'}</strong> ·{' '}
            {open === null
              ? 'what is true now'
              : open === 0
                ? 'nothing waits for a decision'
                : `${plural(open, 'conflict')} waiting for a decision`}
          </p>
        </div>
        <div className="cf-header-actions">
          <Button
            icon="search"
            busy={scanning}
            disabled={scan !== null && !scanning}
            onClick={() => void startScan()}
            title="Compare every memory with its neighbours to find contradictions already stored"
          >
            Scan the store
          </Button>
        </div>
      </header>

      {scan ? <ScanProgress scan={scan} /> : null}

      {memory ? (
        <p className="cf-filter-chip">
          Only the conflicts of <MemoryRef id={memory} book={memoryTitle} />
          <Button
            size="sm"
            variant="ghost"
            icon="close"
            onClick={() => navigate('/conflicts', tab === 'resolved' ? { query: { tab } } : {})}
          >
            Show all
          </Button>
        </p>
      ) : null}

      <Tabs
        label="Conflicts"
        idPrefix="cf"
        items={[
          { id: 'open', label: open ? `Open (${open})` : 'Open' },
          { id: 'resolved', label: 'Resolved' },
        ]}
        selected={tab}
        onSelect={(id) => setTab(id as Tab)}
      >
        <div className="cf-toolbar" role="group" aria-label="Conflict actions">
          {tab === 'open' && openIds.size > 0 ? (
            <>
              <label className="cf-check-label">
                <input
                  type="checkbox"
                  checked={allChosen}
                  ref={(el) => {
                    if (el) el.indeterminate = chosen.length > 0 && !allChosen;
                  }}
                  onChange={() => setSelected(allChosen ? new Set() : new Set(openIds))}
                />
                Select all ({openIds.size})
              </label>
              <Button
                size="sm"
                variant="primary"
                icon="check"
                disabled={chosen.length === 0 || chosen.length > RESOLVE_MAX || busy !== null}
                busy={busy === 'bulk:supersede'}
                onClick={() => void resolve(chosen, { resolution: 'supersede' }, 'bulk:supersede')}
              >
                Newer replaces older ({chosen.length})
              </Button>
              <Button
                size="sm"
                variant="ghost"
                icon="close"
                disabled={chosen.length === 0 || chosen.length > RESOLVE_MAX || busy !== null}
                busy={busy === 'bulk:dismiss'}
                onClick={() => void resolve(chosen, { resolution: 'dismiss' }, 'bulk:dismiss')}
              >
                Not a conflict ({chosen.length})
              </Button>
            </>
          ) : null}
          {tab === 'resolved' ? (
            <label className="cf-field cf-field-inline">
              <span>Show</span>
              <select
                value={resolvedKind}
                onChange={(e) => setResolvedKind(e.target.value as ConflictFilter)}
              >
                {RESOLVED_FILTERS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {list.refreshing ? <span className="spinner spinner-sm" aria-hidden /> : null}
        </div>
        {body}
      </Tabs>
    </div>
  );
}
