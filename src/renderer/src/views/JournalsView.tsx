// Journals: the agent sessions Loci has read (imported transcripts, hooks at the end of a
// session), by project and time. One session shows its classed turns with the spans
// quoted as evidence highlighted, and every candidate distillation drew — accepted or
// refused, with the gate's reason — linked to the memory or review item it became.
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { TimeAgo } from '../components/TimeAgo';
import { navigate } from '../lib/router';
import { useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import type { ViewProps } from './index';
import { JournalDetail } from './journals/JournalDetail';
import { groupByProject } from './journals/journalsModel';
import './journals/journals.css';

export default function JournalsView({ rest, query }: ViewProps) {
  const store = useUiStore((s) => s.store) ?? undefined;
  const list = useEngineQuery(
    'journal.list',
    { ...(store ? { store } : {}), limit: 500 },
    { refreshOn: ['transcript.progressed', 'journal.distill.progressed'] },
  );
  const journals = list.data?.journals ?? [];
  const selected = rest[0] ?? journals[0]?.id ?? null;
  const turn = Number(query.get('turn'));
  const focusTurn = Number.isInteger(turn) && turn >= 0 && query.has('turn') ? turn : null;

  return (
    <div className="view jr-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Journals</h1>
          <p className="view-subtitle">
            Agent sessions, turn by turn with who said what (USER, TOOL, ACT, SELF), and what was
            distilled from them with its evidence.
          </p>
        </div>
      </header>
      {list.loading ? (
        <LoadingState label="Loading sessions…" />
      ) : list.error && !list.data ? (
        <ErrorState title="Could not load the sessions" error={list.error} onRetry={list.reload} />
      ) : journals.length === 0 ? (
        <EmptyState icon="journals" title="No session read yet">
          <p>
            Import an agent&apos;s transcript with{' '}
            <code>loci import-transcript &lt;file|folder&gt;</code> (Claude Code&apos;s{' '}
            <code>~/.claude/projects</code>, Codex CLI&apos;s <code>~/.codex/sessions</code>, or the
            generic JSONL), or install the hooks with <code>loci setup hooks</code> so that every
            Claude Code session is read when it ends.
          </p>
        </EmptyState>
      ) : (
        <div className="jr-split">
          <nav className="jr-sessions" aria-label="Sessions by project">
            {groupByProject(journals).map(([project, items]) => (
              <section key={project} className="jr-project">
                <h2 className="jr-project-name">{project}</h2>
                <ol className="jr-session-list">
                  {items.map((j) => (
                    <li key={j.id}>
                      <button
                        type="button"
                        className="jr-session"
                        aria-current={j.id === selected ? 'true' : undefined}
                        onClick={() => navigate(`/journals/${j.id}`)}
                      >
                        <span className="jr-session-title">
                          {j.started_at ? <TimeAgo iso={j.started_at} /> : 'Undated session'}
                        </span>
                        <span className="jr-muted">
                          {j.format} · {j.turns} turns
                        </span>
                      </button>
                    </li>
                  ))}
                </ol>
              </section>
            ))}
          </nav>
          {selected ? (
            <JournalDetail key={selected} store={store} id={selected} focusTurn={focusTurn} />
          ) : null}
        </div>
      )}
    </div>
  );
}
