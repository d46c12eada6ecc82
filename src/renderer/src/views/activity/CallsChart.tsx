// Calls over time (activity.stats): a stacked bar per slice of the window, one colour per
// client, and the slice's median and 95th-percentile latency as two lines on their own
// scale (right). The window is the last hour, 6 hours or day; it follows new calls.
import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { useState } from 'react';
import type { ActivityStatsResult } from '../../../../shared/api';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { formatCount } from '../../lib/format';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { BottomAxis, ChartFrame } from '../overview/ChartFrame';
import { formatMs } from '../overview/chartFormat';
import '../overview/charts.css';

const WINDOWS = [
  { minutes: 60, label: 'Hour' },
  { minutes: 360, label: '6 hours' },
  { minutes: 1440, label: 'Day' },
] as const;
const BUCKETS = 60;
const HEIGHT = 180;
const M = { top: 12, right: 46, bottom: 24, left: 34 };
/** Client colours, in the order of the busiest client first. */
const COLOURS = [
  'var(--kind-semantic)',
  'var(--kind-procedural)',
  'var(--kind-episodic)',
  'var(--kind-prospective)',
  'var(--kind-affective)',
  'var(--kind-schematic)',
];

const clientName = (actor: string) => (actor.startsWith('mcp:') ? actor.slice(4) : actor);
const time = (iso: string) => iso.slice(11, 16);

