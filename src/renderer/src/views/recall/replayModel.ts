// The replay of a recall, computed from its explain trace: one column per pipeline stage
// (stages that did not run stay as placeholders), the order the stages are stepped
// through, and for each memory chip where it came from (which earlier column, which row)
// and whether a later stage dropped it. Pure: the components only draw what this says.
import type { RecallTrace, TraceItem, TraceStage } from '../../../../shared/api';
import { STAGES, stageInfo, type StageInfo, type StageName } from './stages';

/** Chips drawn per column; the rest are counted. */
export const VISIBLE_CHIPS = 8;

/** Where a stage's memories come from: chips fly in from these columns. */
const SOURCES: Partial<Record<StageName, StageName[]>> = {
  fusion: ['lexical', 'vector'],
  spreading: ['fusion'],
  ranking: ['fusion', 'spreading'],
  diversity: ['ranking'],
  budget: ['diversity'],
};

/** Stages that keep some of their input: a memory they lack was dropped by them. */
const FILTERS: ReadonlySet<StageName> = new Set<StageName>(['diversity', 'budget']);

export interface ReplayColumn {
  info: StageInfo;
  /** Null when the stage did not run (fast path, abstention, an older engine). */
  stage: TraceStage | null;
  /** Position on the board, left to right. */
  index: number;
  /** Position in the replay (0-based), null when the stage did not run. */
  step: number | null;
}

export interface Replay {
  query: string;
  terms: string[];
  columns: ReplayColumn[];
  /** The columns that ran, in the order they ran. */
  steps: ReplayColumn[];
}

export function buildReplay(trace: RecallTrace): Replay {
  const byName = new Map(trace.stages.map((s) => [s.name as string, s]));
  const names: string[] = [
    ...STAGES.map((s) => s.name),
    // A stage a newer engine reports, which this list does not know yet.
    ...trace.stages.map((s) => s.name).filter((n) => !STAGES.some((s) => s.name === n)),
  ];
  const columns: ReplayColumn[] = names.map((name, index) => ({
    info: stageInfo(name),
    stage: byName.get(name) ?? null,
    index,
    step: null,
  }));
  const steps: ReplayColumn[] = [];
  for (const stage of trace.stages) {
    const column = columns.find((c) => c.info.name === stage.name);
    if (column && column.step === null) {
      column.step = steps.length;
      steps.push(column);
    }
  }
  return { query: trace.query, terms: trace.terms, columns, steps };
}

export interface ChipMotion {
  /** How many columns to the left the chip starts (0: it is new here). */
  colsBack: number;
  /** How many rows below (positive) or above (negative) its new row it starts. */
  rowsBack: number;
  /** It first appears at this stage. */
  fresh: boolean;
  /** Places gained (positive) or lost since the column it came from. */
  moved: number | null;
  /** The stage it came from (null when it is new here). */
  via: StageName | null;
}

/** Where each visible chip of a column comes from, by memory id. */
export function chipMotions(replay: Replay, column: ReplayColumn): Map<string, ChipMotion> {
  const out = new Map<string, ChipMotion>();
  const items = column.stage?.items ?? [];
  const sources = (SOURCES[column.info.name] ?? [])
    .map((name) => replay.columns.find((c) => c.info.name === name))
    .filter((c): c is ReplayColumn => Boolean(c?.stage));
  items.slice(0, VISIBLE_CHIPS).forEach((item, row) => {
    for (const source of sources) {
      const from = (source.stage as TraceStage).items.findIndex((i) => i.id === item.id);
      if (from < 0) continue;
      out.set(item.id, {
        colsBack: column.index - source.index,
        rowsBack: Math.min(from, VISIBLE_CHIPS) - row,
        fresh: false,
        moved: from - row,
        via: source.info.name,
      });
      return;
    }
    out.set(item.id, { colsBack: 0, rowsBack: 0, fresh: true, moved: null, via: null });
  });
  return out;
}

/**
 * The ids of a column's chips that a later, already revealed filter stage (diversity,
 * budget) did not keep.
 */
export function droppedIds(
  replay: Replay,
  column: ReplayColumn,
  revealedStep: number,
): Set<string> {
  const out = new Set<string>();
  if (!column.stage) return out;
  const next = replay.columns.find(
    (c) =>
      FILTERS.has(c.info.name) &&
      c.stage !== null &&
      c.step !== null &&
      c.step <= revealedStep &&
      (SOURCES[c.info.name] ?? []).includes(column.info.name),
  );
  if (!next?.stage) return out;
  const kept = new Set(next.stage.items.map((i) => i.id));
  for (const item of column.stage.items.slice(0, VISIBLE_CHIPS))
    if (!kept.has(item.id)) out.add(item.id);
  return out;
}

/** How wide a chip's score bar is (0–1): scores on a 0–1 scale as they are, BM25 by rank. */
export function barShare(stage: TraceStage, item: TraceItem, row: number): number {
  if (stage.name === 'lexical') {
    const n = Math.max(1, stage.items.length);
    return Math.max(0.08, 1 - row / n);
  }
  return Math.max(0, Math.min(1, item.score));
}

/** The last stage that has memories to show, for "what the replay ends on". */
export function finalColumn(replay: Replay): ReplayColumn | undefined {
  return replay.steps[replay.steps.length - 1];
}
