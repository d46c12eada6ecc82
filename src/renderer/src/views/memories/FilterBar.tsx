// The search box and the filters above the list: kinds, tags, source, trust, pinned,
// forgotten, at risk, the conversation ones (speaker, session, when it happened — shown
// once the store holds conversations), and the order. Every control is labelled; a change applies at once
// (the list keeps its old rows on screen until the new ones arrive).
import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Kbd } from '../../components/Kbd';
import { KIND_HINTS, KINDS } from '../../components/KindBadge';
import { formatCount } from '../../lib/format';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { useElementWidth } from '../overview/useElementWidth';
import { useMemoriesStore } from './memoriesStore';
import {
  activeFilterCount,
  describeSource,
  QUERY_MAX_CHARS,
  SOURCE_PRESETS,
  TAG_MAX_CHARS,
  type AsOfFilter,
  type DeletedFilter,
  type PinnedFilter,
  type SortOrder,
  type TrustFilter,
} from './model';

export const SEARCH_INPUT_ID = 'memories-search';

/** Sources, speakers and sessions seen in this store, for the filters (most memories first). */
function useFacets(store: string | null) {
  const q = useEngineQuery(
    'stats.overview',
    { ...(store ? { store } : {}), days: 1 },
    {
      refreshOn: ['memory.changed'],
      throttleMs: 5_000,
    },
  );
  return {
    sources: q.data?.by_source ?? [],
    speakers: q.data?.by_speaker ?? [],
    sessions: q.data?.sessions ?? [],
  };
}

const shortDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** Speaker, session and when it happened: for stores that hold conversations. */
function ConversationFilters({
  speakers,
  sessions,
}: {
  speakers: { speaker: string; count: number }[];
  sessions: { session: string; count: number; first: string; last: string }[];
}) {
  const filters = useMemoriesStore((s) => s.filters);
  const setFilters = useMemoriesStore((s) => s.setFilters);
  const speakerChoices =
    speakers.some((s) => s.speaker === filters.speaker) || !filters.speaker
      ? speakers
      : [{ speaker: filters.speaker, count: 0 }, ...speakers];
  const sessionChoices =
    sessions.some((s) => s.session === filters.session) || !filters.session
      ? sessions
      : [{ session: filters.session, count: 0, first: '', last: '' }, ...sessions];
  const badRange = Boolean(filters.after && filters.before && filters.after > filters.before);
  return (
    <div className="mem-filters-row mem-filters-wrap" role="group" aria-label="Conversations">
      <label className="mem-field">
        <span className="mem-field-label">Speaker</span>
        <select value={filters.speaker} onChange={(e) => setFilters({ speaker: e.target.value })}>
          <option value="">Anyone</option>
          {speakerChoices.map((s) => (
            <option key={s.speaker} value={s.speaker}>
              {s.speaker}
              {s.count ? ` · ${formatCount(s.count)}` : ''}
            </option>
          ))}
        </select>
      </label>
      <label className="mem-field">
        <span className="mem-field-label">Session</span>
        <select
          value={filters.session}
          onChange={(e) =>
            // A session reads best in the order it was said.
            setFilters(
              e.target.value ? { session: e.target.value, sort: 'occurred-asc' } : { session: '' },
            )
          }
        >
          <option value="">Any</option>
          {sessionChoices.map((s) => (
            <option key={s.session} value={s.session}>
              {s.session}
              {s.count ? ` · ${formatCount(s.count)} turns` : ''}
              {s.last ? ` · ${shortDay(s.last)}` : ''}
            </option>
          ))}
        </select>
      </label>
      <label className="mem-field">
        <span className="mem-field-label">Happened from</span>
        <input
          type="date"
          className="input"
          value={filters.after}
          aria-invalid={badRange || undefined}
          onChange={(e) => setFilters({ after: e.target.value })}
        />
      </label>
      <label className="mem-field">
        <span className="mem-field-label">to</span>
        <input
          type="date"
          className="input"
          value={filters.before}
          aria-invalid={badRange || undefined}
          onChange={(e) => setFilters({ before: e.target.value })}
        />
      </label>
      {badRange ? (
        <span className="mem-field-error" role="alert">
          The start is after the end: the dates are not applied.
        </span>
      ) : null}
    </div>
  );
}

