// The Atlas once its data is here: the search that highlights, the colour mode, filters,
// the legend, the canvas and the list of the most active memories. Owns the view's
// choices; the drawing itself is AtlasCanvas's.
import { useCallback, useDeferredValue, useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { AtlasResult } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { formatCount } from '../../lib/format';
import { useUiStore } from '../../stores/uiStore';
import { AtlasCanvas, type FitRequest } from './AtlasCanvas';
import {
  activeFilterCount,
  countMask,
  DEFAULT_FILTERS,
  searchHighlight,
  visibleMask,
  type AtlasFilters,
} from './filters';
import { FiltersPanel } from './FiltersPanel';
import { Legend } from './Legend';
import { buildModel, otherEnd, type AtlasModel } from './model';
import type { HostFactory } from './stage';
import type { ColourMode } from './style';
import { NodePanel } from './NodePanel';
import { ThoughtPanel } from './ThoughtPanel';
import { TopList } from './TopList';
import { useRecallIds } from './useRecallIds';

const COLOUR_KEY = 'loci.atlas.colour';
const STATS_KEY = 'loci.atlas.fps';

function loadPref(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function savePref(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // The choice then lasts for this page only.
  }
}

/** The canvas's accessible name: what the picture shows, in a sentence or three. */
export function summarise(
  model: AtlasModel,
  mode: ColourMode,
  shown: number,
  matches: number | null,
): string {
  const biggest = model.bySize.length
    ? Array.from(model.bySize.slice(0, 3), (i) => model.nodes[i]?.title).filter(Boolean)
    : [];
  const parts = [
    `Map of ${formatCount(model.nodes.length)} memories and ${formatCount(model.linkWeights.length)} links in ${formatCount(model.communityCount)} communities, coloured by ${mode}, sized by activation.`,
    shown < model.nodes.length ? `${formatCount(shown)} shown with the current filters.` : '',
    matches !== null ? `${formatCount(matches)} highlighted by the search.` : '',
    biggest.length ? `Most active: ${biggest.join('; ')}.` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

export interface AtlasExplorerProps {
  result: AtlasResult;
  initialQuery?: string;
  hostFactory?: HostFactory;
}

export function AtlasExplorer({ result, initialQuery = '', hostFactory }: AtlasExplorerProps) {
  const ids = useId();
  const store = useUiStore((s) => s.store);
  const model = useMemo(() => buildModel(result), [result]);
  const [mode, setMode] = useState<ColourMode>(() =>
    loadPref(COLOUR_KEY) === 'community' ? 'community' : 'kind',
  );
  const [filters, setFilters] = useState<AtlasFilters>(DEFAULT_FILTERS);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const [showStats, setShowStats] = useState(() => loadPref(STATS_KEY) === 'on');
  const [query, setQuery] = useState(initialQuery);
  const [byMeaning, setByMeaning] = useState(false);
  const [fit, setFit] = useState<FitRequest>({ seq: 0, mask: null });
  // The memory clicked: its panel beside the map (the map stays as it is).
  const [selected, setSelected] = useState<string | null>(null);
  // Thought mode: a recall replayed on the map, step by step.
  const [thinking, setThinking] = useState(false);
  const [thought, setThought] = useState<Uint8Array | null>(null);
  const showThought = useCallback((mask: Uint8Array | null) => {
    setThought(mask);
    if (mask && mask.some((v) => v === 1)) setFit((f) => ({ seq: f.seq + 1, mask }));
  }, []);

  const deferredQuery = useDeferredValue(query);
  const recall = useRecallIds(store, deferredQuery, byMeaning);
  const visible = useMemo(() => visibleMask(model, filters), [model, filters]);
  const shown = useMemo(() => countMask(visible), [visible]);
  const search = useMemo(
    () => searchHighlight(model, deferredQuery, recall.ids),
    [model, deferredQuery, recall.ids],
  );
  // Without a search, the clicked memory and its neighbours stand out.
  const focus = useMemo(() => {
    if (!selected) return null;
    const mask = new Uint8Array(model.nodes.length);
    const i = model.indexOf.get(selected);
    if (i === undefined) return null;
    mask[i] = 1;
    // Its neighbours from the model's adjacency (every link, under both of its ends).
    for (let k = model.adjOffsets[i]!; k < model.adjOffsets[i + 1]!; k++)
      mask[otherEnd(model, model.adjacency[k]!, i)] = 1;
    return mask;
  }, [model, selected]);
  const highlight = (thinking ? thought : null) ?? search?.mask ?? focus;
  const filterCount = activeFilterCount(filters);

  const chooseMode = (next: ColourMode) => {
    setMode(next);
    savePref(COLOUR_KEY, next);
  };
  const toggleStats = () => {
    setShowStats((on) => {
      savePref(STATS_KEY, on ? 'off' : 'on');
      return !on;
    });
  };
  const fitTo = (mask: Uint8Array | null) => setFit((f) => ({ seq: f.seq + 1, mask }));

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (search && search.count > 0) fitTo(search.mask);
    } else if (event.key === 'Escape' && query) {
      event.preventDefault();
      setQuery('');
    }
  };

  const q = deferredQuery.trim();
  const searchStatus = !q
    ? ''
    : search && search.count > 0
      ? `${formatCount(search.count)} ${search.count === 1 ? 'match' : 'matches'}${
          search.byRecall > 0 ? ` (${formatCount(search.byRecall)} by meaning)` : ''
        } · Enter zooms to them`
      : byMeaning && recall.pending
        ? 'Asking recall…'
        : `No memory matches “${q}”`;

  return (
    <div className="atlas-explorer">
      <div className="atlas-toolbar">
        <div className="atlas-search" role="search">
          <Icon name="search" />
          <input
            className="input atlas-search-input"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onSearchKey}
            placeholder="Highlight by title or tag…"
            aria-label="Highlight memories by title or tag"
            aria-describedby={`${ids}-search-status`}
          />
          <label className="atlas-check" title="Also highlight what recall returns for this query">
            <input
              type="checkbox"
              checked={byMeaning}
              onChange={(e) => setByMeaning(e.target.checked)}
            />
            By meaning
          </label>
        </div>
        <fieldset className="atlas-segmented">
          <legend className="visually-hidden">Colour by</legend>
          <span className="atlas-segmented-label" aria-hidden>
            Colour
          </span>
          {(['kind', 'community'] as const).map((m) => (
            <label key={m} className="atlas-segment">
              <input
                type="radio"
                name={`${ids}-colour`}
                value={m}
                checked={mode === m}
                onChange={() => chooseMode(m)}
              />
              <span>{m === 'kind' ? 'Kind' : 'Community'}</span>
            </label>
          ))}
        </fieldset>
        <div className="atlas-toolbar-end">
          <Button
            size="sm"
            variant={filtersOpen ? 'secondary' : 'ghost'}
            aria-expanded={filtersOpen}
            aria-controls={`${ids}-filters`}
            onClick={() => setFiltersOpen((o) => !o)}
          >
            Filters{filterCount > 0 ? ` (${filterCount})` : ''}
          </Button>
          <Button
            size="sm"
            variant={listOpen ? 'secondary' : 'ghost'}
            icon="memories"
            aria-expanded={listOpen}
            aria-controls={`${ids}-list`}
            onClick={() => setListOpen((o) => !o)}
          >
            List
          </Button>
          <Button size="sm" variant="ghost" onClick={() => fitTo(null)} title="Show everything (0)">
            Show all
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon="recall"
            aria-pressed={thinking}
            onClick={() => {
              setThinking((on) => !on);
              setThought(null);
            }}
            title="Replay a recall on the map: seeds, each hop of spreading activation, the answer"
          >
            Thought
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-pressed={showStats}
            onClick={toggleStats}
            title="Frames per second and layout figures"
          >
            FPS
          </Button>
        </div>
      </div>
      <p id={`${ids}-search-status`} className="atlas-search-status" aria-live="polite">
        {searchStatus}
        {byMeaning && recall.error ? ` · recall failed: ${recall.error.message}` : ''}
      </p>
      {filtersOpen ? (
        <FiltersPanel
          id={`${ids}-filters`}
          model={model}
          filters={filters}
          onFilters={setFilters}
          shown={shown}
        />
      ) : null}
      <div className="atlas-body">
        <div className="atlas-stage">
          <AtlasCanvas
            model={model}
            visible={visible}
            highlight={highlight}
            colourMode={mode}
            fit={fit}
            label={summarise(model, mode, shown, search ? search.count : null)}
            describedBy={`${ids}-help`}
            showStats={showStats}
            onOpen={(id) => setSelected(id)}
            {...(hostFactory ? { hostFactory } : {})}
          >
            <Legend model={model} mode={mode} filters={filters} onFilters={setFilters} />
          </AtlasCanvas>
          <p id={`${ids}-help`} className="atlas-help">
            Drag to pan, scroll or <kbd>+</kbd> <kbd>−</kbd> to zoom, arrow keys to pan,{' '}
            <kbd>0</kbd> to fit. Click a memory to see it, its neighbours and its history beside the
            map. The List button lists the most active memories as links.
          </p>
        </div>
        {thinking ? (
          <ThoughtPanel
            model={model}
            onShow={showThought}
            onClose={() => {
              setThinking(false);
              setThought(null);
            }}
          />
        ) : selected ? (
          <NodePanel
            model={model}
            links={result.links}
            id={selected}
            onSelect={setSelected}
            onClose={() => setSelected(null)}
          />
        ) : null}
        {listOpen ? (
          <TopList id={`${ids}-list`} model={model} visible={visible} highlight={highlight} />
        ) : null}
      </div>
    </div>
  );
}
