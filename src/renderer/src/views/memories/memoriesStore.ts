// The Memories view's own state, kept while the user visits other views: the filters,
// the search text, the keyboard cursor and the multi-selection. Engine data is not here
// (the list's page cache and the detail's queries hold it). Changing what is listed
// clears the selection, so a bulk action never reaches memories no longer on screen.
import { create } from 'zustand';
import { DEFAULT_FILTERS, type Filters, type MemoryRow } from './model';

/** What a bulk action needs to know of a selected memory. */
export type SelectedMemory = Pick<
  MemoryRow,
  'id' | 'title' | 'version' | 'pinned' | 'deleted' | 'tags' | 'quarantined'
>;

export interface MemoriesState {
  filters: Filters;
  setFilters(patch: Partial<Filters>): void;
  resetFilters(): void;

  /** The search box's text; searching (recall) when it is not blank. */
  query: string;
  setQuery(query: string): void;

  /** The row the keyboard is on. */
  cursor: number;
  setCursor(index: number): void;

  /** The rows fully in view (for "select all in view"); set by the list as it scrolls. */
  visible: { first: number; last: number };
  setVisible(first: number, last: number): void;

  selected: ReadonlyMap<string, SelectedMemory>;
  /** Where a shift-click range starts: the last row toggled. */
  anchor: number | null;
  toggle(row: MemoryRow, index: number): void;
  /** Selects (or deselects) these rows; the anchor moves to `anchor` when given. */
  setSelected(rows: readonly MemoryRow[], on: boolean, anchor?: number): void;
  /** Keeps the selection's copies current after the rows were fetched again. */
  refreshSelected(rows: readonly MemoryRow[]): void;
  /** Drops these ids from the selection (after they were erased). */
  unselect(ids: readonly string[]): void;
  clearSelection(): void;

  /** Back to the first visit's state (another store, or a test). */
  reset(): void;
}

const pick = (row: MemoryRow): SelectedMemory => ({
  id: row.id,
  title: row.title,
  version: row.version,
  pinned: row.pinned,
  deleted: row.deleted,
  tags: row.tags,
  quarantined: row.quarantined,
});

const EMPTY = new Map<string, SelectedMemory>();

export const useMemoriesStore = create<MemoriesState>()((set, get) => ({
  filters: DEFAULT_FILTERS,
  setFilters(patch) {
    set({ filters: { ...get().filters, ...patch }, cursor: 0, selected: EMPTY, anchor: null });
  },
  resetFilters() {
    set({ filters: DEFAULT_FILTERS, cursor: 0, selected: EMPTY, anchor: null });
  },

  query: '',
  setQuery(query) {
    if (query === get().query) return;
    const wasSearch = get().query.trim() !== '';
    const isSearch = query.trim() !== '';
    set({ query });
    if (wasSearch || isSearch) set({ cursor: 0, selected: EMPTY, anchor: null });
  },

  cursor: 0,
  setCursor(index) {
    set({ cursor: Math.max(0, index) });
  },

  visible: { first: 0, last: -1 },
  setVisible(first, last) {
    const v = get().visible;
    if (v.first !== first || v.last !== last) set({ visible: { first, last } });
  },

  selected: EMPTY,
  anchor: null,
  toggle(row, index) {
    const next = new Map(get().selected);
    if (next.has(row.id)) next.delete(row.id);
    else next.set(row.id, pick(row));
    set({ selected: next, anchor: index });
  },
  setSelected(rows, on, anchor) {
    const next = new Map(get().selected);
    for (const row of rows) {
      if (on) next.set(row.id, pick(row));
      else next.delete(row.id);
    }
    set({ selected: next, ...(anchor !== undefined ? { anchor } : {}) });
  },
  refreshSelected(rows) {
    const current = get().selected;
    if (current.size === 0) return;
    let next: Map<string, SelectedMemory> | null = null;
    for (const row of rows) {
      const had = current.get(row.id);
      if (!had) continue;
      const fresh = pick(row);
      if (
        had.version === fresh.version &&
        had.pinned === fresh.pinned &&
        had.deleted === fresh.deleted &&
        had.title === fresh.title
      )
        continue;
      next ??= new Map(current);
      next.set(row.id, fresh);
    }
    if (next) set({ selected: next });
  },
  unselect(ids) {
    const current = get().selected;
    if (!ids.some((id) => current.has(id))) return;
    const next = new Map(current);
    for (const id of ids) next.delete(id);
    set({ selected: next });
  },
  clearSelection() {
    set({ selected: EMPTY, anchor: null });
  },

  reset() {
    set({
      filters: DEFAULT_FILTERS,
      query: '',
      cursor: 0,
      visible: { first: 0, last: -1 },
      selected: EMPTY,
      anchor: null,
    });
  },
}));
