// What the Atlas's colours, sizes and rings mean. Each colour entry is also a switch:
// a kind shows or hides that kind, a community shows only that community.
import type { MemoryKind } from '../../../../shared/schemas';
import { KIND_HINTS, KINDS } from '../../components/KindBadge';
import { formatCount } from '../../lib/format';
import type { AtlasFilters } from './filters';
import { LINK_STYLES, type AtlasModel, type CommunityInfo, type LinkStyle } from './model';
import { COMMUNITY_COLOURS, type ColourMode } from './style';

export function communityName(c: Pick<CommunityInfo, 'id' | 'label'>): string {
  return c.label ? `#${c.id + 1} ${c.label}` : `Community ${c.id + 1}`;
}

/** One arrow of the key: its line (dotted or not) and head in the type's colour, its count. */
function ArrowKey({
  type,
  count,
  name,
  hint,
  dotted = false,
}: {
  type: 'supersedes' | 'causes';
  count: number;
  name: string;
  hint: string;
  dotted?: boolean;
}) {
  return (
    <li className="atlas-legend-static atlas-legend-link" data-link={type}>
      <svg className="atlas-link-key" width="22" height="10" viewBox="0 0 22 10" aria-hidden>
        <line
          x1="1"
          y1="5"
          x2="15"
          y2="5"
          className={`atlas-link-${type}`}
          strokeWidth="2"
          {...(dotted ? { strokeDasharray: '2 3' } : {})}
        />
        <path d="M14 1.5L21 5l-7 3.5z" className={`atlas-link-${type}-head`} />
      </svg>
      <span className="atlas-legend-name" title={hint}>
        {name}
      </span>
      <span className="num muted">{formatCount(count)}</span>
    </li>
  );
}

/** The other link types: their colour as drawn on the map. */
const STYLE_KEYS: { style: LinkStyle; name: string; hint: string; dash?: string }[] = [
  { style: 'supports', name: 'supports', hint: 'One memory backs another up' },
  { style: 'follows', name: 'follows', hint: 'One step after another' },
  {
    style: 'structure',
    name: 'part of · derived from',
    hint: 'A piece of a whole, or made from another memory',
  },
  { style: 'same_as', name: 'same as', hint: 'The same thing, said twice' },
  { style: 'related', name: 'related', hint: 'Related, without a more exact type' },
];

