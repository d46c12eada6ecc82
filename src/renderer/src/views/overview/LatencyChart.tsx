// How fast recall answers: the engine's latency histogram (buckets up to 1 s, then the
// rest) as columns, with the buckets holding the median and the 95th percentile marked.
import { scaleBand, scaleLinear } from 'd3-scale';
import type { OverviewResult } from '../../../../shared/api';
import { formatCount } from '../../lib/format';
import { BottomAxis, ChartFrame } from './ChartFrame';
import { bucketLabel, bucketTick, formatMs, plural } from './chartFormat';

type Recall = OverviewResult['recall'];

const M = { top: 22, right: 8, bottom: 30, left: 34 };

/** The index of the bucket a latency falls in (the first whose bound is ≥ it). */
export function bucketOf(histogram: Recall['histogram'], ms: number | null): number | null {
  if (ms === null) return null;
  const i = histogram.findIndex((b) => b.le_ms === null || ms <= b.le_ms);
  return i === -1 ? null : i;
}

export function LatencyChart({ recall, height = 190 }: { recall: Recall; height?: number }) {
  const buckets = recall.histogram.map((b, i) => {
    const previous = i > 0 ? (recall.histogram[i - 1]?.le_ms ?? null) : null;
    return { ...b, label: bucketLabel(b.le_ms, previous), tick: bucketTick(b.le_ms, previous) };
  });
  const n = buckets.length;
  const p50 = bucketOf(recall.histogram, recall.p50_ms);
  const p95 = bucketOf(recall.histogram, recall.p95_ms);
  const label =
    `Recall latency over the last ${plural(recall.count, 'recall')}: ` +
    `median ${formatMs(recall.p50_ms)}, 95th percentile ${formatMs(recall.p95_ms)}.`;

  const scales = (width: number) => {
    const x = scaleBand<number>()
      .domain(buckets.map((_, i) => i))
      .range([M.left, Math.max(M.left + 1, width - M.right)])
      .padding(0.18);
    const y = scaleLinear()
      .domain([0, Math.max(1, ...buckets.map((b) => b.count))])
      .nice()
      .range([height - M.bottom, M.top]);
    return { x, y };
  };

  return (
    <ChartFrame
      id="latency"
      label={label}
      height={height}
      count={n}
      indexAt={(px, _py, width) => {
        const { x } = scales(width);
        const [a, b] = x.range() as [number, number];
        if (px < a || px > b || n === 0) return null;
        return Math.min(n - 1, Math.floor(((px - a) / (b - a)) * n));
      }}
      anchor={(i, width) => {
        const { x, y } = scales(width);
        return { x: (x(i) ?? 0) + x.bandwidth() / 2, y: y(buckets[i]?.count ?? 0) - 6 };
      }}
      tooltip={(i) => {
        const b = buckets[i];
        if (!b) return null;
        return (
          <>
            <strong>{b.label}</strong>
            <span>{plural(b.count, 'recall')}</span>
            {i === p50 || i === p95 ? (
              <span className="muted">
                {[i === p50 ? 'median' : '', i === p95 ? '95th percentile' : '']
                  .filter(Boolean)
                  .join(' and ')}{' '}
                falls here
              </span>
            ) : null}
          </>
        );
      }}
      table={{
        caption: `Recalls by latency; median ${formatMs(recall.p50_ms)}, 95th percentile ${formatMs(recall.p95_ms)}`,
        columns: ['Latency', 'Recalls'],
        rows: buckets.map((b) => [b.label, b.count]),
      }}
    >
      {(width, active) => {
        const { x, y } = scales(width);
        const bw = x.bandwidth();
        const [x0, x1] = x.range() as [number, number];
        const ticks = y.ticks(4).filter(Number.isInteger);
        const markers = [
          { at: p50, name: 'p50' },
          { at: p95, name: 'p95' },
        ].filter((m): m is { at: number; name: string } => m.at !== null);
        // Neighbouring markers lean apart (p50 to the left, p95 to the right); one bucket
        // holding both gets one label.
        const markerLabels = [...new Set(markers.map((m) => m.at))].map((at) => {
          const names = markers.filter((m) => m.at === at).map((m) => m.name);
          const lean: 'start' | 'middle' | 'end' =
            names.length > 1 ? 'middle' : names[0] === 'p50' ? 'end' : 'start';
          return { at, text: names.join(' · '), lean };
        });
        // Bucket labels need about 26 px each: thin them out on a narrow chart (counting back
        // from the open last bucket, which is always labelled).
        const tickEvery = Math.max(1, Math.ceil(26 / Math.max(1, x.step())));
        return (
          <>
            <g className="chart-grid" aria-hidden>
              {ticks.map((t) => (
                <line key={t} x1={x0} x2={x1} y1={y(t)} y2={y(t)} />
              ))}
            </g>
            {buckets.map((b, i) => (
              <rect
                key={i}
                className={i === active ? 'chart-bar is-active' : 'chart-bar'}
                x={x(i)}
                y={y(b.count)}
                width={bw}
                height={Math.max(b.count > 0 ? 1 : 0, height - M.bottom - y(b.count))}
                rx={2}
              />
            ))}
            {markerLabels.map(({ at, text, lean }) => {
              const cx = (x(at) ?? 0) + bw / 2;
              const dx = lean === 'end' ? 3 : lean === 'start' ? -3 : 0;
              return (
                <g key={`m${at}`} className="chart-marker" aria-hidden>
                  <line x1={cx} x2={cx} y1={M.top - 4} y2={height - M.bottom} />
                  <text x={cx + dx} y={M.top - 8} textAnchor={lean}>
                    {text}
                  </text>
                </g>
              );
            })}
            <g className="chart-axis" aria-hidden>
              {ticks.map((t) => (
                <text key={t} x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                  {formatCount(t)}
                </text>
              ))}
              <BottomAxis
                items={buckets}
                every={tickEvery}
                x={(_b, i) => (x(i) ?? 0) + bw / 2}
                label={(b) => b.tick}
                keyOf={(_b, i) => i}
                baseline={height - M.bottom}
                labelOffset={15}
                x0={x0}
                x1={x1}
              />
              <text x={x1} y={height - 2} textAnchor="end">
                ms
              </text>
            </g>
          </>
        );
      }}
    </ChartFrame>
  );
}
