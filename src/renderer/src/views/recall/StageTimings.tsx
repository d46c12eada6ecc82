// Milliseconds per stage as a small bar chart (`timings` of the answer: `<stage>_ms`),
// in pipeline order, the stage the replay shows marked. Embedding the query is outside
// `total_ms`, so it is listed apart.
import { stageInfo, STAGES } from './stages';

const ORDER = ['parse', ...STAGES.map((s) => s.name)];

export function StageTimings({
  timings,
  current,
}: {
  timings: Record<string, number>;
  current: string | null;
}) {
  const rows = Object.entries(timings)
    .filter(
      ([k, v]) =>
        k.endsWith('_ms') && k !== 'total_ms' && k !== 'embed_ms' && typeof v === 'number',
    )
    .map(([k, ms]) => ({ name: k.slice(0, -3), ms }))
    .sort((a, b) => {
      const ia = ORDER.indexOf(a.name);
      const ib = ORDER.indexOf(b.name);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    });
  const max = Math.max(0.001, ...rows.map((r) => r.ms));
  const total = timings.total_ms;
  const embed = timings.embed_ms;
  return (
    <section className="card rl-timings" aria-labelledby="rl-timings-title">
      <h2 id="rl-timings-title" className="card-title">
        Timings
      </h2>
      <ul className="rl-timing-list">
        {rows.map((r) => (
          <li key={r.name} className={r.name === current ? 'is-current' : ''}>
            <span className="rl-timing-name">
              {r.name === 'parse' ? 'Parse' : stageInfo(r.name).label}
            </span>
            <span className="rl-timing-bar" aria-hidden>
              <span style={{ width: `${Math.max(1, (r.ms / max) * 100)}%` }} />
            </span>
            <span className="rl-timing-ms num">{r.ms.toFixed(2)} ms</span>
          </li>
        ))}
      </ul>
      <p className="card-note">
        {typeof total === 'number' ? (
          <>
            Total <strong className="num">{total.toFixed(2)} ms</strong>
          </>
        ) : null}
        {typeof embed === 'number' ? (
          <>
            {' '}
            · embedding the query <span className="num">{embed.toFixed(2)} ms</span> (not in the
            total)
          </>
        ) : null}
      </p>
    </section>
  );
}
