// "Memories over time": bars for the memories created each day (UTC) over the window,
// and behind them the store's running total as a soft area (its own scale, on the right).
// The total starts from what the store held before the window, so its end is `live`.
import { scaleBand, scaleLinear } from 'd3-scale';
import { area, curveMonotoneX, line } from 'd3-shape';
import { formatCount } from '../../lib/format';
import { BottomAxis, ChartFrame } from './ChartFrame';
import { formatDayLong, formatDayShort, plural } from './chartFormat';

export interface CreatedChartProps {
  days: { day: string; count: number }[];
  /** Live memories in the store now: the running total ends there. */
  live: number;
  height?: number;
}

const M = { top: 14, right: 40, bottom: 26, left: 34 };

export function createdSummary(days: { day: string; count: number }[], live: number) {
  const created = days.reduce((sum, d) => sum + d.count, 0);
  // Live memories older than the window (never negative: visibility rules may differ).
  const base = Math.max(0, live - created);
  let running = base;
  const totals = days.map((d) => (running += d.count));
  const busiest = days.reduce<{ day: string; count: number } | null>(
    (best, d) => (d.count > (best?.count ?? 0) ? d : best),
    null,
  );
  const activeDays = days.filter((d) => d.count > 0).length;
  return { created, base, totals, busiest, activeDays };
}

export function CreatedChart({ days, live, height = 200 }: CreatedChartProps) {
  const { created, totals, busiest, activeDays } = createdSummary(days, live);
  const n = days.length;
  const first = days[0]?.day;
  const last = days[n - 1]?.day;

  const label =
    `Memories created per day from ${first ? formatDayLong(first) : '—'} to ${last ? formatDayLong(last) : '—'}: ` +
    `${plural(created, 'memory', 'memories')} on ${plural(activeDays, 'day')}` +
    (busiest ? `, most on ${formatDayLong(busiest.day)} (${formatCount(busiest.count)})` : '') +
    `. The store holds ${formatCount(totals[n - 1] ?? live)} now.`;

  const scales = (width: number) => {
    const x = scaleBand<number>()
      .domain(days.map((_, i) => i))
      .range([M.left, Math.max(M.left + 1, width - M.right)])
      .paddingInner(n > 60 ? 0.2 : 0.3)
      .paddingOuter(0.1);
    const maxCount = Math.max(1, ...days.map((d) => d.count));
    const y = scaleLinear()
      .domain([0, maxCount])
      .nice()
      .range([height - M.bottom, M.top]);
    const maxTotal = Math.max(1, ...totals);
    const yTotal = scaleLinear()
      .domain([0, maxTotal])
      .nice()
      .range([height - M.bottom, M.top]);
    return { x, y, yTotal };
  };

  const indexAt = (px: number, _py: number, width: number) => {
    const { x } = scales(width);
    const [a, b] = x.range() as [number, number];
    if (px < a || px > b || n === 0) return null;
    return Math.min(n - 1, Math.max(0, Math.floor(((px - a) / (b - a)) * n)));
  };

  const anchor = (i: number, width: number) => {
    const { x, y, yTotal } = scales(width);
    const d = days[i];
    const cx = (x(i) ?? 0) + x.bandwidth() / 2;
    const top = Math.min(y(d?.count ?? 0), yTotal(totals[i] ?? 0));
    return { x: cx, y: top - 6 };
  };

  return (
    <ChartFrame
      id="created"
      label={label}
      height={height}
      count={n}
      start="last"
      indexAt={indexAt}
      anchor={anchor}
      tooltip={(i) => (
        <>
          <strong>{formatDayLong(days[i]?.day ?? '')}</strong>
          <span>{plural(days[i]?.count ?? 0, 'memory', 'memories')} created</span>
          <span className="muted">{formatCount(totals[i] ?? 0)} in the store</span>
        </>
      )}
      table={{
        caption: `Memories created per day (days without any are left out); ${formatCount(created)} in all`,
        columns: ['Day', 'Created', 'In the store'],
        rows: days.flatMap((d, i) =>
          d.count > 0 ? [[formatDayLong(d.day), d.count, totals[i] ?? 0]] : [],
        ),
      }}
    >
      {(width, active) => {
        const { x, y, yTotal } = scales(width);
        const bw = x.bandwidth();
        const cx = (i: number) => (x(i) ?? 0) + bw / 2;
        const points = totals.map((t, i) => [cx(i), yTotal(t)] as [number, number]);
        const areaPath =
          area<[number, number]>()
            .x((p) => p[0])
            .y0(height - M.bottom)
            .y1((p) => p[1])
            .curve(curveMonotoneX)(points) ?? '';
        const linePath =
          line<[number, number]>()
            .x((p) => p[0])
            .y((p) => p[1])
            .curve(curveMonotoneX)(points) ?? '';
        const yTicks = y.ticks(4).filter(Number.isInteger);
        const totalTicks = yTotal.ticks(3).filter(Number.isInteger);
        // About one date label per 90 px, counted back from today so that today is labelled.
        const every = Math.max(
          1,
          Math.ceil(n / Math.max(2, Math.floor((width - M.left - M.right) / 90))),
        );
        const [x0, x1] = x.range() as [number, number];
        return (
          <>
            <g className="chart-grid" aria-hidden>
              {yTicks.map((t) => (
                <line key={t} x1={x0} x2={x1} y1={y(t)} y2={y(t)} />
              ))}
            </g>
            <path className="chart-area" d={areaPath} />
            <path className="chart-line" d={linePath} />
            <g>
              {days.map((d, i) =>
                d.count > 0 ? (
                  <rect
                    key={d.day}
                    className={i === active ? 'chart-bar is-active' : 'chart-bar'}
                    x={x(i)}
                    y={y(d.count)}
                    width={Math.max(1, bw)}
                    height={Math.max(1, height - M.bottom - y(d.count))}
                    rx={Math.min(2, bw / 3)}
                  />
                ) : null,
              )}
            </g>
            {active !== null ? (
              <line
                className="chart-cursor"
                x1={cx(active)}
                x2={cx(active)}
                y1={M.top}
                y2={height - M.bottom}
              />
            ) : null}
            <g className="chart-axis" aria-hidden>
              {yTicks.map((t) => (
                <text key={t} x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                  {formatCount(t)}
                </text>
              ))}
              {totalTicks.map((t) => (
                <text
                  key={`t${t}`}
                  className="chart-axis-alt"
                  x={x1 + 6}
                  y={yTotal(t)}
                  dy="0.32em"
                  textAnchor="start"
                >
                  {formatCount(t)}
                </text>
              ))}
              <BottomAxis
                items={days}
                every={every}
                x={(_d, i) => cx(i)}
                label={(d) => formatDayShort(d.day)}
                keyOf={(d) => d.day}
                baseline={height - M.bottom}
                labelOffset={16}
                x0={x0}
                x1={x1}
              />
            </g>
          </>
        );
      }}
    </ChartFrame>
  );
}
