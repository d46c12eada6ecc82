// The review inbox: what dreams propose to write, each with the evidence behind it (the
// memories it rests on, a diff for changes to an existing memory). Accept, edit then
// accept, or reject — one at a time or the selected ones together (one transaction).
import { useMemo, useState } from 'react';
import type { ReviewItemView, ReviewState } from '../../../../shared/api';
import { MemoryRef, useMemoryTitles } from '../../components/MemoryRef';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { KIND_LABEL, plural } from './dreamsModel';

type Filter = ReviewState | 'all';

function Proposal({ item }: { item: ReviewItemView }) {
  const p = item.proposal;
  if (item.kind === 'link') {
    return (
      <p className="dr-muted">
        A <code>{String(p.type)}</code> link of weight {String(p.weight)} (word similarity{' '}
        {String(p.similarity)}) between the two memories below.
      </p>
    );
  }
  return (
    <div className="dr-proposal">
      <p className="dr-proposal-title">{String(p.title ?? '')}</p>
      {item.diff ? (
        <pre className="dr-diff" aria-label="Changes to the existing text">
          {item.diff.split('\n').map((line, i) => (
            <span
              key={i}
              className={
                line.startsWith('+ ') ? 'dr-add' : line.startsWith('- ') ? 'dr-del' : undefined
              }
            >
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      ) : (
        <pre className="dr-text">{String(p.content ?? '')}</pre>
      )}
    </div>
  );
}

function Editor({
  item,
  busy,
  onSave,
  onCancel,
}: {
  item: ReviewItemView;
  busy: boolean;
  onSave: (edit: { title: string; content: string }) => void;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState(String(item.proposal.title ?? ''));
  const [content, setContent] = useState(String(item.proposal.content ?? ''));
  return (
    <form
      className="dr-editor"
      aria-label="Edit before accepting"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ title, content });
      }}
    >
      <label className="dr-field">
        <span>Title</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
      </label>
      <label className="dr-field">
        <span>Text</span>
        <textarea value={content} onChange={(e) => setContent(e.target.value)} rows={8} required />
      </label>
      <div className="dr-actions">
        <Button type="submit" variant="primary" icon="check" busy={busy}>
          Save and accept
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function ReviewInbox({ store }: { store: string | undefined }) {
  const client = useEngineClient();
  const [filter, setFilter] = useState<Filter>('pending');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const q = useEngineQuery(
    'review.list',
    { ...(store ? { store } : {}), state: filter, limit: 200 },
    { refreshOn: ['review.changed', 'dream.finished'] },
  );
  const titles = useMemoryTitles(
    useMemo(() => (q.data?.items ?? []).flatMap((item) => item.result_ids), [q.data]),
  );

  const decide = async (
    action: 'accept' | 'reject',
    ids: string[],
    edit?: { title: string; content: string },
  ) => {
    setBusy(ids.length === 1 ? `${action}:${ids[0]}` : `${action}:bulk`);
    const toast = useUiStore.getState().toast;
    try {
      const r =
        action === 'accept'
          ? await client.call('review.accept', {
              ...(store ? { store } : {}),
              ids,
              ...(edit ? { edit } : {}),
            })
          : await client.call('review.reject', { ...(store ? { store } : {}), ids });
      toast({
        message: `${action === 'accept' ? 'Accepted' : 'Rejected'} ${plural(r.results.length, 'proposal')}.`,
        tone: 'success',
      });
      setSelected(new Set());
      setEditing(null);
      q.reload();
    } catch (err) {
      toast({ message: toLociError(err).message, tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const items = q.data?.items ?? [];
  const pending = items.filter((i) => i.state === 'pending');
  const allSelected = pending.length > 0 && pending.every((i) => selected.has(i.id));
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="dr-inbox">
      <div className="dr-toolbar" role="group" aria-label="Review inbox actions">
        <label className="dr-field dr-field-inline">
          <span>Show</span>
          <select
            value={filter}
            onChange={(e) => (setFilter(e.target.value as Filter), setSelected(new Set()))}
          >
            <option value="pending">Pending</option>
            <option value="accepted">Accepted</option>
            <option value="rejected">Rejected</option>
            <option value="all">All</option>
          </select>
        </label>
        {pending.length > 0 ? (
          <>
            <label className="dr-check">
              <input
                type="checkbox"
                checked={allSelected}
                onChange={() =>
                  setSelected(allSelected ? new Set() : new Set(pending.map((i) => i.id)))
                }
              />
              Select all pending
            </label>
            <Button
              size="sm"
              variant="primary"
              icon="check"
              disabled={selected.size === 0}
              busy={busy === 'accept:bulk'}
              onClick={() => void decide('accept', [...selected])}
            >
              Accept selected ({selected.size})
            </Button>
            <Button
              size="sm"
              variant="danger"
              icon="close"
              disabled={selected.size === 0}
              busy={busy === 'reject:bulk'}
              onClick={() => void decide('reject', [...selected])}
            >
              Reject selected ({selected.size})
            </Button>
          </>
        ) : null}
        {q.data ? (
          <span className="dr-muted dr-counts">
            {q.data.counts.pending} pending · {q.data.counts.accepted} accepted ·{' '}
            {q.data.counts.rejected} rejected
          </span>
        ) : null}
      </div>

      {q.loading ? (
        <LoadingState label="Loading the review inbox…" />
      ) : q.error && !q.data ? (
        <ErrorState title="Could not load the review inbox" error={q.error} onRetry={q.reload} />
      ) : items.length === 0 ? (
        <EmptyState
          icon="check"
          title={filter === 'pending' ? 'Nothing waits for review' : 'No proposals here'}
        >
          <p>
            Schema summaries, merges of near-duplicates, new links and refined procedures that a
            dream proposes wait here until you accept or reject them. Run a dream to look for some.
          </p>
        </EmptyState>
      ) : (
        <ul className="dr-items" aria-label="Proposals">
          {items.map((item) => (
            <li key={item.id} className="card dr-item" aria-labelledby={`dr-item-${item.id}`}>
              <div className="dr-item-head">
                {item.state === 'pending' ? (
                  <input
                    type="checkbox"
                    checked={selected.has(item.id)}
                    onChange={() => toggle(item.id)}
                    aria-label={`Select: ${item.title}`}
                  />
                ) : null}
                <div className="dr-item-title">
                  <h2 id={`dr-item-${item.id}`} className="dr-h3">
                    {item.title}
                  </h2>
                  <span className="dr-muted">
                    {KIND_LABEL[item.kind]} · from {item.source} · <TimeAgo iso={item.created_at} />
                    {item.state !== 'pending'
                      ? ` · ${item.state} by ${item.decided_by ?? '?'}`
                      : ''}
                    {item.reason ? ` (${item.reason})` : ''}
                  </span>
                </div>
              </div>
              {editing === item.id ? (
                <Editor
                  item={item}
                  busy={busy === `accept:${item.id}`}
                  onSave={(edit) => void decide('accept', [item.id], edit)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <Proposal item={item} />
              )}
              <details className="dr-evidence" open={item.kind !== 'schema'}>
                <summary>Evidence: {plural(item.evidence.length, 'memory', 'memories')}</summary>
                <ul>
                  {item.evidence.map((e, i) => (
                    <li key={e.id ?? i}>
                      {e.id ? (
                        <a href={`#/memories/${e.id}`}>{e.title}</a>
                      ) : (
                        <strong>{e.title}</strong>
                      )}
                      {e.note ? <span className="dr-muted"> — {e.note}</span> : null}
                      <p className="dr-excerpt">{e.excerpt}</p>
                    </li>
                  ))}
                </ul>
              </details>
              {item.state === 'pending' && editing !== item.id ? (
                <div className="dr-actions">
                  <Button
                    size="sm"
                    variant="primary"
                    icon="check"
                    busy={busy === `accept:${item.id}`}
                    onClick={() => void decide('accept', [item.id])}
                  >
                    Accept
                  </Button>
                  {item.kind !== 'link' ? (
                    <Button size="sm" icon="pencil" onClick={() => setEditing(item.id)}>
                      Edit then accept
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="close"
                    busy={busy === `reject:${item.id}`}
                    onClick={() => void decide('reject', [item.id])}
                  >
                    Reject
                  </Button>
                </div>
              ) : null}
              {item.state === 'accepted' && item.result_ids.length ? (
                <p className="dr-muted">
                  Wrote{' '}
                  {item.result_ids.map((id, i) => (
                    <span key={id}>
                      {i ? ', ' : ''}
                      <MemoryRef id={id} book={titles} />
                    </span>
                  ))}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
