// The replay's transport: which stage is shown, whether it plays on by itself and how
// fast. A new answer (a new `resetKey`) starts again from the first stage and plays,
// unless the person asked for reduced motion: then it never plays, only steps.
import { useCallback, useEffect, useState } from 'react';

/** Milliseconds a stage stays on screen at 1× speed. */
export const STEP_MS = 1100;
export const SPEEDS = [0.5, 1, 2] as const;
export type Speed = (typeof SPEEDS)[number];

export interface ReplayControls {
  step: number;
  count: number;
  playing: boolean;
  speed: Speed;
  atEnd: boolean;
  play(): void;
  pause(): void;
  next(): void;
  prev(): void;
  first(): void;
  last(): void;
  goTo(step: number): void;
  setSpeed(speed: Speed): void;
}

interface State {
  key: unknown;
  step: number;
  playing: boolean;
}

export function useReplay(
  count: number,
  resetKey: unknown,
  { reduced, autoplay = true }: { reduced: boolean; autoplay?: boolean },
): ReplayControls {
  const canPlay = !reduced && count > 1;
  const [state, setState] = useState<State>({
    key: resetKey,
    step: 0,
    playing: autoplay && canPlay,
  });
  const [speed, setSpeed] = useState<Speed>(1);
  // A new answer: back to the start (state derived from props, set during render).
  if (state.key !== resetKey) setState({ key: resetKey, step: 0, playing: autoplay && canPlay });

  const playing = state.playing && canPlay;
  const last = Math.max(0, count - 1);
  const step = Math.min(state.step, last);

  useEffect(() => {
    if (!playing) return;
    if (step >= last) {
      setState((s) => ({ ...s, playing: false }));
      return;
    }
    const timer = setTimeout(
      () => setState((s) => ({ ...s, step: Math.min(s.step + 1, last) })),
      STEP_MS / speed,
    );
    return () => clearTimeout(timer);
  }, [playing, step, last, speed]);

  const goTo = useCallback(
    (n: number) =>
      setState((s) => ({ ...s, playing: false, step: Math.max(0, Math.min(n, last)) })),
    [last],
  );

  return {
    step,
    count,
    playing,
    speed,
    atEnd: step >= last,
    play: () =>
      setState((s) => (canPlay ? { ...s, playing: true, step: s.step >= last ? 0 : s.step } : s)),
    pause: () => setState((s) => ({ ...s, playing: false })),
    next: () => goTo(step + 1),
    prev: () => goTo(step - 1),
    first: () => goTo(0),
    last: () => goTo(last),
    goTo,
    setSpeed,
  };
}
