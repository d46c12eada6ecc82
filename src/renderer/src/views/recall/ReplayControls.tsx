// The replay's transport bar: first, back, play or pause, next, last, and the speed.
// With reduced motion there is no play and no speed: the stages are stepped through.
import type { ReplayControls as Controls } from './useReplay';
import { SPEEDS, type Speed } from './useReplay';

const GLYPHS = {
  first: 'M6 5v14M18 5l-9 7 9 7z',
  prev: 'M15 5l-7 7 7 7',
  play: 'M7 4.5l12 7.5-12 7.5z',
  pause: 'M8 5v14M16 5v14',
  next: 'M9 5l7 7-7 7',
  last: 'M18 5v14M6 5l9 7-9 7z',
} as const;

function Glyph({ name }: { name: keyof typeof GLYPHS }) {
  return (
    <svg
      className="icon"
      width={14}
      height={14}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d={GLYPHS[name]} />
    </svg>
  );
}

export function ReplayControls({ replay, reduced }: { replay: Controls; reduced: boolean }) {
  const single = replay.count <= 1;
  return (
    <div className="rl-controls" role="group" aria-label="Replay controls">
      <button
        type="button"
        className="icon-btn"
        aria-label="First stage"
        title="First stage (Home)"
        onClick={replay.first}
        disabled={replay.step === 0}
      >
        <Glyph name="first" />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label="Previous stage"
        title="Previous stage (←)"
        onClick={replay.prev}
        disabled={replay.step === 0}
      >
        <Glyph name="prev" />
      </button>
      {reduced ? null : (
        <button
          type="button"
          className="icon-btn rl-play"
          aria-label={replay.playing ? 'Pause' : replay.atEnd ? 'Replay from the start' : 'Play'}
          title={replay.playing ? 'Pause' : 'Play'}
          onClick={replay.playing ? replay.pause : replay.play}
          disabled={single}
        >
          <Glyph name={replay.playing ? 'pause' : 'play'} />
        </button>
      )}
      <button
        type="button"
        className="icon-btn"
        aria-label="Next stage"
        title="Next stage (→)"
        onClick={replay.next}
        disabled={replay.atEnd}
      >
        <Glyph name="next" />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label="Last stage"
        title="Last stage (End)"
        onClick={replay.last}
        disabled={replay.atEnd}
      >
        <Glyph name="last" />
      </button>
      {reduced ? (
        <span className="rl-controls-note">Reduced motion: step through the stages</span>
      ) : (
        <label className="rl-speed">
          <span className="visually-hidden">Replay speed</span>
          <select
            value={replay.speed}
            onChange={(e) => replay.setSpeed(Number(e.target.value) as Speed)}
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
