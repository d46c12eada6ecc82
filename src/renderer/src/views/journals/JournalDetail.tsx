// One session: where and when, what became of every line, what distillation drew from it
// (each candidate with the gate's word, linked to the memory or the review item it made),
// and the classed turns with the quoted spans highlighted. Choosing a candidate marks its
// quotes in the turns; the model button asks the configured language model for more.
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { JournalCandidateView, JournalTurnView, JournalView } from '../../../../shared/api';
import { EVIDENCE_CLASSES, type TurnClass } from '../../../../shared/constants';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { routeHref } from '../../lib/router';
import { CLASS_HINT, EXTRACTOR_LABEL, quotedSpans, STATUS_LABEL } from './journalsModel';

const PAGE = 200;

function TurnText({
  turn,
  candidates,
  chosen,
}: {
  turn: JournalTurnView;
  candidates: JournalCandidateView[];
  chosen: number | null;
}) {
  const spans = quotedSpans(turn.seq, turn.text, candidates);
  if (spans.length === 0) return <>{turn.text}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  spans.forEach((s, i) => {
    if (s.start > at) parts.push(<Fragment key={`t${i}`}>{turn.text.slice(at, s.start)}</Fragment>);
    parts.push(
      <mark
        key={`m${i}`}
        className={
          chosen !== null && s.candidates.includes(chosen) ? 'jr-quote jr-quote-chosen' : 'jr-quote'
        }
        title={`Quoted by candidate ${s.candidates.map((n) => n + 1).join(', ')}`}
      >
        {turn.text.slice(s.start, s.end)}
      </mark>,
    );
    at = s.end;
  });
  if (at < turn.text.length) parts.push(<Fragment key="end">{turn.text.slice(at)}</Fragment>);
  return <>{parts}</>;
}

