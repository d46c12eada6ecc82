// A memory's tags: each can be removed or used as a list filter; new ones are typed in
// (Enter or comma adds; several at once separated by commas). Changes go through
// memory.tag, which adds and removes without touching anything else.
import { useState, type KeyboardEvent } from 'react';
import type { MemoryView } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { useMemoryActions } from './useMemoryActions';
import { TAG_MAX_CHARS, TAGS_MAX } from './model';

export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

export function TagEditor({
  memory,
  onFilterTag,
}: {
  memory: MemoryView;
  onFilterTag: (tag: string) => void;
}) {
  const actions = useMemoryActions();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const readOnly = memory.deleted_at !== null;
  const target = { id: memory.id, title: memory.title };

  const add = async () => {
    if (busy) return;
    const tags = parseTags(draft).filter((t) => !memory.tags.includes(t));
    if (!tags.length) {
      setDraft('');
      return;
    }
    setBusy(true);
    const outcome = await actions.tag([target], tags, [], true);
    setBusy(false);
    if (outcome.ok.length) setDraft('');
  };
  const remove = async (tag: string) => {
    setBusy(true);
    await actions.tag([target], [], [tag], true);
    setBusy(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void add();
    }
  };

  return (
    <section className="mem-section" aria-labelledby="mem-tags">
      <h3 id="mem-tags" className="mem-section-title">
        Tags
      </h3>
      <div className="mem-tags-edit">
        {memory.tags.length === 0 ? <span className="muted">No tags.</span> : null}
        {memory.tags.map((t) => (
          <span key={t} className="mem-tag mem-tag-chip">
            <button
              type="button"
              className="mem-chip-label"
              title={`List the memories tagged “${t}”`}
              onClick={() => onFilterTag(t)}
            >
              {t}
            </button>
            {readOnly ? null : (
              <button
                type="button"
                className="mem-chip-x"
                aria-label={`Remove the tag “${t}”`}
                disabled={busy}
                onClick={() => void remove(t)}
              >
                <Icon name="close" size={11} />
              </button>
            )}
          </span>
        ))}
        {readOnly || memory.tags.length >= TAGS_MAX ? null : (
          <input
            className="input mem-tag-input"
            aria-label="Add tags (comma separated, Enter to add)"
            placeholder="Add a tag…"
            value={draft}
            maxLength={TAG_MAX_CHARS * 4}
            aria-busy={busy || undefined}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
          />
        )}
      </div>
    </section>
  );
}
