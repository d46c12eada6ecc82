// The Atlas's filters: which kinds, how many links at least, pinned only, one community.
// Filtering hides memories without moving the others (the layout is unchanged).
import type { MemoryKind } from '../../../../shared/schemas';
import { Button } from '../../components/Button';
import { KINDS } from '../../components/KindBadge';
import { formatCount } from '../../lib/format';
import { activeFilterCount, DEFAULT_FILTERS, type AtlasFilters } from './filters';
import { communityName } from './Legend';
import type { AtlasModel } from './model';

export const MIN_DEGREE_CHOICES = [0, 1, 2, 3, 5, 10] as const;

export interface FiltersPanelProps {
  id: string;
  model: AtlasModel;
  filters: AtlasFilters;
  onFilters(next: AtlasFilters): void;
  /** Memories the filters let through. */
  shown: number;
}

export function FiltersPanel({ id, model, filters, onFilters, shown }: FiltersPanelProps) {
  const setKind = (kind: MemoryKind, on: boolean) =>
    onFilters({
      ...filters,
      kinds: KINDS.filter((k) => (k === kind ? on : filters.kinds.includes(k))),
    });
  const selected = filters.community;
  const listed = model.communities.some((c) => c.id === selected);
  return (
    <div className="atlas-filters" id={id}>
      <fieldset className="atlas-fieldset">
        <legend>Kinds</legend>
        <div className="atlas-checks">
          {KINDS.map((kind) => (
            <label key={kind} className="atlas-check">
              <input
                type="checkbox"
                checked={filters.kinds.includes(kind)}
                onChange={(e) => setKind(kind, e.target.checked)}
              />
              <span className={`atlas-swatch kind-swatch-${kind}`} aria-hidden />
              {kind}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="atlas-field">
        <span>Links at least</span>
        <select
          value={filters.minDegree}
          onChange={(e) => onFilters({ ...filters, minDegree: Number(e.target.value) })}
        >
          {MIN_DEGREE_CHOICES.map((d) => (
            <option key={d} value={d}>
              {d === 0 ? 'Any (show unlinked)' : d === 1 ? '1 (hide unlinked)' : String(d)}
            </option>
          ))}
        </select>
      </label>
      <label className="atlas-field">
        <span>Community</span>
        <select
          value={selected === null ? '' : String(selected)}
          onChange={(e) =>
            onFilters({
              ...filters,
              community: e.target.value === '' ? null : Number(e.target.value),
            })
          }
        >
          <option value="">All ({formatCount(model.communityCount)})</option>
          {model.communities.map((c) => (
            <option key={c.id} value={c.id}>
              {communityName(c)} ({formatCount(c.size)})
            </option>
          ))}
          {selected !== null && !listed ? (
            <option value={selected}>Community {selected + 1}</option>
          ) : null}
        </select>
      </label>
      <label className="atlas-check">
        <input
          type="checkbox"
          checked={filters.pinnedOnly}
          onChange={(e) => onFilters({ ...filters, pinnedOnly: e.target.checked })}
        />
        Pinned only
      </label>
      <p className="atlas-filters-count muted" aria-live="polite">
        {formatCount(shown)} of {formatCount(model.nodes.length)} shown
      </p>
      <Button
        size="sm"
        variant="ghost"
        disabled={activeFilterCount(filters) === 0}
        onClick={() => onFilters(DEFAULT_FILTERS)}
      >
        Reset filters
      </Button>
    </div>
  );
}