function Chart({ data }: { data: ActivityStatsResult }) {
  const b = data.buckets;
  const n = b.length;
  const clients = data.clients.slice(0, COLOURS.length);
  const colour = (c: string) => COLOURS[clients.indexOf(c)] ?? 'var(--text-muted)';
  const total = b.reduce((s, x) => s + x.total, 0);
  const worst = Math.max(0, ...b.map((x) => x.p95_ms ?? 0));
  const label =
    `Calls per client over the last ${data.window_minutes >= 60 ? `${data.window_minutes / 60} h` : `${data.window_minutes} min`}: ` +
    `${formatCount(total)} calls from ${clients.map(clientName).join(', ') || 'no client'}; ` +
    `the slowest slice's 95th percentile ${formatMs(worst || null)}.`;
  const scales = (width: number) => {
    const x = scaleBand<number>()
      .domain(b.map((_, i) => i))
      .range([M.left, Math.max(M.left + 1, width - M.right)])
      .paddingInner(0.2);
    const y = scaleLinear()
      .domain([0, Math.max(1, ...b.map((x) => x.total))])
      .nice()
      .range([HEIGHT - M.bottom, M.top]);
    const yMs = scaleLinear()
      .domain([0, Math.max(1, worst)])
      .nice()
      .range([HEIGHT - M.bottom, M.top]);
    return { x, y, yMs };
  };
  return (
    <ChartFrame
      id="calls"
      label={label}
      height={HEIGHT}
      count={n}
      start="last"
      indexAt={(px, _py, width) => {
        const { x } = scales(width);
        const [a, z] = x.range() as [number, number];
        if (px < a || px > z || n === 0) return null;
        return Math.min(n - 1, Math.max(0, Math.floor(((px - a) / (z - a)) * n)));
      }}
      anchor={(i, width) => {
        const { x, y } = scales(width);
        return { x: (x(i) ?? 0) + x.bandwidth() / 2, y: y(b[i]?.total ?? 0) - 6 };
      }}
      tooltip={(i) => {
        const d = b[i];
        if (!d) return null;
        return (
          <>
            <strong>
              {time(d.at)} · {formatCount(d.total)} call{d.total === 1 ? '' : 's'}
            </strong>
            {Object.entries(d.calls).map(([c, k]) => (
              <span key={c}>
                {clientName(c)}: {formatCount(k)}
              </span>
            ))}
            {d.total ? (
              <span className="muted">
                median {formatMs(d.p50_ms)} · 95th {formatMs(d.p95_ms)}
                {d.errors ? ` · ${d.errors} failed` : ''}
              </span>
            ) : null}
          </>
        );
      }}
      table={{
        caption: `Calls per slice of ${data.bucket_minutes} min (slices without calls are left out)`,
        columns: ['From', ...clients.map(clientName), 'Failed', 'Median', '95th percentile'],
        rows: b.flatMap((d) =>
          d.total
            ? [
                [
                  time(d.at),
                  ...clients.map((c) => d.calls[c] ?? 0),
                  d.errors,
                  formatMs(d.p50_ms),
                  formatMs(d.p95_ms),
                ],
              ]
            : [],
        ),
      }}
    >
      {(width, active) => {
        const { x, y, yMs } = scales(width);
        const bw = x.bandwidth();
        const cx = (i: number) => (x(i) ?? 0) + bw / 2;
        const path = (key: 'p50_ms' | 'p95_ms') =>
          line<number>()
            .defined((i) => b[i]?.[key] !== null && b[i]?.[key] !== undefined)
            .x((i) => cx(i))
            .y((i) => yMs(b[i]?.[key] ?? 0))(b.map((_, i) => i)) ?? '';
        const [x0, x1] = x.range() as [number, number];
        const every = Math.max(
          1,
          Math.ceil(n / Math.max(2, Math.floor((width - M.left - M.right) / 70))),
        );
        return (
          <>
            <g className="chart-grid" aria-hidden>
              {y
                .ticks(3)
                .filter(Number.isInteger)
                .map((t) => (
                  <line key={t} x1={x0} x2={x1} y1={y(t)} y2={y(t)} />
                ))}
            </g>
            <g>
              {b.map((d, i) => {
                let top = HEIGHT - M.bottom;
                return Object.entries(d.calls)
                  .sort((p, q) => clients.indexOf(p[0]) - clients.indexOf(q[0]))
                  .map(([c, k]) => {
                    const h = Math.max(1, HEIGHT - M.bottom - y(k));
                    top -= h;
                    return (
                      <rect
                        key={`${d.at}-${c}`}
                        x={x(i)}
                        y={top}
                        width={Math.max(1, bw)}
                        height={h}
                        fill={colour(c)}
                        opacity={active === null || active === i ? 1 : 0.55}
                      />
                    );
                  });
              })}
            </g>
            <path className="act-chart-p95" d={path('p95_ms')} />
            <path className="act-chart-p50" d={path('p50_ms')} />
            {/* A point per slice too: a lone slice has no line to draw. */}
            {b.map((d, i) =>
              d.p50_ms === null ? null : (
                <g key={`pt-${d.at}`}>
                  <circle className="act-chart-dot95" cx={cx(i)} cy={yMs(d.p95_ms ?? 0)} r={2.5} />
                  <circle className="act-chart-dot50" cx={cx(i)} cy={yMs(d.p50_ms)} r={2.5} />
                </g>
              ),
            )}
            <g className="chart-axis" aria-hidden>
              {y
                .ticks(3)
                .filter(Number.isInteger)
                .map((t) => (
                  <text key={t} x={M.left - 6} y={y(t) + 3} textAnchor="end">
                    {t}
                  </text>
                ))}
              {yMs.ticks(3).map((t) => (
                <text key={`ms${t}`} x={x1 + 6} y={yMs(t) + 3}>
                  {t} ms
                </text>
              ))}
              <BottomAxis
                items={b}
                every={every}
                x={(_, i) => cx(i)}
                label={(d) => time(d.at)}
                keyOf={(d) => d.at}
                baseline={HEIGHT - M.bottom}
                labelOffset={15}
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

export function CallsChart() {
  const [minutes, setMinutes] = useState<number>(60);
  const q = useEngineQuery(
    'activity.stats',
    { window_minutes: minutes, buckets: BUCKETS },
    { refreshOn: ['activity.recorded'], throttleMs: 2_000 },
  );
  const clients = q.data?.clients.slice(0, COLOURS.length) ?? [];
  return (
    <section className="card act-chart" aria-labelledby="act-chart-title">
      <div className="act-chart-head">
        <h2 id="act-chart-title" className="card-title">
          Calls over time
        </h2>
        <div className="segmented" role="group" aria-label="Window">
          {WINDOWS.map((w) => (
            <button
              key={w.minutes}
              type="button"
              aria-pressed={minutes === w.minutes}
              onClick={() => setMinutes(w.minutes)}
            >
              {w.label}
            </button>
          ))}
        </div>
      </div>
      {q.loading && !q.data ? (
        <LoadingState label="Loading the calls over time…" />
      ) : !q.data ? (
        <ErrorState
          compact
          title="Could not load the calls over time"
          error={q.error}
          onRetry={q.reload}
        />
      ) : (
        <>
          <p className="act-chart-legend">
            {clients.map((c, i) => (
              <span key={c} className="act-chart-key">
                <span className="act-chart-swatch" style={{ background: COLOURS[i] }} aria-hidden />
                {clientName(c)}
              </span>
            ))}
            <span className="act-chart-key">
              <span className="act-chart-line act-chart-line-50" aria-hidden /> median latency
            </span>
            <span className="act-chart-key">
              <span className="act-chart-line act-chart-line-95" aria-hidden /> 95th percentile
            </span>
          </p>
          <Chart data={q.data} />
        </>
      )}
    </section>
  );
}
