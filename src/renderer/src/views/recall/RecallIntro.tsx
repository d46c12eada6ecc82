// The Recall lab before its first query: what the lab is for, and example queries built
// from the store itself (a few memory titles, which the recogniser names at once; a
// question from a memory's words, which goes through the whole pipeline; and nonsense,
// to see an abstention).
import type { MemorySummary } from '../../../../shared/api';
import { EmptyState } from '../../components/EmptyState';
import { LoadingState } from '../../components/LoadingState';
import { useEngineQuery } from '../../lib/useEngineQuery';

export interface Example {
  query: string;
  hint: string;
}

const STOP = new Set(
  'the a an and or of to in on for with from that this it is are was be by as at its their we our you your'.split(
    ' ',
  ),
);

/** Examples from a few memories: their titles, one question from words of a body, nonsense. */
export function examplesFrom(items: MemorySummary[]): Example[] {
  const out: Example[] = items
    .filter((m) => m.title.trim())
    .slice(0, 3)
    .map((m) => ({ query: m.title, hint: 'a title: the recogniser names it' }));
  const words = (items[0]?.preview ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}_.-]+/u)
    .filter((w) => w.length > 3 && !STOP.has(w));
  const picked = [...new Set(words)].slice(1, 4);
  if (picked.length >= 2)
    out.push({
      query: `what about ${picked.join(' ')}?`,
      hint: 'words from a memory: the full pipeline',
    });
  out.push({ query: 'quantum marmalade zeppelin', hint: 'nonsense: watch it abstain' });
  return out;
}

export function RecallIntro({
  store,
  onExample,
}: {
  store: string | null;
  onExample: (q: string) => void;
}) {
  const list = useEngineQuery(
    'memory.list',
    { ...(store ? { store } : {}), limit: 3 },
    { enabled: store !== null },
  );
  const items = list.data?.items ?? [];
  const examples = list.data ? examplesFrom(items) : [];
  return (
    <EmptyState icon="recall" title="Ask the store what an agent would ask">
      <p>
        The lab runs a recall exactly as an MCP client would — without counting it as a use — and
        shows the answer it would get: each result with its score, its <em>why</em> and the score of
        every branch; whether the engine abstained and why; the time each stage took; and a replay
        of the pipeline, stage by stage, from candidates to the final ranking.
      </p>
      {list.loading ? (
        <LoadingState label="Finding example queries…" fill={false} />
      ) : items.length === 0 && list.data ? (
        <p>This store has no memories yet: recall will abstain until something is remembered.</p>
      ) : examples.length ? (
        <>
          <p>Try one built from this store:</p>
          <ul className="rl-examples">
            {examples.map((ex) => (
              <li key={ex.query}>
                <button type="button" className="rl-example" onClick={() => onExample(ex.query)}>
                  <span className="rl-example-query">{ex.query}</span>
                  <span className="rl-example-hint">{ex.hint}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </EmptyState>
  );
}