function TagFilter() {
  const tags = useMemoriesStore((s) => s.filters.tags);
  const setFilters = useMemoriesStore((s) => s.setFilters);
  const [draft, setDraft] = useState('');
  const add = () => {
    const tag = draft.trim().replace(/,/g, '');
    if (!tag) return;
    if (!tags.includes(tag)) setFilters({ tags: [...tags, tag] });
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && !draft && tags.length) {
      setFilters({ tags: tags.slice(0, -1) });
    }
  };
  return (
    <div className="mem-tagfilter" role="group" aria-label="Tags">
      {tags.map((t) => (
        <span key={t} className="mem-tag mem-tag-chip">
          {t}
          <button
            type="button"
            className="mem-chip-x"
            aria-label={`Remove the tag filter “${t}”`}
            onClick={() => setFilters({ tags: tags.filter((x) => x !== t) })}
          >
            <Icon name="close" size={11} />
          </button>
        </span>
      ))}
      <input
        className="input mem-tagfilter-input"
        aria-label="Filter by tag (Enter to add; all must match)"
        placeholder={tags.length ? 'and tag…' : 'Tag…'}
        value={draft}
        maxLength={TAG_MAX_CHARS}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
      />
    </div>
  );
}

const AS_OF_CHOICES: readonly (readonly [AsOfFilter, string, string])[] = [
  ['all', 'All memories', 'Every memory, also those replaced or no longer valid'],
  ['now', 'True now', 'Only what holds now: not superseded, within its validity'],
  ['date', 'As of…', 'What held at the end of a day'],
];

/** Every memory, only what holds now, or what held on a day (memory.list's `as_of`). */
function HoldsFilter() {
  const asOf = useMemoriesStore((s) => s.filters.asOf);
  const asOfDate = useMemoriesStore((s) => s.filters.asOfDate);
  const setFilters = useMemoriesStore((s) => s.setFilters);
  const today = new Date();
  const max = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return (
    <div className="mem-holds-filter" role="group" aria-label="Which memories">
      <span className="segmented">
        {AS_OF_CHOICES.map(([value, label, hint]) => (
          <button
            key={value}
            type="button"
            aria-pressed={asOf === value}
            title={hint}
            onClick={() =>
              setFilters(
                value === 'date' && !asOfDate ? { asOf: value, asOfDate: max } : { asOf: value },
              )
            }
          >
            {label}
          </button>
        ))}
      </span>
      {asOf === 'date' ? (
        <input
          type="date"
          className="input mem-asof-date"
          aria-label="As of the end of this day"
          value={asOfDate}
          max={max}
          onChange={(e) => setFilters({ asOfDate: e.target.value })}
        />
      ) : null}
    </div>
  );
}

const TRUST_CHOICES: readonly (readonly [TrustFilter, string])[] = [
  ['any', 'Any'],
  ['trusted', 'Trusted'],
  ['quarantined', 'Quarantined'],
];
const PINNED_CHOICES: readonly (readonly [PinnedFilter, string])[] = [
  ['any', 'Any'],
  ['pinned', 'Pinned'],
  ['unpinned', 'Not pinned'],
];
const DELETED_CHOICES: readonly (readonly [DeletedFilter, string])[] = [
  ['exclude', 'Hidden'],
  ['include', 'Included'],
  ['only', 'Only'],
];

