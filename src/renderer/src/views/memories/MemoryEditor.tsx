// Editing a memory's title, text, kind and visibility. Only what changed is sent, with
// the version the edit started from: when someone (an agent) changed the memory
// meanwhile, the engine answers `conflict`; the draft is kept, the memory reloads, and the
// next save is a deliberate overwrite of the newer version.
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { MemoryView } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import type { MemoryKind, Visibility } from '../../../../shared/schemas';
import { Button } from '../../components/Button';
import { modKeyLabel } from '../../components/Kbd';
import { KINDS } from '../../components/KindBadge';
import { useEngineClient } from '../../lib/engineContext';
import { formatCount } from '../../lib/format';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { hasVisibleText } from '../../../../shared/text';
import {
  CONTENT_MAX_BYTES,
  SESSION_MAX_CHARS,
  SPEAKER_MAX_CHARS,
  TITLE_MAX_CHARS,
  utf8Bytes,
} from './model';

/** An ISO time as a datetime-local input shows it (local time, minutes). */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value as ISO (null when empty or unreadable). */
function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export function MemoryEditor({
  memory,
  onDone,
  onReload,
}: {
  memory: MemoryView;
  onDone: () => void;
  onReload: () => void;
}) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const ids = useId();
  const [title, setTitle] = useState(memory.title);
  const [content, setContent] = useState(memory.content);
  const [kind, setKind] = useState<MemoryKind>(memory.kind);
  const [visibility, setVisibility] = useState<Visibility>(memory.visibility);
  const [speaker, setSpeaker] = useState(memory.speaker ?? '');
  const [session, setSession] = useState(memory.session ?? '');
  const [happened, setHappened] = useState(toLocalInput(memory.occurred_at));
  const [base, setBase] = useState(memory.version);
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<LociError | null>(null);
  const [busy, setBusy] = useState(false);

  // After a conflict the reloaded memory is the one a save replaces.
  useEffect(() => {
    if (conflict) setBase((b) => Math.max(b, memory.version));
  }, [conflict, memory.version]);

  const bytes = utf8Bytes(content);
  const contentProblem = !hasVisibleText(content)
    ? 'The text cannot be empty.'
    : bytes > CONTENT_MAX_BYTES
      ? `The text is ${formatCount(bytes)} bytes; at most ${formatCount(CONTENT_MAX_BYTES)}.`
      : null;
  const titleProblem = title.trim() ? null : 'The title cannot be empty.';
  const happenedIso = fromLocalInput(happened);
  const happenedProblem =
    happened && happenedIso === null ? 'Give a date and time, or leave it empty.' : null;
  const line = (v: string) => (v.trim() ? v.trim() : null);

  const patch = {
    ...(title.trim() !== memory.title ? { title: title.trim() } : {}),
    ...(content !== memory.content ? { content } : {}),
    ...(kind !== memory.kind ? { kind } : {}),
    ...(visibility !== memory.visibility ? { visibility } : {}),
    ...(line(speaker) !== memory.speaker ? { speaker: line(speaker) } : {}),
    ...(line(session) !== memory.session ? { session: line(session) } : {}),
    // Compared at the input's precision (minutes), so an untouched field sends nothing.
    ...(happenedIso !== fromLocalInput(toLocalInput(memory.occurred_at)) && !happenedProblem
      ? { occurred_at: happenedIso }
      : {}),
  };
  const dirty = Object.keys(patch).length > 0;

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || contentProblem || titleProblem || happenedProblem) return;
    if (!dirty) {
      onDone();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await client.call('memory.update', {
        ...(store ? { store } : {}),
        id: memory.id,
        ...patch,
        expected_version: base,
      });
      useUiStore.getState().toast({
        message:
          result.change === 'unchanged'
            ? 'Nothing changed.'
            : `Saved as version ${result.version}.`,
        tone: 'success',
      });
      onDone();
    } catch (err) {
      const e = toLociError(err);
      if (e.code === 'conflict') {
        // The engine says which version is current; the reload shows it.
        const now = typeof e.data?.version === 'number' ? e.data.version : null;
        setConflict(true);
        if (now !== null) setBase(now);
        onReload();
      } else {
        setError(e);
      }
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  };

  return (
    <form
      className="mem-editor"
      onSubmit={(e) => void save(e)}
      onKeyDown={onKeyDown}
      aria-label="Edit the memory"
    >
      {conflict ? (
        <div className="mem-banner mem-banner-warn" role="alert">
          <strong>It changed while you were editing.</strong> Someone else saved version{' '}
          {Math.max(base, memory.version)} meanwhile; it is shown under Versions. Your draft is
          kept: saving now replaces that version with your text.
        </div>
      ) : null}
      <label className="mem-form-field" htmlFor={`${ids}-title`}>
        <span className="mem-field-label">Title</span>
      </label>
      <input
        id={`${ids}-title`}
        className="input"
        value={title}
        maxLength={TITLE_MAX_CHARS}
        aria-invalid={titleProblem ? true : undefined}
        aria-describedby={titleProblem ? `${ids}-title-err` : undefined}
        onChange={(e) => setTitle(e.target.value)}
      />
      {titleProblem ? (
        <p id={`${ids}-title-err`} className="mem-form-error">
          {titleProblem}
        </p>
      ) : null}
      <label className="mem-form-field" htmlFor={`${ids}-content`}>
        <span className="mem-field-label">Text</span>
        <span className="muted num">{formatCount(bytes)} bytes</span>
      </label>
      <textarea
        id={`${ids}-content`}
        className="input mem-textarea"
        value={content}
        rows={Math.min(16, Math.max(5, content.split('\n').length + 1))}
        aria-invalid={contentProblem ? true : undefined}
        aria-describedby={contentProblem ? `${ids}-content-err` : undefined}
        onChange={(e) => setContent(e.target.value)}
      />
      {contentProblem ? (
        <p id={`${ids}-content-err`} className="mem-form-error">
          {contentProblem}
        </p>
      ) : null}
      <div className="mem-editor-row">
        <label className="mem-field">
          <span className="mem-field-label">Kind</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as MemoryKind)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label className="mem-field">
          <span className="mem-field-label">Visibility</span>
          <select value={visibility} onChange={(e) => setVisibility(e.target.value as Visibility)}>
            <option value="shared">Shared with every agent</option>
            <option value="private">Private</option>
          </select>
        </label>
      </div>
      <div className="mem-editor-row" role="group" aria-label="Conversation">
        <label className="mem-field">
          <span className="mem-field-label">Said by</span>
          <input
            className="input"
            value={speaker}
            maxLength={SPEAKER_MAX_CHARS}
            placeholder="nobody in particular"
            onChange={(e) => setSpeaker(e.target.value)}
          />
        </label>
        <label className="mem-field">
          <span className="mem-field-label">Session</span>
          <input
            className="input"
            value={session}
            maxLength={SESSION_MAX_CHARS}
            placeholder="none"
            onChange={(e) => setSession(e.target.value)}
          />
        </label>
        <label className="mem-field">
          <span className="mem-field-label">Happened</span>
          <input
            type="datetime-local"
            className="input"
            value={happened}
            aria-invalid={happenedProblem ? true : undefined}
            onChange={(e) => setHappened(e.target.value)}
          />
        </label>
      </div>
      {happenedProblem ? <p className="mem-form-error">{happenedProblem}</p> : null}
      {error ? (
        <p className="mem-form-error" role="alert">
          Could not save: {error.message} <span className="state-code">({error.code})</span>
        </p>
      ) : null}
      <div className="mem-editor-actions">
        <Button
          type="submit"
          variant="primary"
          busy={busy}
          disabled={!!contentProblem || !!titleProblem || !!happenedProblem}
        >
          {conflict ? 'Save over the newer version' : 'Save'}
        </Button>
        <Button onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <span className="muted mem-editor-hint">{modKeyLabel()}+Enter saves</span>
      </div>
    </form>
  );
}
