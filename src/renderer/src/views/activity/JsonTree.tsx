// A JSON value as a collapsible tree: objects and arrays are native <details> (keyboard
// and screen-reader friendly), open to `depth` levels; strings keep their whitespace.
// "Expand all" / "Collapse all" re-mount the tree at another depth.
import { useState, type ReactNode } from 'react';
// Its Expand/Collapse links share the result cards' link-button style.
import '../recall/hits.css';

const MAX_CHILDREN = 200;

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === 'string') return <span className="json-string">“{value}”</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  return <span className="json-null">{String(value)}</span>;
}

function Node({
  name,
  value,
  level,
  depth,
}: {
  name: ReactNode;
  value: unknown;
  level: number;
  depth: number;
}) {
  const isArray = Array.isArray(value);
  if (value === null || typeof value !== 'object') {
    return (
      <li className="json-leaf">
        {name !== null ? <span className="json-key">{name}: </span> : null}
        <Scalar value={value} />
      </li>
    );
  }
  const entries: [string, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [String(i), v])
    : Object.entries(value as Record<string, unknown>);
  const summary = isArray ? `[${entries.length}]` : `{${entries.length}}`;
  if (entries.length === 0) {
    return (
      <li className="json-leaf">
        {name !== null ? <span className="json-key">{name}: </span> : null}
        <span className="json-null">{isArray ? '[]' : '{}'}</span>
      </li>
    );
  }
  return (
    <li className="json-branch">
      <details open={level < depth}>
        <summary>
          {name !== null ? <span className="json-key">{name}</span> : null}
          <span className="json-count">{summary}</span>
        </summary>
        <ul className="json-children">
          {entries.slice(0, MAX_CHILDREN).map(([k, v]) => (
            <Node
              key={k}
              name={isArray ? <span className="json-index">{k}</span> : k}
              value={v}
              level={level + 1}
              depth={depth}
            />
          ))}
          {entries.length > MAX_CHILDREN ? (
            <li className="json-leaf json-null">… {entries.length - MAX_CHILDREN} more</li>
          ) : null}
        </ul>
      </details>
    </li>
  );
}

export function JsonTree({
  value,
  label,
  depth: initialDepth = 2,
}: {
  value: unknown;
  /** The tree's accessible name. */
  label: string;
  depth?: number;
}) {
  const [depth, setDepth] = useState(initialDepth);
  const [generation, setGeneration] = useState(0);
  const expandable = value !== null && typeof value === 'object';
  const set = (d: number) => {
    setDepth(d);
    setGeneration((g) => g + 1);
  };
  return (
    <div className="json">
      {expandable ? (
        <div className="json-tools">
          <button type="button" className="rl-link-btn" onClick={() => set(99)}>
            Expand all
          </button>
          <button type="button" className="rl-link-btn" onClick={() => set(1)}>
            Collapse all
          </button>
        </div>
      ) : null}
      <ul key={generation} className="json-root" aria-label={label}>
        <Node name={null} value={value} level={0} depth={depth} />
      </ul>
    </div>
  );
}
