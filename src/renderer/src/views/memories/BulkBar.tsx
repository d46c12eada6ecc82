// Actions on every selected memory at once: pin, unpin, add or remove a tag, forget (one
// toast whose Undo restores them all), restore, promote the quarantined ones (after a
// confirmation), erase (after a confirmation that counts them). It replaces the list's header while something is selected.
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { formatCount } from '../../lib/format';
import { EraseDialog, PromoteDialog } from './ConfirmDialogs';
import { useMemoriesStore } from './memoriesStore';
import type { MemoryRow } from './model';
import { parseTags } from './TagEditor';
import { useMemoryActions } from './useMemoryActions';
import type { RowSource } from './useRowSource';

export function BulkBar({
  source,
  onErased,
}: {
  source: RowSource;
  onErased: (ids: string[]) => void;
}) {
  const selected = useMemoriesStore((s) => s.selected);
  const visible = useMemoriesStore((s) => s.visible);
  const refreshSelected = useMemoriesStore((s) => s.refreshSelected);

  // Rows fetched again (after an engine event) update the selection's copies: the
  // versions bulk edits send, pinned and forgotten states.
  useEffect(() => {
    const rows: MemoryRow[] = [];
    for (let i = Math.max(0, visible.first); i <= visible.last && i < source.count; i++) {
      const row = source.row(i);
      if (row) rows.push(row);
    }
    refreshSelected(rows);
  });

  const clear = useMemoriesStore((s) => s.clearSelection);
  const unselect = useMemoriesStore((s) => s.unselect);
  const actions = useMemoryActions();
  const [busy, setBusy] = useState<string | null>(null);
  const [tagging, setTagging] = useState<'add' | 'remove' | null>(null);
  const [draft, setDraft] = useState('');
  const [erasing, setErasing] = useState(false);
  const [promoting, setPromoting] = useState(false);

  const targets = [...selected.values()];
  const live = targets.filter((t) => !t.deleted);
  const forgotten = targets.filter((t) => t.deleted);
  const quarantined = live.filter((t) => t.quarantined);
  const tagsInSelection = [...new Set(live.flatMap((t) => t.tags))].sort();

  const run = async (name: string, fn: () => Promise<unknown>) => {
    setBusy(name);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };

  const submitTags = (event: FormEvent) => {
    event.preventDefault();
    const tags = parseTags(draft);
    if (!tags.length || !tagging) return;
    const mode = tagging;
    void run('tag', async () => {
      await actions.tag(live, mode === 'add' ? tags : [], mode === 'remove' ? tags : []);
      setDraft('');
      setTagging(null);
    });
  };

  return (
    <div className="mem-bulk" role="toolbar" aria-label="Actions on the selected memories">
      <span className="mem-bulk-count" aria-live="polite">
        {formatCount(targets.length)} selected
      </span>
      {tagging ? (
        <form className="mem-bulk-tag" onSubmit={submitTags}>
          <input
            className="input"
            autoFocus
            list={tagging === 'remove' ? 'mem-bulk-tags' : undefined}
            aria-label={tagging === 'add' ? 'Tags to add (comma separated)' : 'Tags to remove'}
            placeholder={tagging === 'add' ? 'Tags to add…' : 'Tags to remove…'}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                setTagging(null);
              }
            }}
          />
          <datalist id="mem-bulk-tags">
            {tagsInSelection.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          <Button type="submit" size="sm" variant="primary" busy={busy === 'tag'}>
            {tagging === 'add' ? 'Add' : 'Remove'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setTagging(null)}>
            Cancel
          </Button>
        </form>
      ) : (
        <>
          {live.length ? (
            <>
              <Button
                size="sm"
                icon="pin"
                busy={busy === 'pin'}
                onClick={() => void run('pin', () => actions.setPinned(live, true))}
              >
                Pin
              </Button>
              <Button
                size="sm"
                busy={busy === 'unpin'}
                onClick={() => void run('unpin', () => actions.setPinned(live, false))}
              >
                Unpin
              </Button>
              <Button size="sm" icon="tag" onClick={() => setTagging('add')}>
                Tag…
              </Button>
              <Button size="sm" onClick={() => setTagging('remove')}>
                Untag…
              </Button>
              <Button
                size="sm"
                icon="trash"
                busy={busy === 'forget'}
                onClick={() =>
                  void run('forget', async () => {
                    const outcome = await actions.forget(live);
                    if (outcome.ok.length) clear();
                  })
                }
              >
                Forget
              </Button>
            </>
          ) : null}
          {forgotten.length ? (
            <Button
              size="sm"
              icon="undo"
              busy={busy === 'restore'}
              onClick={() =>
                void run('restore', async () => {
                  const outcome = await actions.restore(forgotten);
                  if (outcome.ok.length) clear();
                })
              }
            >
              Restore{live.length ? ` ${formatCount(forgotten.length)} forgotten` : ''}
            </Button>
          ) : null}
          {quarantined.length ? (
            <Button size="sm" icon="check" onClick={() => setPromoting(true)}>
              Promote
              {quarantined.length < targets.length
                ? ` ${formatCount(quarantined.length)} quarantined`
                : ''}
              …
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" icon="trash" onClick={() => setErasing(true)}>
            Erase…
          </Button>
        </>
      )}
      <button
        type="button"
        className="icon-btn mem-bulk-clear"
        aria-label="Clear selection"
        title="Clear selection (Esc)"
        onClick={clear}
      >
        <Icon name="close" />
      </button>
      {erasing ? (
        <EraseDialog
          targets={targets}
          onClose={() => setErasing(false)}
          onConfirm={async () => {
            const outcome = await actions.erase(targets);
            unselect(outcome.ok);
            onErased(outcome.ok);
          }}
        />
      ) : null}
      {promoting ? (
        <PromoteDialog
          targets={quarantined}
          reasons={[]}
          onClose={() => setPromoting(false)}
          onConfirm={async () => {
            const outcome = await actions.promote(quarantined);
            if (outcome.ok.length === targets.length) clear();
          }}
        />
      ) : null}
    </div>
  );
}
