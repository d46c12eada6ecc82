// Hybrid logical clocks (Kulkarni et al., 2014): a wall time in ms that never runs
// backwards, a counter for events within one ms, and the device that made the event.
// Written as one string whose byte order is the clock order, so a clock is also the name
// of the operation it stamps, an index key, and a tie-breaker no two devices share.
//
// A device whose wall clock is behind still orders its changes after everything it has
// seen (it adopts the highest wall time received); a device whose clock is hours ahead
// pulls every clock that hears from it forward. That keeps causality (a change made
// after reading another always wins over it) at the price of that device's concurrent
// changes winning until real time catches up, which Settings → Sync reports as skew.
import { LociError } from '../../../shared/errors';

export interface Hlc {
  wall: number;
  counter: number;
  device: string;
}

const WALL_DIGITS = 11; // base 36: up to year 5188
const COUNTER_DIGITS = 4; // base 36: 1.68 million events in one ms
const MAX_COUNTER = 36 ** COUNTER_DIGITS - 1;
const DEVICE = /^[0-9a-z]{8,32}$/;
const HLC_PATTERN = /^([0-9a-z]{11})([0-9a-z]{4})-([0-9a-z]{8,32})$/;

export function isDeviceId(id: string): boolean {
  return DEVICE.test(id);
}

export function formatHlc(c: Hlc): string {
  return `${c.wall.toString(36).padStart(WALL_DIGITS, '0')}${c.counter
    .toString(36)
    .padStart(COUNTER_DIGITS, '0')}-${c.device}`;
}

export function parseHlc(s: string): Hlc {
  const m = HLC_PATTERN.exec(s);
  if (!m) throw new LociError('invalid-args', `not a hybrid logical clock: ${s.slice(0, 80)}`);
  return {
    wall: parseInt(m[1] as string, 36),
    counter: parseInt(m[2] as string, 36),
    device: m[3] as string,
  };
}

export function isHlc(s: string): boolean {
  return HLC_PATTERN.test(s);
}

/** The wall time (ms) of a formatted clock, without parsing the rest. */
export function hlcWall(s: string): number {
  return parseInt(s.slice(0, WALL_DIGITS), 36);
}

/** One device's clock: `tick` for a local event, `receive` for one heard from another. */
export class HlcClock {
  private last: Hlc;

  constructor(
    readonly device: string,
    private readonly now: () => number,
    last: string | null = null,
  ) {
    if (!isDeviceId(device)) throw new LociError('invalid-args', `not a device id: ${device}`);
    this.last = last ? { ...parseHlc(last), device } : { wall: 0, counter: 0, device };
  }

  /** The clock of a new local event: after every event this device made or heard of. */
  tick(): string {
    const wall = Math.max(this.now(), this.last.wall);
    const counter = wall === this.last.wall ? this.last.counter + 1 : 0;
    this.last = this.bump(wall, counter);
    return formatHlc(this.last);
  }

  /** Takes in another device's clock so that later local events order after it. */
  receive(remote: string): void {
    const r = parseHlc(remote);
    const now = this.now();
    const wall = Math.max(now, this.last.wall, r.wall);
    let counter: number;
    if (wall === this.last.wall && wall === r.wall) {
      counter = Math.max(this.last.counter, r.counter) + 1;
    } else if (wall === this.last.wall) counter = this.last.counter + 1;
    else if (wall === r.wall) counter = r.counter + 1;
    else counter = 0;
    this.last = this.bump(wall, counter);
  }

  /** The latest clock issued or heard (what is persisted). */
  current(): string {
    return formatHlc(this.last);
  }

  /** How far this clock runs ahead of the wall clock (ms; 0 when it does not). */
  aheadBy(): number {
    return Math.max(0, this.last.wall - this.now());
  }

  private bump(wall: number, counter: number): Hlc {
    // A counter overflowing within one ms moves the clock to the next ms instead.
    if (counter > MAX_COUNTER) return { wall: wall + 1, counter: 0, device: this.device };
    return { wall, counter, device: this.device };
  }
}
