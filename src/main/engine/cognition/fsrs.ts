// FSRS (the Free Spaced Repetition Scheduler, version 6 defaults) through the maintained
// `ts-fsrs` library. In Loci a memory is "reviewed" when it is written (its first
// encoding) and each time a recall returns it, always graded Good: the agent needed it
// and got it. Retrievability is computed here with fractional days (ts-fsrs rounds to
// whole days), R(t, S) = (1 + F·t/S)^(−w20) with F = 0.9^(−1/w20) − 1, so R(S, S) = 0.9.
import {
  createEmptyCard,
  default_w,
  forgetting_curve,
  fsrs,
  generatorParameters,
  Rating,
  State,
  type Card,
} from 'ts-fsrs';

const scheduler = fsrs(generatorParameters({ enable_fuzz: false, enable_short_term: true }));
const DECAY = default_w[20] as number;
const DAY_MS = 86_400_000;

export interface FsrsState {
  state: State;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  /** Epoch ms. */
  due: number;
  /** Epoch ms, null before the first review. */
  last_review: number | null;
}

function toCard(s: FsrsState): Card {
  return {
    state: s.state,
    stability: s.stability,
    difficulty: s.difficulty,
    elapsed_days: s.elapsed_days,
    scheduled_days: s.scheduled_days,
    learning_steps: s.learning_steps,
    reps: s.reps,
    lapses: s.lapses,
    due: new Date(s.due),
    ...(s.last_review === null ? {} : { last_review: new Date(s.last_review) }),
  };
}

function fromCard(c: Card): FsrsState {
  return {
    state: c.state,
    stability: c.stability,
    difficulty: c.difficulty,
    elapsed_days: c.elapsed_days,
    scheduled_days: c.scheduled_days,
    learning_steps: c.learning_steps,
    reps: c.reps,
    lapses: c.lapses,
    due: c.due.getTime(),
    last_review: c.last_review ? c.last_review.getTime() : null,
  };
}

export function newFsrsState(now: number): FsrsState {
  return fromCard(createEmptyCard(new Date(now)));
}

/**
 * One Good review at `now`. A clock that went backwards is treated as "no time has
 * passed" so it can neither shorten nor lengthen the memory's stability.
 */
export function rehearse(state: FsrsState, now: number): FsrsState {
  const at = state.last_review !== null ? Math.max(now, state.last_review) : now;
  return fromCard(scheduler.next(toCard(state), new Date(at), Rating.Good).card);
}

/** Probability of recall now (0–1), or null for a memory never reviewed. */
export function retrievability(state: FsrsState, now: number): number | null {
  if (state.last_review === null || state.stability <= 0) return null;
  const days = Math.max(0, now - state.last_review) / DAY_MS;
  return forgetting_curve(DECAY, days, state.stability);
}

/** Below this retrievability a memory is "at risk" (likely forgotten without a use). */
export const AT_RISK_BELOW = 0.5;

/**
 * R depends on elapsed time only through t/S: the ratio at which it falls to
 * AT_RISK_BELOW, found once by bisection on the library's own curve (so SQL can filter
 * with `elapsed days > ratio × stability`).
 */
export const AT_RISK_RATIO = (() => {
  let lo = 0;
  let hi = 1;
  while (forgetting_curve(DECAY, hi, 1) > AT_RISK_BELOW) hi *= 2;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (forgetting_curve(DECAY, mid, 1) > AT_RISK_BELOW) lo = mid;
    else hi = mid;
  }
  return hi;
})();

export const FSRS_STATE_NAMES: Record<State, 'new' | 'learning' | 'review' | 'relearning'> = {
  [State.New]: 'new',
  [State.Learning]: 'learning',
  [State.Review]: 'review',
  [State.Relearning]: 'relearning',
};
