// What changed between an earlier version and the current one: title, kind and tags as
// before → after, the text as a word or line diff (jsdiff). Removed text is struck through
// and added text underlined, on tinted backgrounds, so colour is never the only signal;
// screen readers hear "removed" and "added" before each change.
import { diffLines, diffWords, type Change } from 'diff';
import { useMemo } from 'react';
import { KindBadge } from '../../components/KindBadge';
import type { MemoryKind } from '../../../../shared/schemas';

export type DiffMode = 'words' | 'lines';

export interface DiffSide {
  title: string;
  content: string;
  kind: MemoryKind;
  tags: readonly string[];
}

/** Word diffs of very different long texts can take long: past this, lines it is. */
const WORD_DIFF_TIMEOUT_MS = 300;

export function diffText(before: string, after: string, mode: DiffMode): Change[] {
  if (mode === 'words') {
    const words = diffWords(before, after, { timeout: WORD_DIFF_TIMEOUT_MS });
    if (words) return words;
  }
  return diffLines(before, after);
}

export function DiffText({ changes }: { changes: readonly Change[] }) {
  return (
    <>
      {changes.map((c, i) =>
        c.added ? (
          <ins key={i} className="diff-add">
            <span className="visually-hidden">[added: </span>
            {c.value}
            <span className="visually-hidden">]</span>
          </ins>
        ) : c.removed ? (
          <del key={i} className="diff-del">
            <span className="visually-hidden">[removed: </span>
            {c.value}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <span key={i}>{c.value}</span>
        ),
      )}
    </>
  );
}

export function VersionDiff({
  before,
  after,
  mode,
}: {
  before: DiffSide;
  after: DiffSide;
  mode: DiffMode;
}) {
  const content = useMemo(
    () => diffText(before.content, after.content, mode),
    [before.content, after.content, mode],
  );
  const title = useMemo(
    () => (before.title === after.title ? null : diffWords(before.title, after.title)),
    [before.title, after.title],
  );
  const added = after.tags.filter((t) => !before.tags.includes(t));
  const removed = before.tags.filter((t) => !after.tags.includes(t));
  const same = !title && before.kind === after.kind && !added.length && !removed.length;
  const contentSame = before.content === after.content;

  return (
    <div className="mem-diff" data-testid="version-diff">
      {title ? (
        <p className="mem-diff-field">
          <span className="mem-diff-label">Title</span>
          <span>
            <DiffText changes={title} />
          </span>
        </p>
      ) : null}
      {before.kind !== after.kind ? (
        <p className="mem-diff-field">
          <span className="mem-diff-label">Kind</span>
          <span className="mem-diff-kinds">
            <KindBadge kind={before.kind} /> → <KindBadge kind={after.kind} />
          </span>
        </p>
      ) : null}
      {added.length || removed.length ? (
        <p className="mem-diff-field">
          <span className="mem-diff-label">Tags</span>
          <span>
            {removed.map((t) => (
              <del key={`-${t}`} className="diff-del mem-diff-tag">
                <span className="visually-hidden">removed tag </span>
                {t}
              </del>
            ))}
            {added.map((t) => (
              <ins key={`+${t}`} className="diff-add mem-diff-tag">
                <span className="visually-hidden">added tag </span>
                {t}
              </ins>
            ))}
          </span>
        </p>
      ) : null}
      {contentSame ? (
        <p className="muted">
          {same ? 'No difference in the text, title, kind or tags.' : 'The text is the same.'}
        </p>
      ) : (
        <div className={`mem-diff-text mem-diff-${mode}`}>
          <DiffText changes={content} />
        </div>
      )}
    </div>
  );
}
