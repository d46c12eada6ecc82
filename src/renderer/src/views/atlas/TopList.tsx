// The Atlas as a table, for keyboard and screen-reader users (and anyone who wants the
// names): the most active memories among those drawn, or the search's matches, each a
// link to open it.
import { KindBadge } from '../../components/KindBadge';
import { formatCount } from '../../lib/format';
import { routeHref } from '../../lib/router';
import { formatActivation } from './HoverCard';
import type { AtlasModel } from './model';

export const LIST_LIMIT = 100;

/** Indices of the nodes to list: drawn (and matching, when searching), most active first. */
export function topNodes(
  model: AtlasModel,
  visible: Uint8Array,
  highlight: Uint8Array | null,
  limit = LIST_LIMIT,
): number[] {
  const picked: number[] = [];
  for (let i = 0; i < model.nodes.length; i++) {
    if (!visible[i] || (highlight && !highlight[i])) continue;
    picked.push(i);
  }
  const act = (i: number) => model.nodes[i]!.activation ?? -Infinity;
  picked.sort(
    (a, b) => act(b) - act(a) || model.nodes[b]!.degree - model.nodes[a]!.degree || a - b,
  );
  return picked.slice(0, limit);
}

export function TopList({
  id,
  model,
  visible,
  highlight,
}: {
  id: string;
  model: AtlasModel;
  visible: Uint8Array;
  highlight: Uint8Array | null;
}) {
  const rows = topNodes(model, visible, highlight);
  const title = highlight ? 'Matches, most active first' : 'Most active memories';
  return (
    <aside className="atlas-list" id={id} aria-labelledby={`${id}-title`}>
      <h2 className="atlas-list-title" id={`${id}-title`}>
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="muted">Nothing to list: no memory is shown with these filters.</p>
      ) : (
        <table className="atlas-table">
          <thead>
            <tr>
              <th scope="col">Memory</th>
              <th scope="col">Kind</th>
              <th scope="col" className="num">
                Links
              </th>
              <th scope="col" className="num">
                Activation
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => {
              const node = model.nodes[i]!;
              return (
                <tr key={node.id}>
                  <td>
                    <a href={routeHref(`/memories/${node.id}`)}>
                      {node.title || 'Untitled memory'}
                    </a>
                  </td>
                  <td>
                    <KindBadge kind={node.kind} />
                  </td>
                  <td className="num">{formatCount(node.degree)}</td>
                  <td className="num">{formatActivation(node.activation)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </aside>
  );
}
