// The trend of the quality lab: one point per run of the store's own configuration, in
// time order, with its 95 % bootstrap interval as a whisker, for the chosen metric. Built
// on the Overview's ChartFrame (accessible name, hidden table, keyboard tooltip).
import { scaleLinear, scalePoint } from 'd3-scale';
import type { EvalRunView } from '../../../../shared/eval';
import { BottomAxis, ChartFrame } from '../overview/ChartFrame';
import { f3, metricOf, type MetricKey } from './qualityModel';

const M = { top: 14, right: 16, bottom: 30, left: 40 };

const when = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const whenShort = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

export function TrendChart({
  runs,
  metric,
  height = 220,
}: {
  runs: EvalRunView[];
  metric: MetricKey;
  height?: number;
}) {
  const { label: name } = metricOf(metric);
  const points = runs.map((r) => ({ run: r, e: r.summary[metric] }));
  const n = points.length;
  const last = points[n - 1];
  const label =
    n === 0
      ? `${name} over time: no runs yet.`
      : `${name} over ${n} run${n === 1 ? '' : 's'}; latest ${
          last && last.e.n > 0
            ? `${f3(last.e.mean)} (95 % interval ${f3(last.e.low)} to ${f3(last.e.high)})`
            : 'not scored'
        }.`;

  const scales = (width: number) => {
    const x = scalePoint<number>()
      .domain(points.map((_, i) => i))
      .range([M.left, Math.max(M.left + 1, width - M.right)])
      .padding(0.5);
    const y = scaleLinear()
      .domain([0, 1])
      .range([height - M.bottom, M.top]);
    return { x, y };
  };

  return (
    <ChartFrame
      id="quality-trend"
      label={label}
      height={height}
      count={n}
      start="last"
      indexAt={(px, _py, width) => {
        if (n === 0) return null;
        const { x } = scales(width);
        let best = 0;
        let bestD = Infinity;
        points.forEach((_, i) => {
          const d = Math.abs((x(i) ?? 0) - px);
          if (d < bestD) {
            bestD = d;
            best = i;
          }
        });
        return best;
      }}
      anchor={(i, width) => {
        const { x, y } = scales(width);
        const p = points[i];
        return { x: x(i) ?? 0, y: y(p && p.e.n > 0 ? p.e.high : 0) - 8 };
      }}
      tooltip={(i) => {
        const p = points[i];
        if (!p) return null;
        return (
          <>
            <strong>{when.format(new Date(p.run.at))}</strong>
            <span>
              {name}{' '}
              {p.e.n > 0
                ? `${f3(p.e.mean)} [${f3(p.e.low)}, ${f3(p.e.high)}]`
                : 'not scored (no such case)'}
            </span>
            <span className="muted">
              {p.run.cases} case{p.run.cases === 1 ? '' : 's'} · {p.run.label}
            </span>
          </>
        );
      }}
      table={{
        caption: `${name} per run with its 95 % bootstrap interval`,
        columns: ['Run', name, 'Low', 'High', 'Cases'],
        rows: points.map((p) => [
          when.format(new Date(p.run.at)),
          p.e.n > 0 ? f3(p.e.mean) : '—',
          p.e.n > 0 ? f3(p.e.low) : '—',
          p.e.n > 0 ? f3(p.e.high) : '—',
          p.run.cases,
        ]),
      }}
    >
      {(width, active) => {
        const { x, y } = scales(width);
        const [x0, x1] = x.range() as [number, number];
        const ticks = [0, 0.25, 0.5, 0.75, 1];
        const scored = points.map((p, i) => ({ ...p, i })).filter((p) => p.e.n > 0);
        const path = scored
          .map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.i) ?? 0},${y(p.e.mean)}`)
          .join('');
        const band =
          scored.length > 1
            ? `${scored.map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.i) ?? 0},${y(p.e.high)}`).join('')}${[
                ...scored,
              ]
                .reverse()
                .map((p) => `L${x(p.i) ?? 0},${y(p.e.low)}`)
                .join('')}Z`
            : '';
        // Dates thin out so that labels never overlap (about 56 px each).
        const every = Math.max(1, Math.ceil(56 / Math.max(1, x.step())));
        return (
          <>
            <g className="chart-grid" aria-hidden>
              {ticks.map((t) => (
                <line key={t} x1={x0} x2={x1} y1={y(t)} y2={y(t)} />
              ))}
            </g>
            {band ? <path className="chart-area q-band" d={band} aria-hidden /> : null}
            {path ? <path className="chart-line q-line" d={path} aria-hidden /> : null}
            {scored.map((p) => {
              const cx = x(p.i) ?? 0;
              return (
                <g
                  key={p.run.id ?? p.i}
                  className={p.i === active ? 'q-point is-active' : 'q-point'}
                  aria-hidden
                >
                  <line className="q-whisker" x1={cx} x2={cx} y1={y(p.e.low)} y2={y(p.e.high)} />
                  <line
                    className="q-whisker"
                    x1={cx - 4}
                    x2={cx + 4}
                    y1={y(p.e.low)}
                    y2={y(p.e.low)}
                  />
                  <line
                    className="q-whisker"
                    x1={cx - 4}
                    x2={cx + 4}
                    y1={y(p.e.high)}
                    y2={y(p.e.high)}
                  />
                  <circle className="q-dot" cx={cx} cy={y(p.e.mean)} r={p.i === active ? 5 : 3.5} />
                </g>
              );
            })}
            <g className="chart-axis" aria-hidden>
              {ticks.map((t) => (
                <text key={t} x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                  {t}
                </text>
              ))}
              <BottomAxis
                items={points}
                every={every}
                x={(_p, i) => x(i) ?? 0}
                label={(p) => whenShort.format(new Date(p.run.at))}
                keyOf={(_p, i) => i}
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
