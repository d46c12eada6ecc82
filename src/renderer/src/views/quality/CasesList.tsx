// The marked cases of the quality lab: each query with the memories it should return
// (missed) and should not (wrong), where it was marked from, and a way to remove it.
import { useState } from 'react';
import type { EvalCase, EvalCaseMemory } from '../../../../shared/eval';
import { Button } from '../../components/Button';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { routeHref } from '../../lib/router';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';

function Memories({ label, memories }: { label: string; memories: EvalCaseMemory[] }) {
  if (memories.length === 0) return null;
  return (
    <div className="q-case-group">
      <span className="q-case-label">{label}</span>
      <ul className="q-case-memories">
        {memories.map((m) => (
          <li key={m.id} className={m.gone ? 'is-gone' : undefined}>
            {m.title !== null ? (
              <a href={routeHref(`/memories/${m.id}`)}>{m.title}</a>
            ) : (
              <code>{m.id}</code>
            )}
            {m.gone ? <span className="muted"> (gone: not counted)</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function CasesList({ cases, store }: { cases: EvalCase[]; store: string | undefined }) {
  const client = useEngineClient();
  const [removing, setRemoving] = useState<string | null>(null);

  const remove = async (c: EvalCase) => {
    setRemoving(c.id);
    try {
      await client.call('eval.remove', { ...(store ? { store } : {}), id: c.id });
      useUiStore.getState().toast({ message: `Removed the case “${c.query}”.`, tone: 'success' });
    } catch (err) {
      useUiStore
        .getState()
        .toast({ message: `Could not remove it: ${toLociError(err).message}`, tone: 'error' });
    } finally {
      setRemoving(null);
    }
  };

  return (
    <ul className="q-cases" aria-label="Marked cases">
      {cases.map((c) => (
        <li key={c.id} className="q-case" data-case={c.id}>
          <div className="q-case-head">
            <q className="q-case-query">{c.query}</q>
            <span className="muted">
              by {c.actor}
              {c.call_id !== null ? ` from call #${c.call_id}` : ''} ·{' '}
              <TimeAgo iso={c.updated_at} />
            </span>
            <Button
              size="sm"
              variant="ghost"
              icon="trash"
              busy={removing === c.id}
              aria-label={`Remove the case “${c.query}”`}
              onClick={() => void remove(c)}
            >
              Remove
            </Button>
          </div>
          <Memories label="Missed (should be found)" memories={c.expected} />
          <Memories label="Wrong (should not be returned)" memories={c.wrong} />
        </li>
      ))}
    </ul>
  );
}
