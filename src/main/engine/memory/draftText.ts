// What the write path works out from a new memory's text alone: its title (derived when
// none was given), kind, affect, full-text columns and the recogniser's keys. Pure, so a
// batch's drafts can be shared out: this thread drafts most of them while the scan
// worker, once it has scanned the batch, drafts the rest (write/scanHost.ts). Both run
// this same function, so where a draft was made never changes what is written.
import type { MemoryKind } from '../../../shared/schemas';
import { appraiseAffect, deriveTitle, inferKind } from '../cognition/appraisal';
import { Recognizer, type RecognizerKeys } from '../recall/recognizer';
import { ftsColumns, type FtsColumns } from '../store/ftsIndex';

export interface TextDraftInput {
  /** The title given, normalised; empty when none was. */
  title: string;
  content: string;
  tags: string[];
  /** The kind given, if any (otherwise it is inferred from the content). */
  kind?: MemoryKind;
}

export interface TextDraft {
  title: string;
  kind: MemoryKind;
  valence: number;
  arousal: number;
  /** The full-text columns other than the content (title, tags, identifier terms). */
  fts: [title: string, tags: string, terms: string];
  recognizerKeys: RecognizerKeys;
}

export function draftText(input: TextDraftInput): TextDraft {
  const { content } = input;
  const derived = input.title.length === 0;
  const title = derived ? deriveTitle(content) : input.title;
  const affect = appraiseAffect(content);
  const [ftsTitle, , tags, terms] = ftsColumns({ title, content, tags: input.tags }, derived);
  return {
    title,
    kind: input.kind ?? inferKind(content),
    valence: affect.valence,
    arousal: affect.arousal,
    fts: [ftsTitle, tags, terms],
    recognizerKeys: Recognizer.keysOf(title, content),
  };
}

/** The four columns memory_fts is written with, from a draft and its content. */
export function draftFtsColumns(draft: TextDraft, content: string): FtsColumns {
  return [draft.fts[0], content, draft.fts[1], draft.fts[2]];
}
