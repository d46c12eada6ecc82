// Marking an opened recall for the quality lab: "this one was wrong" on a returned result,
// and "this recall missed…" with a search for the memory that should have come back.
// Marks are eval cases in the store (`eval.mark`); what is already marked for this query
// is read back from `eval.cases`, so reopening the call shows it.
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { EvalCase } from '../../../../shared/eval';
import type { RecallHit } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { ErrorState } from '../../components/ErrorState';
import { KindBadge } from '../../components/KindBadge';
import { useEngineClient } from '../../lib/engineContext';
import { navigate } from '../../lib/router';
import { toLociError, useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import type { LociError } from '../../../../shared/errors';

export interface MarkTarget {
  query: string;
  /** The store the recall searched (absent: the default store). */
  store: string | undefined;
  callId: number;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** The marks already made for this query, and a way to add one. */
export function useRecallMarks(target: MarkTarget) {
  const client = useEngineClient();
  const storeArg = target.store ? { store: target.store } : {};
  const cases = useEngineQuery('eval.cases', storeArg, { refreshOn: ['eval.changed'] });
  const existing: EvalCase | undefined = cases.data?.cases.find(
    (c) => c.query === target.query.trim(),
  );
  const [busy, setBusy] = useState<string | null>(null);
  const mark = async (kind: 'missed' | 'wrong', id: string, title: string) => {
    setBusy(id);
    try {
      await client.call('eval.mark', {
        ...storeArg,
        query: target.query,
        call_id: target.callId,
        ...(kind === 'missed' ? { missed: [id] } : { wrong: [id] }),
      });
      cases.reload();
      useUiStore.getState().toast({
        message:
          kind === 'missed'
            ? `Marked “${title}” as missed by this recall.`
            : `Marked “${title}” as a wrong result.`,
        tone: 'success',
        action: { label: 'Open Quality', run: () => navigate('/quality') },
      });
      return true;
    } catch (err) {
      useUiStore
        .getState()
        .toast({ message: `Could not mark it: ${toLociError(err).message}`, tone: 'error' });
      return false;
    } finally {
      setBusy(null);
    }
  };
  return {
    expected: new Set(existing?.expected.map((m) => m.id) ?? []),
    wrong: new Set(existing?.wrong.map((m) => m.id) ?? []),
    busy,
    mark,
  };
}

export type RecallMarks = ReturnType<typeof useRecallMarks>;

export function WrongButton({
  marks,
  id,
  title,
}: {
  marks: RecallMarks;
  id: string;
  title: string;
}) {
  const isWrong = marks.wrong.has(id);
  return (
    <Button
      size="sm"
      variant="ghost"
      icon={isWrong ? 'check' : 'alert'}
      aria-pressed={isWrong}
      disabled={isWrong}
      busy={marks.busy === id}
      data-testid="mark-wrong"
      aria-label={isWrong ? `Marked wrong: ${title}` : `This one was wrong: ${title}`}
      onClick={() => void marks.mark('wrong', id, title)}
    >
      {isWrong ? 'Marked wrong' : 'This one was wrong'}
    </Button>
  );
}

interface Found {
  id: string;
  title: string;
  kind: RecallHit['kind'];
}

/** "This recall missed…": find the memory that should have come back, and mark it. */
export function MissedDialog({
  open,
  onClose,
  target,
  marks,
  returned,
}: {
  open: boolean;
  onClose: () => void;
  target: MarkTarget;
  marks: RecallMarks;
  /** Ids this recall returned, in rank order. */
  returned: string[];
}) {
  const client = useEngineClient();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [text, setText] = useState(target.query);
  const [found, setFound] = useState<Found[] | null>(null);
  const [error, setError] = useState<LociError | null>(null);
  const [searching, setSearching] = useState(false);
  const rankOf = useMemo(() => new Map(returned.map((id, i) => [id, i + 1])), [returned]);

  const search = async (event?: FormEvent) => {
    event?.preventDefault();
    const q = text.trim();
    if (!q) return;
    setSearching(true);
    setError(null);
    const storeArg = target.store ? { store: target.store } : {};
    try {
      if (ULID.test(q)) {
        const m = await client.call('memory.get', { ...storeArg, id: q });
        setFound([{ id: m.id, title: m.title, kind: m.kind }]);
      } else {
        // A person's look: no rehearsal, so searching here does not change the ranking.
        const r = await client.call('memory.recall', {
          ...storeArg,
          query: q,
          limit: 10,
          rehearse: false,
        });
        setFound(r.results.map((h) => ({ id: h.id, title: h.title, kind: h.kind })));
      }
    } catch (err) {
      setError(toLociError(err));
      setFound(null);
    } finally {
      setSearching(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Which memory did this recall miss?"
      initialFocus={input}
      className="act-missed-dialog"
    >
      <p className="muted">
        The agent asked <q>{target.query}</q>. Find the memory it should have been given (words from
        it, or its id) and mark it: the quality lab then checks every run finds it.
      </p>
      <form className="act-missed-form" onSubmit={(e) => void search(e)} role="search">
        <label htmlFor={inputId} className="visually-hidden">
          Search memories
        </label>
        <input
          id={inputId}
          ref={input}
          type="search"
          className="input"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Words from the memory, or its id"
        />
        <Button type="submit" icon="search" busy={searching}>
          Search
        </Button>
      </form>
      {error ? (
        <ErrorState compact title="The search failed" error={error} onRetry={() => void search()} />
      ) : null}
      {found !== null && found.length === 0 ? (
        <p className="muted" role="status">
          Nothing found for these words: try others, or paste the memory&apos;s id.
        </p>
      ) : null}
      {found && found.length > 0 ? (
        <ul className="act-missed-list" aria-label="Memories found">
          {found.map((m) => {
            const marked = marks.expected.has(m.id);
            const rank = rankOf.get(m.id);
            return (
              <li key={m.id} className="act-missed-item" data-memory={m.id}>
                <span className="act-missed-title">
                  {m.title}
                  <KindBadge kind={m.kind} />
                  {rank ? <span className="muted">returned at #{rank}</span> : null}
                </span>
                <Button
                  size="sm"
                  variant={marked ? 'ghost' : 'primary'}
                  icon={marked ? 'check' : 'plus'}
                  disabled={marked}
                  busy={marks.busy === m.id}
                  aria-label={marked ? `Marked missed: ${m.title}` : `Mark as missed: ${m.title}`}
                  onClick={() => void marks.mark('missed', m.id, m.title)}
                >
                  {marked ? 'Marked missed' : 'Mark as missed'}
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <div className="act-missed-actions">
        <Button onClick={onClose}>Done</Button>
      </div>
    </Dialog>
  );
}