function Candidate({
  c,
  chosen,
  onChoose,
}: {
  c: JournalCandidateView;
  chosen: boolean;
  onChoose: () => void;
}) {
  return (
    <li className={`jr-candidate jr-status-${c.status}`} aria-current={chosen ? 'true' : undefined}>
      <button type="button" className="jr-candidate-main" onClick={onChoose}>
        <span className="jr-candidate-head">
          <span className={`jr-badge jr-status-${c.status}`}>{STATUS_LABEL[c.status]}</span>
          <span className="jr-muted">{EXTRACTOR_LABEL[c.extractor] ?? c.extractor}</span>
        </span>
        <span className="jr-candidate-content">{c.content}</span>
        {c.quotes.length ? (
          <span className="jr-muted">
            {c.quotes
              .filter((q) => q.class)
              .map((q) => `${q.class} turn ${q.seq}`)
              .join(' · ')}
          </span>
        ) : null}
      </button>
      {c.reasons.length ? (
        <ul className="jr-reasons" aria-label="Why the gate refused it">
          {c.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      {c.memory_id ? (
        <a className="jr-link" href={routeHref(`/memories/${c.memory_id}`)}>
          Open the memory
        </a>
      ) : c.review_id ? (
        <a className="jr-link" href={routeHref('/dreams', { tab: 'inbox' })}>
          Open the review inbox
        </a>
      ) : null}
    </li>
  );
}

export function JournalDetail({
  store,
  id,
  focusTurn,
}: {
  store: string | undefined;
  id: string;
  focusTurn: number | null;
}) {
  const client = useEngineClient();
  const [classes, setClasses] = useState<TurnClass[]>([...EVIDENCE_CLASSES]);
  const [limit, setLimit] = useState(PAGE);
  const [reveal, setReveal] = useState(false);
  const [chosen, setChosen] = useState<number | null>(null);
  const [distilling, setDistilling] = useState<{ windows: number; total: number } | null>(null);
  const [modelNote, setModelNote] = useState<{ text: string; ok: boolean } | null>(null);
  const at = store ? { store } : {};
  const view = useEngineQuery(
    'journal.get',
    {
      ...at,
      id,
      limit: Math.min(2000, focusTurn !== null ? Math.max(limit, focusTurn + 20) : limit),
      ...(classes.length < EVIDENCE_CLASSES.length ? { classes } : {}),
      ...(reveal ? { reveal: true } : {}),
    },
    { refreshOn: ['review.changed', 'memory.changed'] },
  );
  useEngineEvent('journal.distill.progressed', (p) => {
    if (p.journal_id !== id) return;
    setDistilling(p.done ? null : { windows: p.windows, total: p.total });
  });

  // A link to one turn (from a memory's evidence) scrolls to it.
  useEffect(() => {
    if (focusTurn === null || !view.data) return;
    document.getElementById(`jr-turn-${focusTurn}`)?.scrollIntoView({ block: 'center' });
  }, [focusTurn, view.data]);

  // Another filter or page keeps the last answer on screen until the new one comes.
  const last = useRef<JournalView | undefined>(undefined);
  if (view.data) last.current = view.data;
  const shown = view.data ?? last.current;
  const candidates = useMemo(() => shown?.candidates ?? [], [shown]);
  if (!shown && view.error)
    return (
      <ErrorState title="Could not load this session" error={view.error} onRetry={view.reload} />
    );
  if (!shown) return <LoadingState label="Loading the session…" />;
  const v = shown;
  const j = v.journal;
  const a = j.accounting;
  const chosenSeqs = new Set(
    chosen === null ? [] : (candidates.find((c) => c.n === chosen)?.quotes ?? []).map((q) => q.seq),
  );

  const distil = async () => {
    setDistilling({ windows: 0, total: 1 });
    setModelNote(null);
    try {
      const r = await client.call('journal.distill', { ...at, id });
      setModelNote({
        text: `${r.model} read ${r.windows} window${r.windows === 1 ? '' : 's'} (${r.turns_covered} turns): ${r.counts.proposed} proposed for review, ${r.counts.rejected} refused by the gate, ${r.counts.duplicate} already known.${r.problems.length ? ` ${r.problems.join(' ')}` : ''}`,
        ok: r.windows > 0,
      });
      view.reload();
    } catch (err) {
      setModelNote({ text: toLociError(err).message, ok: false });
    } finally {
      setDistilling(null);
    }
  };

  const toggle = (cls: TurnClass) =>
    setClasses((now) =>
      now.includes(cls) ? (now.length > 1 ? now.filter((x) => x !== cls) : now) : [...now, cls],
    );

  return (
    <section className="jr-detail" aria-label={`Session ${j.id}`}>
      <header className="jr-detail-head">
        <div>
          <h2 className="jr-h2">{j.cwd ?? j.source}</h2>
          <p className="jr-muted">
            {j.format} · {j.started_at ? <TimeAgo iso={j.started_at} /> : 'no time in the log'}
            {j.session ? ` · session ${j.session}` : ''}
            {j.episode_id ? (
              <>
                {' · '}
                <a href={routeHref(`/memories/${j.episode_id}`)}>the episode memory</a>
              </>
            ) : null}
          </p>
          <p className="jr-muted">
            {j.lines} lines: {a.used} read, {a.skipped_total} not readable
            {a.not_kept ? `, ${a.not_kept} past the budget` : ''} · {a.turns} turns (
            {EVIDENCE_CLASSES.map((c) => `${a.by_class[c]} ${c}`).join(', ')})
            {a.quarantined ? ` · ${a.quarantined} quarantined` : ''}
          </p>
        </div>
        <Button icon="dreams" busy={distilling !== null} onClick={() => void distil()}>
          {distilling && distilling.windows > 0
            ? `Asking the model… ${distilling.windows}/${distilling.total}`
            : 'Distil with the model'}
        </Button>
      </header>

      {modelNote ? (
        <p className={modelNote.ok ? 'jr-note' : 'jr-note jr-note-error'} role="status">
          {modelNote.text}
        </p>
      ) : null}

      <div className="jr-columns">
        <div className="jr-candidates-col">
          <h3 className="jr-h3">Distilled ({candidates.length})</h3>
          {candidates.length === 0 ? (
            <p className="jr-muted">
              Nothing was drawn from this session: no explicit instruction, correction, error →
              remedy or configuration value, and no model or agent proposed anything.
            </p>
          ) : (
            <ol className="jr-candidates">
              {candidates.map((c) => (
                <Candidate
                  key={c.n}
                  c={c}
                  chosen={chosen === c.n}
                  onChoose={() => setChosen(chosen === c.n ? null : c.n)}
                />
              ))}
            </ol>
          )}
        </div>

        <div className="jr-turns-col">
          <div className="jr-toolbar" role="group" aria-label="Show turns of these classes">
            {EVIDENCE_CLASSES.map((c) => (
              <button
                key={c}
                type="button"
                className={`jr-chip jr-class-${c}`}
                aria-pressed={classes.includes(c)}
                title={CLASS_HINT[c]}
                onClick={() => toggle(c)}
              >
                {c} {a.by_class[c]}
              </button>
            ))}
            {a.quarantined ? (
              <Button size="sm" icon={reveal ? 'eyeOff' : 'eye'} onClick={() => setReveal(!reveal)}>
                {reveal ? 'Hide quarantined' : 'Reveal quarantined'}
              </Button>
            ) : null}
          </div>
          <ol className="jr-turns" aria-label="Turns">
            {v.turns.map((t) => (
              <li
                key={t.seq}
                id={`jr-turn-${t.seq}`}
                className={`jr-turn jr-class-${t.class}${chosenSeqs.has(t.seq) || focusTurn === t.seq ? ' jr-turn-chosen' : ''}${t.quarantined ? ' jr-turn-quarantined' : ''}`}
              >
                <div className="jr-turn-head">
                  <span className={`jr-class jr-class-${t.class}`} title={CLASS_HINT[t.class]}>
                    {t.class}
                  </span>
                  <span className="jr-muted">
                    turn {t.seq} · line {t.line}
                    {t.tool ? ` · ${t.tool}` : ''}
                    {t.exit !== null ? ` · exit ${t.exit}` : ''}
                  </span>
                </div>
                <pre className="jr-turn-text">
                  <TurnText turn={t} candidates={candidates} chosen={chosen} />
                </pre>
              </li>
            ))}
          </ol>
          {v.total > v.turns.length ? (
            <Button onClick={() => setLimit(limit + PAGE)}>
              Show more turns ({v.turns.length} of {v.total})
            </Button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
