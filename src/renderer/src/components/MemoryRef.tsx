// A memory named for a person: its title (or its first words), the id on hover, a link to
// it. Views that list many references (dream reports, audit rows, conflicts) load their
// names in one call with `useMemoryTitles` and pass them down; a reference whose memory is
// gone (erased, or of another store) says so, with its id.
import { createContext, useContext, useMemo } from 'react';
import type { MemoryTitle } from '../../../shared/api';
import { routeHref } from '../lib/router';
import { useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { SecretText } from './SecretText';

/** Memory ids are ULIDs: such a string names a memory. */
export function isMemoryId(s: string | null | undefined): s is string {
  return typeof s === 'string' && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(s);
}

export interface TitleBook {
  /** Ids asked for and still loading. */
  loading: boolean;
  get(id: string): MemoryTitle | undefined;
}

const EMPTY: TitleBook = { loading: false, get: () => undefined };
const Titles = createContext<TitleBook>(EMPTY);

/** The titles of `ids` (duplicates and non-ids ignored), in one call of at most 500. */
export function useMemoryTitles(ids: readonly string[]): TitleBook {
  const store = useUiStore((s) => s.store);
  const wanted = useMemo(() => [...new Set(ids.filter(isMemoryId))].sort().slice(0, 500), [ids]);
  const q = useEngineQuery(
    'memory.titles',
    { ...(store ? { store } : {}), ids: wanted },
    { enabled: wanted.length > 0 },
  );
  return useMemo(() => {
    const byId = new Map((q.data?.titles ?? []).map((t) => [t.id, t]));
    return { loading: q.loading && wanted.length > 0, get: (id: string) => byId.get(id) };
  }, [q.data, q.loading, wanted.length]);
}

export function TitlesProvider({ book, children }: { book: TitleBook; children: React.ReactNode }) {
  return <Titles.Provider value={book}>{children}</Titles.Provider>;
}

/** How much of a title a reference shows. */
const MAX = 60;

function shorten(title: string): string {
  return title.length > MAX ? `${title.slice(0, MAX - 1).trimEnd()}…` : title;
}

export function MemoryRef({ id, book }: { id: string; book?: TitleBook }) {
  const fromContext = useContext(Titles);
  const titles = book ?? fromContext;
  const t = titles.get(id);
  if (!t) {
    return (
      <span className="memref memref-gone" title={id}>
        {titles.loading ? '…' : <>a memory no longer here </>}
        <code>…{id.slice(-6)}</code>
      </span>
    );
  }
  return (
    <a
      className={t.deleted_at ? 'memref memref-forgotten' : 'memref'}
      href={routeHref(`/memories/${id}`)}
      title={`${t.title}\n${id}${t.deleted_at ? '\n(forgotten)' : ''}`}
    >
      <SecretText text={shorten(t.title)} />
    </a>
  );
}
