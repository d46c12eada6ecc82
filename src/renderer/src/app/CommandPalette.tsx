// Ctrl/⌘-K: one box to find a memory (recall as you type) or jump to a view. A combobox
// over a listbox: arrows move, Enter opens, Esc closes; the pointer works too. Opening a
// memory goes to `#/memories/<id>`, which the Memories view owns.
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { RecallHit } from '../../../shared/api';
import { Dialog } from '../components/Dialog';
import { Icon } from '../components/Icon';
import { Kbd } from '../components/Kbd';
import { KindBadge } from '../components/KindBadge';
import { formatScore } from '../lib/format';
import { navigate } from '../lib/router';
import { useUiStore } from '../stores/uiStore';
import { VIEWS, type ViewDefinition } from '../views';
import { usePaletteSearch } from './usePaletteSearch';

type Item =
  | { type: 'memory'; key: string; hit: RecallHit }
  | { type: 'view'; key: string; view: ViewDefinition };

/** How well a view matches: its name first, then its keywords, then its description. */
function viewMatch(v: ViewDefinition, q: string): number | null {
  const label = v.label.toLowerCase();
  if (label.startsWith(q) || label.split(/\s+/).some((w) => w.startsWith(q))) return 0;
  if ((v.keywords ?? []).some((k) => k.toLowerCase().startsWith(q))) return 1;
  if (label.includes(q) || (v.keywords ?? []).some((k) => k.toLowerCase().includes(q))) return 2;
  if (v.description.toLowerCase().includes(q)) return 3;
  return null;
}

/** The views that match, best first (menu order among equals). */
export function matchViews(query: string): ViewDefinition[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...VIEWS];
  return VIEWS.map((v) => ({ v, m: viewMatch(v, q) }))
    .filter((x): x is { v: ViewDefinition; m: number } => x.m !== null)
    .sort((a, b) => a.m - b.m)
    .map((x) => x.v);
}

/** True when the query names a view: "audit" goes to Audit before any memory about audits. */
export function namesAView(query: string): boolean {
  const q = query.trim().toLowerCase();
  return q.length > 0 && VIEWS.some((v) => viewMatch(v, q) === 0);
}

/** "Conflicts with “Port 9090” — current: the other": a hit's first open contradiction. */
export function conflictLine(hit: RecallHit, hits: readonly RecallHit[]): string {
  const marks = hit.conflicts_with ?? [];
  const first = marks[0];
  if (!first) return '';
  const other = hits.find((h) => h.id === first.id)?.title;
  const current =
    first.current === hit.id ? 'this one' : first.current === first.id ? 'the other' : 'neither';
  const more = marks.length > 1 ? ` (+${marks.length - 1} more)` : '';
  return `Conflicts with ${other ? `“${other}”` : `…${first.id.slice(-8)}`} — current: ${current}${more}`;
}

