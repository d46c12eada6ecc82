// What every Overview chart shares: an SVG sized to its container, named for screen
// readers (role="img" with the key numbers) and backed by a visually hidden table of the
// data; a tooltip for the datum under the pointer or picked with the arrow keys. The
// chart itself only draws its marks and says which datum sits where.
import { useId, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useElementWidth } from './useElementWidth';

export interface ChartTable {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}

export interface ChartFrameProps {
  /** Stable hook for tests: `data-chart`. */
  id: string;
  /** The accessible name: what the chart shows and its key numbers. */
  label: string;
  height: number;
  /** How many data points the arrow keys walk through. */
  count: number;
  /** Where the keyboard starts: the first datum or the last (the most recent day). */
  start?: 'first' | 'last';
  /** The datum at a point of the SVG, or null. */
  indexAt(x: number, y: number, width: number): number | null;
  /** Where a datum's tooltip points (SVG coordinates). */
  anchor(index: number, width: number): { x: number; y: number };
  tooltip(index: number): ReactNode;
  table: ChartTable;
  children(width: number, active: number | null): ReactNode;
}

const KEYS_NEXT = new Set(['ArrowRight', 'ArrowDown']);
const KEYS_PREV = new Set(['ArrowLeft', 'ArrowUp']);

export function ChartFrame({
  id,
  label,
  height,
  count,
  start = 'first',
  indexAt,
  anchor,
  tooltip,
  table,
  children,
}: ChartFrameProps) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const hintId = useId();

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    setActive(indexAt(event.clientX - rect.left, event.clientY - rect.top, width));
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    if (count === 0) return;
    const from = active ?? (start === 'last' ? count : -1);
    let next: number | null = from;
    if (KEYS_NEXT.has(event.key)) next = Math.min(count - 1, from + 1);
    else if (KEYS_PREV.has(event.key)) next = Math.max(0, from - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = count - 1;
    else if (event.key === 'Escape') next = null;
    else return;
    event.preventDefault();
    setActive(next);
  };

  let tip: ReactNode = null;
  if (active !== null && active < count) {
    const at = anchor(active, width);
    // Near an edge the tooltip hangs inwards so that it stays inside the card.
    const side = at.x < width * 0.3 ? 'start' : at.x > width * 0.7 ? 'end' : 'middle';
    tip = (
      <div
        className={`chart-tooltip chart-tooltip-${side}`}
        style={{ left: at.x, top: at.y }}
        aria-hidden
      >
        {tooltip(active)}
      </div>
    );
  }

  return (
    <figure className="chart" data-chart={id}>
      <div ref={ref} className="chart-canvas" style={{ height }}>
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={label}
          aria-describedby={hintId}
          tabIndex={count > 0 ? 0 : undefined}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setActive(null)}
          onFocus={() => setActive((a) => a ?? (start === 'last' ? count - 1 : 0))}
          onBlur={() => setActive(null)}
          onKeyDown={onKeyDown}
        >
          {children(width, active)}
        </svg>
        {tip}
      </div>
      <p id={hintId} className="visually-hidden">
        The table after this chart holds the same data.
      </p>
      <div className="visually-hidden">
        <table>
          <caption>{table.caption}</caption>
          <thead>
            <tr>
              {table.columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) =>
                  j === 0 ? (
                    <th key={j} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={j}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

export interface BottomAxisProps<T> {
  items: readonly T[];
  /** Every how many items a label is drawn, counted from the newest (the last). */
  every: number;
  /** The label's x (its centre) and text for an item. */
  x: (item: T, index: number) => number;
  label: (item: T) => string;
  keyOf: (item: T, index: number) => string | number;
  /** Where the plot ends at the bottom (the baseline) and how far below it labels sit. */
  baseline: number;
  labelOffset: number;
  x0: number;
  x1: number;
}

/** The time axis under a chart: a label every `every` items from the right, and the baseline. */
export function BottomAxis<T>({
  items,
  every,
  x,
  label,
  keyOf,
  baseline,
  labelOffset,
  x0,
  x1,
}: BottomAxisProps<T>) {
  const n = items.length;
  return (
    <>
      {items.map((item, i) =>
        (n - 1 - i) % every === 0 ? (
          <text key={keyOf(item, i)} x={x(item, i)} y={baseline + labelOffset} textAnchor="middle">
            {label(item)}
          </text>
        ) : null,
      )}
      <line className="chart-baseline" x1={x0} x2={x1} y1={baseline} y2={baseline} />
    </>
  );
}
