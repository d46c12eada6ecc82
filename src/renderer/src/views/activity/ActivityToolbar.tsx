// Above the feed: one chip per client (calls, errors, p50 duration over the loaded calls;
// a click filters to it) and the filters: client, tool, outcome and free text.
import { useId } from 'react';
import { Button } from '../../components/Button';
import {
  actorLabel,
  formatDuration,
  isFiltered,
  NO_FILTERS,
  type ActivityFilters,
  type ClientSummary,
  type Outcome,
} from './activityModel';

export function ClientChips({
  summaries,
  selected,
  onSelect,
}: {
  summaries: ClientSummary[];
  selected: string;
  onSelect: (actor: string) => void;
}) {
  if (!summaries.length) return null;
  return (
    <ul className="act-clients" aria-label="Clients in the loaded calls">
      {summaries.map((s) => (
        <li key={s.actor}>
          <button
            type="button"
            className="act-client"
            aria-pressed={selected === s.actor}
            onClick={() => onSelect(selected === s.actor ? '' : s.actor)}
            title={`Show only ${actorLabel(s.actor)}'s calls`}
            data-client={s.actor}
          >
            <span className="act-client-name">{actorLabel(s.actor)}</span>
            <span className="act-client-stat num">
              {s.calls} call{s.calls === 1 ? '' : 's'}
            </span>
            <span
              className={s.errors ? 'act-client-stat act-client-err num' : 'act-client-stat num'}
            >
              {s.errors} error{s.errors === 1 ? '' : 's'}
            </span>
            <span className="act-client-stat num">
              p50 {s.p50_ms === null ? '—' : formatDuration(s.p50_ms)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function FilterBar({
  filters,
  onChange,
  actors,
  tools,
  shown,
  total,
}: {
  filters: ActivityFilters;
  onChange: (f: ActivityFilters) => void;
  actors: string[];
  tools: string[];
  shown: number;
  total: number;
}) {
  const id = useId();
  const set = <K extends keyof ActivityFilters>(key: K, value: ActivityFilters[K]) =>
    onChange({ ...filters, [key]: value });
  // A filter set to a client or tool no longer in the list still shows as chosen.
  const actorOptions =
    filters.client && !actors.includes(filters.client) ? [filters.client, ...actors] : actors;
  const toolOptions =
    filters.tool && !tools.includes(filters.tool) ? [filters.tool, ...tools] : tools;
  return (
    <div className="act-filters" role="search" aria-label="Filter calls">
      <label className="act-filter">
        <span>Client</span>
        <select value={filters.client} onChange={(e) => set('client', e.target.value)}>
          <option value="">All clients</option>
          {actorOptions.map((a) => (
            <option key={a} value={a}>
              {actorLabel(a)}
            </option>
          ))}
        </select>
      </label>
      <label className="act-filter">
        <span>Tool</span>
        <select value={filters.tool} onChange={(e) => set('tool', e.target.value)}>
          <option value="">All tools</option>
          {toolOptions.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="act-filter">
        <span>Outcome</span>
        <select value={filters.outcome} onChange={(e) => set('outcome', e.target.value as Outcome)}>
          <option value="all">Any outcome</option>
          <option value="ok">OK</option>
          <option value="error">Errors</option>
        </select>
      </label>
      <label className="act-filter act-filter-text" htmlFor={`${id}-text`}>
        <span>Search</span>
        <input
          id={`${id}-text`}
          className="input"
          type="search"
          placeholder="client, tool, error code, #id"
          value={filters.text}
          onChange={(e) => set('text', e.target.value)}
        />
      </label>
      <p className="act-count muted num">
        {isFiltered(filters)
          ? `${shown} of ${total} calls`
          : `${total} call${total === 1 ? '' : 's'}`}
      </p>
      {isFiltered(filters) ? (
        <Button size="sm" variant="ghost" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
