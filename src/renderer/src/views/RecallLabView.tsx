// Recall lab: runs `memory.recall` as an agent would (verbose, explained, never rehearsed,
// optionally as a given MCP client) and shows everything the answer says — `how`,
// `semantic`, the abstention decision, `degraded`, per-stage timings, each result's
// breakdown — with an animated replay of the pipeline from the trace.
// `#/recall?q=…&as_client=…` runs that query on arrival (the Activity view links here).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RecallResult } from '../../../shared/api';
import type { LociError } from '../../../shared/errors';
import { Button } from '../components/Button';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { useEngineClient } from '../lib/engineContext';
import { navigate } from '../lib/router';
import { toLociError, useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import type { ViewProps } from './index';
import { AnswerFacts, DecisionCard, DegradedNotes } from './recall/AnswerSummary';
import { HitCard } from './recall/HitCard';
import { RecallForm } from './recall/RecallForm';
import { RecallIntro } from './recall/RecallIntro';
import { clearHistory, loadHistory, pushHistory, type HistoryEntry } from './recall/recallHistory';
import {
  checkRecall,
  clientName,
  DEFAULT_OPTIONS,
  optionLabels,
  toRecallArgs,
  type RecallOptions,
} from './recall/recallOptions';
import { StageTimings } from './recall/StageTimings';
import { TraceReplay } from './recall/TraceReplay';
import './recall/recall.css';

interface Run {
  id: number;
  query: string;
  options: RecallOptions;
  result: RecallResult | null;
  error: LociError | null;
  running: boolean;
}

const addressKey = (store: string | null, q: string, asClient: string) =>
  `${store ?? ''}\u0000${q}\u0000${asClient}`;

const IDLE: Run = {
  id: 0,
  query: '',
  options: DEFAULT_OPTIONS,
  result: null,
  error: null,
  running: false,
};

function useKnownClients(): string[] {
  const { data } = useEngineQuery(
    'clients.list',
    {},
    { refreshOn: ['activity.recorded'], throttleMs: 5_000 },
  );
  if (!data) return [];
  const names = new Set<string>();
  for (const s of data.sessions) names.add(s.client);
  for (const c of data.last_calls) if (c.actor.startsWith('mcp:')) names.add(clientName(c.actor));
  names.delete('unknown');
  return [...names].sort();
}

function Results({
  result,
  onFocusHit,
}: {
  result: RecallResult;
  onFocusHit: (id: string | null) => void;
}) {
  const titles = new Map(
    [...result.results, ...(result.near_misses ?? [])].map((h) => [h.id, h.title]),
  );
  if (result.abstained) {
    const misses = result.near_misses ?? [];
    return (
      <section className="rl-results" aria-labelledby="rl-results-title">
        <h2 id="rl-results-title" className="rl-section-title">
          No results <span className="muted">— the engine abstained</span>
        </h2>
        <p className="muted">
          An agent gets an explicit “nothing relevant in memory” rather than the least bad guess.
        </p>
        <HiddenVersions result={result} />
        {misses.length ? (
          <>
            <h3 className="rl-subtitle">Near misses (not returned)</h3>
            <ol className="rl-hits">
              {misses.map((hit, i) => (
                <HitCard
                  key={hit.id}
                  hit={hit}
                  rank={i + 1}
                  onFocusHit={onFocusHit}
                  titles={titles}
                  muted
                />
              ))}
            </ol>
          </>
        ) : null}
      </section>
    );
  }
  return (
    <section className="rl-results" aria-labelledby="rl-results-title">
      <h2 id="rl-results-title" className="rl-section-title">
        Results <span className="muted num">{result.results.length}</span>
      </h2>
      <ol className="rl-hits">
        {result.results.map((hit, i) => (
          <HitCard key={hit.id} hit={hit} rank={i + 1} onFocusHit={onFocusHit} titles={titles} />
        ))}
      </ol>
      {result.omitted ? (
        <p className="card-note">
          {result.omitted} more result{result.omitted === 1 ? '' : 's'} left out to stay within
          max_tokens.
        </p>
      ) : null}
      <HiddenVersions result={result} />
    </section>
  );
}

/** Older versions the answer left out because a newer memory supersedes them. */
function HiddenVersions({ result }: { result: RecallResult }) {
  const n = result.hidden_versions ?? 0;
  if (!n) return null;
  return (
    <p className="card-note" role="note">
      {n} older version{n === 1 ? '' : 's'} hidden: a newer memory supersedes{' '}
      {n === 1 ? 'it' : 'them'} (an agent sees the same note; ask with history to include{' '}
      {n === 1 ? 'it' : 'them'}).
    </p>
  );
}

function Recent({
  history,
  onPick,
  onClear,
}: {
  history: HistoryEntry[];
  onPick: (entry: HistoryEntry) => void;
  onClear: () => void;
}) {
  if (!history.length) return null;
  return (
    <nav className="rl-recent" aria-label="Recent queries">
      <span className="rl-recent-label">Recent</span>
      <ul>
        {history.map((h) => {
          const labels = optionLabels(h.options);
          return (
            <li key={`${h.query} ${JSON.stringify(h.options)}`}>
              <button
                type="button"
                className="rl-recent-item"
                onClick={() => onPick(h)}
                title={`${h.query}${labels.length ? ` (${labels.join(', ')})` : ''} — ${
                  h.abstained ? 'abstained' : `${h.results} results`
                }, ${h.how}`}
              >
                <span className={h.abstained ? 'rl-dot rl-dot-warn' : 'rl-dot'} aria-hidden />
                <span className="truncate">{h.query}</span>
                {labels.length ? <span className="rl-recent-opts">+{labels.length}</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear
      </Button>
    </nav>
  );
}

export default function RecallLabView({ query: routeQuery }: ViewProps) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const clients = useKnownClients();
  const [draft, setDraft] = useState(routeQuery.get('q') ?? '');
  const [options, setOptions] = useState<RecallOptions>(() => ({
    ...DEFAULT_OPTIONS,
    as_client: routeQuery.get('as_client') ?? '',
  }));
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [problem, setProblem] = useState<string | null>(null);
  const [run, setRun] = useState<Run>(IDLE);
  const [history, setHistory] = useState<HistoryEntry[]>(loadHistory);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [stage, setStage] = useState<string | null>(null);
  const seq = useRef(0);
  const inflight = useRef<AbortController | null>(null);
  /** The address last acted on, so an address this view wrote itself is not run twice. */
  const lastWanted = useRef<string | null>(null);

  const execute = useCallback(
    async (q: string, opts: RecallOptions) => {
      const bad = checkRecall(q, opts);
      setProblem(bad);
      if (bad) return;
      const id = ++seq.current;
      inflight.current?.abort();
      const controller = new AbortController();
      inflight.current = controller;
      setRun((r) => ({ ...r, running: true, error: null }));
      // The address says what ran, so it can be reloaded or shared (and is not run again).
      const asClient = opts.as_client.trim();
      lastWanted.current = addressKey(store, q.trim(), asClient);
      navigate('/recall', {
        replace: true,
        query: { q: q.trim(), ...(asClient ? { as_client: asClient } : {}) },
      });
      try {
        const result = await client.call('memory.recall', toRecallArgs(q, opts, store), {
          signal: controller.signal,
        });
        if (id !== seq.current) return;
        setRun({ id, query: q.trim(), options: opts, result, error: null, running: false });
        setHistory((h) =>
          pushHistory(h, {
            query: q.trim(),
            options: opts,
            at: new Date().toISOString(),
            how: result.how,
            abstained: result.abstained,
            results: result.results.length,
          }),
        );
      } catch (err) {
        if ((err as { name?: unknown })?.name === 'AbortError' || id !== seq.current) return;
        setRun((r) => ({ ...r, running: false, error: toLociError(err) }));
      }
    },
    [client, store],
  );

  useEffect(() => () => inflight.current?.abort(), []);

  // Another store: the last answer was about the old one. (Before the effect below,
  // which then runs the address's query again, in the new store.)
  const shownStore = useRef(store);
  useEffect(() => {
    if (shownStore.current === store) return;
    shownStore.current = store;
    inflight.current?.abort();
    setRun(IDLE);
  }, [store]);

  // Arriving with ?q= (a link, a reload, the Activity view): run it once per address.
  const wanted = routeQuery.get('q')?.trim() ?? '';
  const wantedClient = routeQuery.get('as_client')?.trim() ?? '';
  useEffect(() => {
    if (!wanted || store === null) return;
    if (lastWanted.current === addressKey(store, wanted, wantedClient)) return;
    // Only a new address (or store) gets here; the other options are kept as they are.
    const opts = { ...optionsRef.current, as_client: wantedClient };
    setDraft(wanted);
    setOptions(opts);
    void execute(wanted, opts);
  }, [wanted, wantedClient, store, execute]);

  const result = run.result;
  const submit = () => void execute(draft, options);
  const example = (q: string) => {
    setDraft(q);
    void execute(q, options);
  };

  return (
    <div className="view rl-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Recall lab</h1>
          <p className="view-subtitle">
            Store <strong>{store ?? '…'}</strong> · what an agent would get, and why · nothing is
            counted as a use
          </p>
        </div>
      </header>

      <RecallForm
        query={draft}
        options={options}
        onQuery={setDraft}
        onOptions={setOptions}
        onSubmit={submit}
        running={run.running}
        clients={clients}
        problem={problem}
      />
      <Recent
        history={history}
        onPick={(h) => {
          setDraft(h.query);
          setOptions(h.options);
          void execute(h.query, h.options);
        }}
        onClear={() => {
          clearHistory();
          setHistory([]);
        }}
      />

      {run.error ? (
        <ErrorState compact title="The recall failed" error={run.error} onRetry={submit} />
      ) : null}

      {!result ? (
        run.running ? (
          <LoadingState label="Recalling…" />
        ) : run.error ? null : (
          <RecallIntro store={store} onExample={example} />
        )
      ) : (
        <div
          className={run.running ? 'rl-answer is-stale' : 'rl-answer'}
          aria-busy={run.running || undefined}
        >
          <AnswerFacts result={result} asClient={run.options.as_client.trim()} />
          <DegradedNotes notes={result.degraded} />
          {result.trace ? (
            <TraceReplay trace={result.trace} runId={run.id} focusId={focusId} onStage={setStage} />
          ) : null}
          <div className="rl-grid">
            <Results result={result} onFocusHit={setFocusId} />
            <aside className="rl-side" aria-label="Decision and timings">
              <DecisionCard result={result} />
              <StageTimings timings={result.timings} current={stage} />
            </aside>
          </div>
        </div>
      )}
    </div>
  );
}
