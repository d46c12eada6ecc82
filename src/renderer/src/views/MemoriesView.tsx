// Memories: every memory of the store in one virtualised list (browse by filters, or
// search through recall), a detail panel for the one at `#/memories/<id>`, and bulk
// actions on a selection. Keyboard: j/k or arrows move, Enter opens, x selects, Esc
// closes the panel, / searches. Engine events keep it current without a reload.
import { connectEditorAction } from './connect/connectAction';
import { useCallback, useEffect, useRef } from 'react';
import { MEMORY_KINDS } from '../../../shared/constants';
import type { MemoryKind } from '../../../shared/schemas';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { Kbd } from '../components/Kbd';
import { LoadingState } from '../components/LoadingState';
import { navigate } from '../lib/router';
import { useUiStore } from '../stores/uiStore';
import type { ViewProps } from './index';
import { BulkBar } from './memories/BulkBar';
import { FilterBar, SEARCH_INPUT_ID } from './memories/FilterBar';
import { useMemoriesStore } from './memories/memoriesStore';
import { DETAIL_HEADING_ID, MemoryDetail } from './memories/MemoryDetail';
import { MemoryList } from './memories/MemoryList';
import {
  activeFilterCount,
  DEFAULT_FILTERS,
  filtersSearchIgnores,
  type MemoryRow,
} from './memories/model';
import { useListSource, useSearchSource, type RowSource } from './memories/useRowSource';
import './memories/memories.css';

/** Keys typed into a field belong to the field. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement && !['checkbox', 'radio', 'range'].includes(target.type)
  );
}

const modalOpen = () => document.querySelector('[role="dialog"][aria-modal="true"]') !== null;

function SelectInView({ source }: { source: RowSource }) {
  const visible = useMemoriesStore((s) => s.visible);
  const selected = useMemoriesStore((s) => s.selected);
  const setSelected = useMemoriesStore((s) => s.setSelected);
  const ref = useRef<HTMLInputElement>(null);
  const rows: MemoryRow[] = [];
  const [first, last] =
    source.mode === 'search' ? [0, source.count - 1] : [visible.first, visible.last];
  for (let i = Math.max(0, first); i <= last && i < source.count; i++) {
    const row = source.row(i);
    if (row) rows.push(row);
  }
  const chosen = rows.filter((r) => selected.has(r.id)).length;
  const all = rows.length > 0 && chosen === rows.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = chosen > 0 && !all;
  }, [chosen, all]);
  const label = source.mode === 'search' ? 'Select all results' : 'Select all rows in view';
  return (
    <label className="mem-selectall" title={label}>
      <input
        ref={ref}
        type="checkbox"
        checked={all}
        disabled={rows.length === 0}
        onChange={() => setSelected(rows, !all)}
      />
      <span className="visually-hidden">{label}</span>
    </label>
  );
}

/**
 * A link from another view — `#/memories?tag=<tag>` (an import's memories), `?trust=
 * quarantined`, `?pinned=1`, `?kind=<kind>`, `?deleted=include|only` (the Overview's
 * tiles): list those, then drop the query so the filters are the person's again.
 */
function useLinkedFilter(query: URLSearchParams, openId: string | null): void {
  const tag = query.get('tag');
  const trust = query.get('trust');
  const kind = query.get('kind');
  const pinned = query.get('pinned');
  const deletedArg = query.get('deleted');
  const deleted = deletedArg === 'include' || deletedArg === 'only' ? deletedArg : 'exclude';
  useEffect(() => {
    if (!tag && !trust && !kind && !pinned && !deletedArg) return;
    const state = useMemoriesStore.getState();
    state.setQuery('');
    state.setFilters({
      ...DEFAULT_FILTERS,
      ...(tag ? { tags: [tag] } : {}),
      ...(trust === 'quarantined' || trust === 'trusted' ? { trust } : {}),
      ...(kind && (MEMORY_KINDS as readonly string[]).includes(kind)
        ? { kinds: [kind as MemoryKind] }
        : {}),
      ...(pinned ? { pinned: 'pinned' as const } : {}),
      deleted,
    });
    navigate(openId ? `/memories/${openId}` : '/memories', { replace: true });
  }, [tag, trust, kind, pinned, deletedArg, deleted, openId]);
}

