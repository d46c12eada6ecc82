// The Overview's recall quality: once the Quality lab has runs, the trend of nDCG@10 over
// them (with 95 % intervals), the latest figures and a link to the lab. Renders nothing
// while there is no run, so a new store is not shown an empty chart.
import { Icon } from '../../components/Icon';
import { routeHref } from '../../lib/router';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { formatEstimate, trendRuns } from '../quality/qualityModel';
import { TrendChart } from '../quality/TrendChart';
import '../quality/quality.css';

export function QualityCard({ store }: { store: string | null }) {
  const runs = useEngineQuery('eval.runs', store ? { store } : {}, { refreshOn: ['eval.changed'] });
  const trend = trendRuns(runs.data?.runs ?? []);
  const latest = trend[trend.length - 1];
  if (!latest) return null;
  return (
    <section className="card card-wide" aria-labelledby="ov-quality" data-testid="overview-quality">
      <h2 id="ov-quality" className="card-title">
        <Icon name="quality" /> Recall quality
      </h2>
      <p className="card-lead">
        Latest of {trend.length} run{trend.length === 1 ? '' : 's'} on {latest.cases} marked case
        {latest.cases === 1 ? '' : 's'}: nDCG@10{' '}
        <strong>{formatEstimate(latest.summary.ndcg10)}</strong>, recall@10{' '}
        <strong>{formatEstimate(latest.summary.recall10)}</strong> ·{' '}
        <a href={routeHref('/quality')}>the Quality lab</a>
      </p>
      <TrendChart runs={trend} metric="ndcg10" height={160} />
    </section>
  );
}
