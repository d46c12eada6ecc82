// Horizontal bars, one row per item, longest first as given: where memories come from,
// and how many calls each connected client has made. Labels sit left of the bars and the
// value at the end of each; long labels are shortened on screen (the tooltip and the
// table have them whole).
import { scaleLinear } from 'd3-scale';
import type { ReactNode } from 'react';
import { formatCount } from '../../lib/format';
import { ChartFrame } from './ChartFrame';

export interface HBarRow {
  key: string;
  label: string;
  value: number;
  /** More for the tooltip, e.g. "since 3 min ago". */
  detail?: ReactNode;
}

export interface HBarChartProps {
  id: string;
  label: string;
  rows: HBarRow[];
  /** What a value counts, for the tooltip and the table: "memories", "calls". */
  unit: string;
  caption: string;
  /** Extra table columns, one value per row (e.g. the transport, when connected). */
  extra?: { columns: string[]; values: (row: HBarRow) => (string | number)[] };
  /** Colour of the bars: a class of charts.css. */
  tone?: 'accent' | 'ok';
}

const ROW = 28;
const PAD = 6;

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

export function HBarChart({
  id,
  label,
  rows,
  unit,
  caption,
  extra,
  tone = 'accent',
}: HBarChartProps) {
  const height = rows.length * ROW + PAD * 2;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const layout = (width: number) => {
    const labelWidth = Math.min(150, Math.max(70, Math.round(width * 0.34)));
    const valueWidth = 44;
    const x = scaleLinear()
      .domain([0, max])
      .range([0, Math.max(10, width - labelWidth - valueWidth - 8)]);
    // About 6.5 px a character at the axis font size.
    const chars = Math.max(4, Math.floor((labelWidth - 10) / 6.5));
    return { labelWidth, x, chars };
  };
  const rowAt = (py: number) => {
    const i = Math.floor((py - PAD) / ROW);
    return i >= 0 && i < rows.length ? i : null;
  };

  return (
    <ChartFrame
      id={id}
      label={label}
      height={height}
      count={rows.length}
      indexAt={(_x, y) => rowAt(y)}
      anchor={(i, width) => {
        const { labelWidth, x } = layout(width);
        return { x: labelWidth + x(rows[i]?.value ?? 0) / 2 + 4, y: PAD + i * ROW + 2 };
      }}
      tooltip={(i) => {
        const r = rows[i];
        if (!r) return null;
        return (
          <>
            <strong>{r.label}</strong>
            <span>
              {formatCount(r.value)} {unit}
            </span>
            {r.detail ? <span className="muted">{r.detail}</span> : null}
          </>
        );
      }}
      table={{
        caption,
        columns: ['Name', unit.charAt(0).toUpperCase() + unit.slice(1), ...(extra?.columns ?? [])],
        rows: rows.map((r) => [r.label, r.value, ...(extra?.values(r) ?? [])]),
      }}
    >
      {(width, active) => {
        const { labelWidth, x, chars } = layout(width);
        return rows.map((r, i) => {
          const top = PAD + i * ROW;
          const w = Math.max(2, x(r.value));
          return (
            <g key={r.key} className={i === active ? 'chart-row is-active' : 'chart-row'}>
              <rect className="chart-row-hit" x={0} y={top} width={width} height={ROW} />
              <text className="chart-label" x={0} y={top + ROW / 2} dy="0.32em">
                {shorten(r.label, chars)}
              </text>
              <rect
                className={`chart-bar chart-bar-${tone}${i === active ? ' is-active' : ''}`}
                x={labelWidth}
                y={top + 6}
                width={w}
                height={ROW - 12}
                rx={3}
              />
              <text className="chart-value" x={labelWidth + w + 6} y={top + ROW / 2} dy="0.32em">
                {formatCount(r.value)}
              </text>
            </g>
          );
        });
      }}
    </ChartFrame>
  );
}