function PaletteBody({ onClose }: { onClose: () => void }) {
  const [input, setInput] = useState('');
  const [active, setActive] = useState(0);
  const store = useUiStore((s) => s.store);
  const search = usePaletteSearch(input, store);
  const listId = useId();
  const optionId = (i: number) => `${listId}-o${i}`;

  // Best score first, so the scores shown read in order.
  const hits = input.trim()
    ? [...(search.result?.results ?? [])].sort((a, b) => b.score - a.score)
    : [];
  const views = matchViews(input);
  const viewsFirst = namesAView(input);
  const memoryItems: Item[] = hits.map((hit) => ({
    type: 'memory' as const,
    key: `m-${hit.id}`,
    hit,
  }));
  const viewItems: Item[] = views.map((view) => ({
    type: 'view' as const,
    key: `v-${view.id}`,
    view,
  }));
  const items: Item[] = viewsFirst
    ? [...viewItems, ...memoryItems]
    : [...memoryItems, ...viewItems];
  const current = Math.min(active, Math.max(0, items.length - 1));

  // A new answer or query starts at the top.
  useEffect(() => setActive(0), [input, search.result]);
  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView?.({ block: 'nearest' });
  });

  const open = (item: Item | undefined) => {
    if (!item) return;
    onClose();
    if (item.type === 'memory') navigate(`/memories/${item.hit.id}`);
    else navigate(item.view.path);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const n = items.length;
    if (event.key === 'ArrowDown' && n) {
      event.preventDefault();
      setActive((current + 1) % n);
    } else if (event.key === 'ArrowUp' && n) {
      event.preventDefault();
      setActive((current - 1 + n) % n);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(items[current]);
    }
  };

  const q = input.trim();
  const status = !q
    ? `Type to search the memories of ${store ?? 'this store'}, or the name of a view.`
    : search.status === 'error'
      ? `Search failed: ${search.error?.message ?? 'unknown error'}`
      : search.status === 'loading' && !search.result
        ? 'Searching…'
        : search.result && search.result.results.length === 0
          ? `No memory matches “${search.query}”.`
          : `${hits.length} ${hits.length === 1 ? 'memory' : 'memories'}${search.status === 'loading' ? ', updating…' : ''}`;

  const option = (item: Item, i: number) => (
    <div
      key={item.key}
      id={optionId(i)}
      role="option"
      aria-selected={i === current}
      className="palette-item"
      onMouseMove={() => i !== current && setActive(i)}
      onClick={() => open(item)}
    >
      {item.type === 'memory' ? (
        <>
          <span className="palette-item-main">
            <span className="palette-item-title">
              {item.hit.pinned ? <Icon name="pin" size={12} label="Pinned" /> : null}
              {item.hit.title}
            </span>
            {item.hit.conflicts_with?.length ? (
              <span className="palette-item-conflict">
                <Icon name="conflicts" size={12} />
                {conflictLine(item.hit, hits)}
              </span>
            ) : null}
            <span className="palette-item-sub">{item.hit.why}</span>
          </span>
          <KindBadge kind={item.hit.kind} />
          <span className="palette-score" title="Recall score (0–1)">
            {formatScore(item.hit.score)}
          </span>
        </>
      ) : (
        <>
          <Icon name={item.view.icon} />
          <span className="palette-item-main">
            <span className="palette-item-title">{item.view.label}</span>
            <span className="palette-item-sub">{item.view.description}</span>
          </span>
          <Icon name="arrowRight" className="muted" />
        </>
      )}
    </div>
  );

  return (
    <>
      <div className="palette-search">
        <Icon name="search" />
        <input
          className="palette-input"
          role="combobox"
          aria-label="Search memories and views"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(current) : undefined}
          placeholder="Search memories, or go to a view…"
          autoComplete="off"
          spellCheck={false}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {search.status === 'loading' ? <span className="spinner spinner-sm" aria-hidden /> : null}
      </div>
      <div id={listId} role="listbox" aria-label="Results" className="palette-list">
        {(viewsFirst ? (['views', 'memories'] as const) : (['memories', 'views'] as const)).map(
          (group) => {
            const start =
              group === (viewsFirst ? 'views' : 'memories')
                ? 0
                : items.length - (group === 'views' ? viewItems.length : memoryItems.length);
            const own = group === 'views' ? viewItems : memoryItems;
            if (own.length === 0) return null;
            const label = group === 'views' ? 'Go to' : 'Memories';
            return (
              <div key={group} role="group" aria-label={label}>
                <div className="palette-group" aria-hidden>
                  {label}
                </div>
                {own.map((item, i) => option(item, start + i))}
              </div>
            );
          },
        )}
      </div>
      <p className="palette-status" role="status">
        {status}
      </p>
      <footer className="palette-footer" aria-hidden>
        <span>
          <Kbd keys={['↑']} /> <Kbd keys={['↓']} /> move
        </span>
        <span>
          <Kbd keys={['Enter']} /> open
        </span>
        <span>
          <Kbd keys={['Esc']} /> close
        </span>
      </footer>
    </>
  );
}

export function CommandPalette() {
  const open = useUiStore((s) => s.paletteOpen);
  const setOpen = useUiStore((s) => s.setPaletteOpen);
  return (
    <Dialog
      open={open}
      onClose={() => setOpen(false)}
      title="Search memories and views"
      hideTitle
      className="palette"
    >
      {open ? <PaletteBody onClose={() => setOpen(false)} /> : null}
    </Dialog>
  );
}