export default function MemoriesView({ rest, query: route }: ViewProps) {
  const store = useUiStore((s) => s.store);
  const openId = rest[0] ?? null;
  useLinkedFilter(route, openId);
  const filters = useMemoriesStore((s) => s.filters);
  const query = useMemoriesStore((s) => s.query);
  const selectedCount = useMemoriesStore((s) => s.selected.size);
  const searching = query.trim() !== '';
  const list = useListSource(filters, store, !searching);
  const search = useSearchSource(query, filters, store, searching);
  const source = searching ? search : list;

  // Another store: nothing selected there, and the open memory belongs to the old one.
  const seenStore = useRef(store);
  useEffect(() => {
    if (seenStore.current === store) return;
    const previous = seenStore.current;
    seenStore.current = store;
    if (previous === null) return;
    useMemoriesStore.getState().clearSelection();
    useMemoriesStore.getState().setCursor(0);
    if (openId) navigate('/memories', { replace: true });
  }, [store, openId]);

  const open = useCallback(
    (index: number, options: { replace?: boolean } = {}) => {
      const row = source.row(index);
      if (!row) return;
      useMemoriesStore.getState().setCursor(index);
      if (row.id === openId && !options.replace) {
        document.getElementById(DETAIL_HEADING_ID)?.focus();
        return;
      }
      navigate(`/memories/${row.id}`, options.replace ? { replace: true } : {});
    },
    [source, openId],
  );

  const close = useCallback(() => {
    navigate('/memories');
    // Back to the list, where the keyboard was.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('[data-testid="memory-list"]')?.focus(),
    );
  }, []);

  const toggle = useCallback(
    (index: number, range: boolean) => {
      const state = useMemoriesStore.getState();
      const row = source.row(index);
      if (!range || state.anchor === null) {
        if (row) state.toggle(row, index);
        return;
      }
      const [from, to] = state.anchor < index ? [state.anchor, index] : [index, state.anchor];
      void source.rows(from, to).then((rows) => {
        useMemoriesStore.getState().setSelected(rows, true);
      });
    },
    [source],
  );

  const filterByTag = useCallback((tag: string) => {
    const state = useMemoriesStore.getState();
    state.setQuery('');
    state.setFilters({ tags: [tag] });
  }, []);
  const showSession = useCallback((session: string) => {
    const state = useMemoriesStore.getState();
    state.setQuery('');
    state.setFilters({ ...DEFAULT_FILTERS, session, sort: 'occurred-asc' });
  }, []);

  // The view's keys, wherever the focus is in it (but never while typing or in a dialog).
  const latest = useRef({ source, open, close, toggle, openId });
  latest.current = { source, open, close, toggle, openId };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (typing(event.target) || modalOpen() || useUiStore.getState().paletteOpen) return;
      const {
        source: src,
        open: openRow,
        close: closePanel,
        toggle: toggleRow,
        openId: id,
      } = latest.current;
      const state = useMemoriesStore.getState();
      const cursor = Math.min(state.cursor, Math.max(0, src.count - 1));
      const inList = (event.target as HTMLElement | null)?.closest?.('[role="grid"]');
      switch (event.key) {
        case 'j':
        case 'k': {
          if (src.count === 0) return;
          event.preventDefault();
          const next = Math.max(0, Math.min(src.count - 1, cursor + (event.key === 'j' ? 1 : -1)));
          if (event.shiftKey) toggleRow(next, true);
          state.setCursor(next);
          if (id) openRow(next, { replace: true });
          return;
        }
        case 'J':
        case 'K': {
          if (src.count === 0) return;
          event.preventDefault();
          const next = Math.max(0, Math.min(src.count - 1, cursor + (event.key === 'J' ? 1 : -1)));
          toggleRow(next, true);
          state.setCursor(next);
          return;
        }
        case 'x':
          if (src.count === 0) return;
          event.preventDefault();
          toggleRow(cursor, false);
          return;
        case 'o':
          if (src.count === 0) return;
          event.preventDefault();
          openRow(cursor);
          return;
        case 'Enter':
          // Enter on a button is the button's; on the page itself it opens the row.
          if (inList || event.target !== document.body) return;
          if (src.count === 0) return;
          event.preventDefault();
          openRow(cursor);
          return;
        case 'Escape':
          if (id) {
            event.preventDefault();
            closePanel();
          } else if (state.selected.size) {
            event.preventDefault();
            state.clearSelection();
          }
          return;
        case '/':
          event.preventDefault();
          document.getElementById(SEARCH_INPUT_ID)?.focus();
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const ignored = searching ? filtersSearchIgnores(filters) : [];
  const filtered = activeFilterCount(filters) > 0;
  const total = source.loading || source.error ? null : source.count;

  let listBody;
  if (source.loading) {
    listBody = <LoadingState label={searching ? 'Searching…' : 'Loading the memories…'} />;
  } else if (source.error && source.count === 0) {
    listBody = (
      <ErrorState
        title={searching ? 'The search failed' : 'Could not load the memories'}
        error={source.error}
        onRetry={source.retry}
      />
    );
  } else if (source.count === 0) {
    listBody = searching ? (
      <EmptyState icon="search" title={`Nothing found for “${query.trim()}”`}>
        <p>
          Search recalls by meaning and by words. Try fewer or other words
          {filtered ? ', or clear the filters' : ''}. Forgotten memories are not searched.
        </p>
      </EmptyState>
    ) : filtered ? (
      <EmptyState
        icon="memories"
        title="No memories match these filters"
        action={{
          label: 'Clear the filters',
          icon: 'close',
          onClick: () => useMemoriesStore.getState().resetFilters(),
        }}
      >
        <p>Loosen a filter, or clear them all to see every memory of this store.</p>
      </EmptyState>
    ) : (
      <EmptyState
        icon="memories"
        title={`No memories in “${store ?? 'this store'}” yet`}
        {...connectEditorAction()}
      >
        <p>
          Memories arrive when an agent calls <em>remember</em> over MCP: connect your editor first
          with <code>loci setup</code>. Or write one yourself:
        </p>
        <p>
          <code>loci remember "The deploy script lives in ops/deploy.sh"</code>
        </p>
        <p>New memories appear here as they are written.</p>
      </EmptyState>
    );
  } else {
    listBody = (
      <>
        {source.error ? (
          <ErrorState
            compact
            title="Some rows could not be loaded"
            error={source.error}
            onRetry={source.retry}
          />
        ) : null}
        <MemoryList
          source={source}
          openId={openId}
          label={searching ? `Search results for “${query.trim()}”` : 'Memories'}
          onOpen={open}
          onToggle={toggle}
        />
      </>
    );
  }

  return (
    <div className={openId ? 'view mem-view has-detail' : 'view mem-view'}>
      <header className="view-header mem-view-header">
        <div>
          <h1 className="view-title">Memories</h1>
          <p className="view-subtitle">
            Store <strong>{store ?? '…'}</strong> · updates live
            <span className="mem-keys" aria-hidden>
              <Kbd keys={['j']} /> <Kbd keys={['k']} /> move · <Kbd keys={['Enter']} /> open ·{' '}
              <Kbd keys={['x']} /> select · <Kbd keys={['Esc']} /> close
            </span>
          </p>
        </div>
      </header>
      <FilterBar total={total} />
      {ignored.length ? (
        <p className="mem-note" role="note">
          Search ignores these filters: {ignored.join(', ')}.
        </p>
      ) : null}
      {searching && source.note ? <p className="mem-note">{source.note}</p> : null}
      <div className="mem-body">
        <section className="mem-list-pane" aria-label="Memory list">
          {selectedCount > 0 ? (
            <BulkBar
              source={source}
              onErased={(ids) => {
                if (openId && ids.includes(openId)) navigate('/memories', { replace: true });
              }}
            />
          ) : source.count > 0 ? (
            <div className="mem-list-head">
              <SelectInView source={source} />
              <span className="mem-col-title">{searching ? 'Best matches first' : 'Memory'}</span>
              <span className="mem-col-tags" aria-hidden>
                Tags
              </span>
              <span className="mem-col-kind" aria-hidden>
                Kind
              </span>
              <span className="mem-col-meta" aria-hidden>
                {searching ? 'Score' : 'Written'}
              </span>
              {source.refreshing ? <span className="spinner spinner-sm" aria-hidden /> : null}
            </div>
          ) : null}
          {listBody}
        </section>
        {openId ? (
          <MemoryDetail
            id={openId}
            onClose={close}
            onFilterTag={filterByTag}
            onShowSession={showSession}
          />
        ) : null}
      </div>
    </div>
  );
}