/** How the typed links (what is true now, causes, the other types) are drawn. */
function LinkKey({ model }: { model: AtlasModel }) {
  const contradicts = model.contradicts.length;
  const supersedes = model.supersedes.length;
  const causes = model.causes.length;
  const counts = model.styleCounts ?? new Uint32Array(LINK_STYLES.length);
  const styled = STYLE_KEYS.filter((k) => k.style !== 'related').some(
    (k) => (counts[LINK_STYLES.indexOf(k.style)] ?? 0) > 0,
  );
  if (!contradicts && !supersedes && !causes && !styled) return null;
  return (
    <>
      <h2 className="atlas-legend-title">Links</h2>
      <ul className="atlas-legend-list" aria-label="Link types">
        {contradicts ? (
          <li className="atlas-legend-static atlas-legend-link" data-link="contradicts">
            <svg className="atlas-link-key" width="22" height="10" viewBox="0 0 22 10" aria-hidden>
              <line
                x1="1"
                y1="5"
                x2="21"
                y2="5"
                className="atlas-link-contradicts"
                strokeWidth="2"
                strokeDasharray="4 3"
              />
            </svg>
            <span className="atlas-legend-name" title="Two memories that say different things">
              contradicts
            </span>
            <span className="num muted">{formatCount(contradicts)}</span>
          </li>
        ) : null}
        {supersedes ? (
          <ArrowKey
            type="supersedes"
            count={supersedes}
            name="supersedes (→ replaced)"
            hint="From the memory that holds now to the one it replaced"
          />
        ) : null}
        {causes ? (
          <ArrowKey
            type="causes"
            count={causes}
            name="causes (→ effect)"
            hint="From the cause to its effect"
            dotted
          />
        ) : null}
        {STYLE_KEYS.map((k) => {
          const count = counts[LINK_STYLES.indexOf(k.style)] ?? 0;
          // `related` is listed once another type is, so the plain stroke is read too.
          if (!count || (k.style === 'related' && !styled)) return null;
          return (
            <li key={k.style} className="atlas-legend-static atlas-legend-link" data-link={k.style}>
              <svg
                className="atlas-link-key"
                width="22"
                height="10"
                viewBox="0 0 22 10"
                aria-hidden
              >
                <line
                  x1="1"
                  y1="5"
                  x2="21"
                  y2="5"
                  className={`atlas-link-style-${k.style}`}
                  strokeWidth="2"
                  {...(k.dash ? { strokeDasharray: k.dash } : {})}
                />
              </svg>
              <span className="atlas-legend-name" title={k.hint}>
                {k.name}
              </span>
              <span className="num muted">{formatCount(count)}</span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

export interface LegendProps {
  model: AtlasModel;
  mode: ColourMode;
  filters: AtlasFilters;
  onFilters(next: AtlasFilters): void;
}

export function Legend({ model, mode, filters, onFilters }: LegendProps) {
  const toggleKind = (kind: MemoryKind) => {
    const on = filters.kinds.includes(kind);
    const kinds = on
      ? filters.kinds.filter((k) => k !== kind)
      : KINDS.filter((k) => k === kind || filters.kinds.includes(k));
    onFilters({ ...filters, kinds });
  };
  const shown = model.communities.filter((c) => c.id < COMMUNITY_COLOURS);
  const named = new Set(shown.map((c) => c.id));
  const others = model.communityCount - named.size;
  return (
    <div className="atlas-legend">
      <h2 className="atlas-legend-title">{mode === 'kind' ? 'Kinds' : 'Communities'}</h2>
      <ul className="atlas-legend-list">
        {mode === 'kind'
          ? KINDS.map((kind) => {
              const on = filters.kinds.includes(kind);
              return (
                <li key={kind}>
                  <button
                    type="button"
                    className={on ? 'atlas-legend-item' : 'atlas-legend-item atlas-legend-off'}
                    aria-pressed={on}
                    title={`${KIND_HINTS[kind]}: ${on ? 'click to hide' : 'click to show'}`}
                    onClick={() => toggleKind(kind)}
                  >
                    <span className={`atlas-swatch kind-swatch-${kind}`} aria-hidden />
                    <span className="atlas-legend-name">{kind}</span>
                    <span className="num muted">{formatCount(model.kindCounts[kind] ?? 0)}</span>
                  </button>
                </li>
              );
            })
          : shown.map((c) => {
              const on = filters.community === c.id;
              return (
                <li key={c.id}>
                  <button
                    type="button"
                    className="atlas-legend-item atlas-legend-community"
                    aria-pressed={on}
                    title={on ? 'Show every community' : 'Show only this community'}
                    onClick={() => onFilters({ ...filters, community: on ? null : c.id })}
                  >
                    <span className={`atlas-swatch community-swatch-${c.id + 1}`} aria-hidden />
                    <span className="atlas-legend-name">{communityName(c)}</span>
                    <span className="num muted">{formatCount(c.size)}</span>
                  </button>
                </li>
              );
            })}
        {mode === 'community' && others > 0 ? (
          <li className="atlas-legend-static">
            <span className="atlas-swatch community-swatch-other" aria-hidden />
            <span className="atlas-legend-name">
              {formatCount(others)} more {others === 1 ? 'community' : 'communities'}
            </span>
          </li>
        ) : null}
      </ul>
      <LinkKey model={model} />
      <p className="atlas-legend-note">
        <span className="atlas-size-key" aria-hidden>
          <span />
          <span />
          <span />
        </span>
        Size: activation · ring: pinned
      </p>
    </div>
  );
}