/** A labelled select over a fixed set of choices. */
function ChoiceField<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange(value: T): void;
}) {
  return (
    <label className="mem-field">
      <span className="mem-field-label">{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Narrower than this, the filters fold behind a "Filters" button: the list keeps the room. */
const FOLD_BELOW_PX = 900;

export function FilterBar({ total }: { total: number | null }) {
  const [box, width] = useElementWidth<HTMLDivElement>(1200);
  const [unfolded, setUnfolded] = useState(false);
  const folded = width < FOLD_BELOW_PX;
  const store = useUiStore((s) => s.store);
  const filters = useMemoriesStore((s) => s.filters);
  const setFilters = useMemoriesStore((s) => s.setFilters);
  const resetFilters = useMemoriesStore((s) => s.resetFilters);
  const query = useMemoriesStore((s) => s.query);
  const setQuery = useMemoriesStore((s) => s.setQuery);
  const { sources, speakers, sessions } = useFacets(store);
  const conversations =
    speakers.length > 0 ||
    sessions.length > 0 ||
    Boolean(filters.speaker || filters.session || filters.after || filters.before);
  const ids = useId();
  const active = activeFilterCount(filters);
  const searching = query.trim() !== '';

  const toggleKind = (kind: (typeof KINDS)[number]) =>
    setFilters({
      kinds: filters.kinds.includes(kind)
        ? filters.kinds.filter((k) => k !== kind)
        : [...filters.kinds, kind],
    });

  const presetValues = new Set(SOURCE_PRESETS.map((p) => p.value));
  const seen = sources.filter((s) => !presetValues.has(s.source));
  if (
    filters.source &&
    !presetValues.has(filters.source) &&
    !seen.some((s) => s.source === filters.source)
  )
    seen.unshift({ source: filters.source, count: 0 });

  const totalText =
    total !== null ? (
      <span className="mem-total" aria-live="polite" data-testid="memories-total">
        {formatCount(total)} {total === 1 ? 'memory' : 'memories'}
        {searching ? ' found' : ''}
      </span>
    ) : null;
  const clear =
    active > 0 ? (
      <Button size="sm" variant="ghost" icon="close" onClick={resetFilters}>
        Clear {active === 1 ? 'filter' : `${active} filters`}
      </Button>
    ) : null;
  const fold = folded ? (
    <Button
      size="sm"
      icon="tag"
      aria-expanded={unfolded}
      aria-controls={`${ids}-more`}
      onClick={() => setUnfolded((u) => !u)}
    >
      {unfolded ? 'Fewer filters' : `Filters${active ? ` (${active})` : ''}`}
    </Button>
  ) : null;
  const showAll = !folded || unfolded;

  return (
    <div className={folded ? 'mem-filters is-folded' : 'mem-filters'} ref={box}>
      <div className="mem-filters-row mem-filters-wrap">
        <div className="mem-search">
          <Icon name="search" />
          <input
            id={SEARCH_INPUT_ID}
            type="search"
            className="mem-search-input"
            aria-label="Search memories"
            placeholder="Search memories by meaning or words…"
            autoComplete="off"
            spellCheck={false}
            maxLength={QUERY_MAX_CHARS}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.preventDefault();
                e.stopPropagation();
                setQuery('');
              }
            }}
          />
          {!query ? <Kbd keys={['/']} /> : null}
        </div>
        {fold}
        {folded && !unfolded ? (
          <span className="mem-filters-end">
            {totalText}
            {clear}
          </span>
        ) : null}
        {showAll ? <HoldsFilter /> : null}
        {showAll ? (
          <label className="mem-field">
            <span className="mem-field-label">Order</span>
            <select
              value={filters.sort}
              disabled={searching}
              title={searching ? 'Search results are ranked by relevance' : undefined}
              onChange={(e) => setFilters({ sort: e.target.value as SortOrder })}
            >
              <option value="created-desc">Newest first</option>
              <option value="created-asc">Oldest first</option>
              <option value="updated-desc">Recently changed</option>
              <option value="occurred-desc">Happened, latest first</option>
              <option value="occurred-asc">Happened, in order</option>
            </select>
          </label>
        ) : null}
      </div>

      {showAll ? (
        <div id={`${ids}-more`} className="mem-filters-more">
          <div className="mem-filters-row mem-filters-wrap">
            <div className="mem-kinds" role="group" aria-label="Kinds">
              {KINDS.map((kind) => (
                <button
                  key={kind}
                  type="button"
                  className={`mem-kind-toggle kind-${kind}`}
                  aria-pressed={filters.kinds.includes(kind)}
                  title={KIND_HINTS[kind]}
                  onClick={() => toggleKind(kind)}
                >
                  <span className="kind-dot" aria-hidden />
                  {kind}
                </button>
              ))}
            </div>
            <TagFilter />
          </div>

          {conversations ? <ConversationFilters speakers={speakers} sessions={sessions} /> : null}

          <div className="mem-filters-row mem-filters-wrap">
            <label className="mem-field">
              <span className="mem-field-label">Source</span>
              <select
                value={filters.source}
                onChange={(e) => setFilters({ source: e.target.value })}
              >
                {SOURCE_PRESETS.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
                {seen.length ? (
                  <optgroup label="Seen in this store">
                    {seen.map((s) => (
                      <option key={s.source} value={s.source}>
                        {describeSource(s.source)}
                        {s.count ? ` · ${formatCount(s.count)}` : ''}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </select>
            </label>
            <ChoiceField
              label="Trust"
              value={filters.trust}
              options={TRUST_CHOICES}
              onChange={(trust) => setFilters({ trust })}
            />
            <ChoiceField
              label="Pinned"
              value={filters.pinned}
              options={PINNED_CHOICES}
              onChange={(pinned) => setFilters({ pinned })}
            />
            <ChoiceField
              label="Forgotten"
              value={filters.deleted}
              options={DELETED_CHOICES}
              onChange={(deleted) => setFilters({ deleted })}
            />
            <label className="mem-check" htmlFor={`${ids}-risk`}>
              <input
                id={`${ids}-risk`}
                type="checkbox"
                checked={filters.atRisk}
                onChange={(e) => setFilters({ atRisk: e.target.checked })}
              />
              At risk of fading
            </label>
            <span className="mem-filters-end">
              {totalText}
              {clear}
            </span>
          </div>
        </div>
      ) : null}
    </div>
  );
}
