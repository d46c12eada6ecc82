// Times named in a query ("in May 2023", "on 7 July", "last week", "yesterday", "in 2022",
// "recently"), read with chrono-node and turned into windows on when a memory happened.
// Recall uses them as a boost, never as a filter: "what did we decide in March" ranks
// March's memories first but still answers from April if that is all there is.
import * as chrono from 'chrono-node';

export interface TimeWindow {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /**
   * How far past the window a memory still counts, fading (ms): a thing that happened
   * in June is often told of in early July.
   */
  after: number;
  /** The words of the query that named it. */
  text: string;
}

export interface TimeCues {
  windows: TimeWindow[];
  /** "recently", "latest", "last time", "currently": newer memories first. */
  recent: boolean;
}

const DAY = 86_400_000;
const RECENT =
  /\b(?:recent(?:ly)?|latest|lately|newest|most recent|last time|these days|nowadays|currently|right now|so far)\b/i;
/** Words without which chrono finds no date: digits, month and day names, relative words. */
const MAYBE_TIME =
  /\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|today|tonight|yesterday|tomorrow|ago|last|next|this|past|previous|week|month|year|weekend|morning|evening|night|noon|midnight|christmas|new year)/i;
/** A year on its own, which chrono leaves alone: "in 2023", "during 2022". */
const YEAR = /\b(?:in|during|throughout|of|since|for)\s+((?:19|20)\d{2})\b/gi;

/**
 * The time cues of a query, relative to `now`. A month or day without a year means that
 * month or day in any year (people say "in June" of the June they mean); a time of day
 * finer than a day ("in 5 seconds") is not a cue.
 */
export function timeCues(query: string, now: number): TimeCues {
  const windows: TimeWindow[] = [];
  const reference = new Date(now);
  let parsed: chrono.ParsedResult[] = [];
  // chrono runs dozens of parsers (about a millisecond); most queries name no time at all.
  if (MAYBE_TIME.test(query)) {
    try {
      parsed = chrono.parse(query, reference);
    } catch {
      parsed = [];
    }
  }
  for (const p of parsed) {
    // "in 5 seconds", "3 hours ago": durations and times of day, not when a thing happened.
    if (/\b(?:sec(?:ond)?s?|min(?:ute)?s?|hours?|hrs?)\b/i.test(p.text)) continue;
    const c = p.start;
    const year = c.isCertain('year') ? (c.get('year') as number) : null;
    const month = c.get('month') as number;
    const relative = /\b(?:ago|last|yesterday|today|this|past|previous)\b/i.test(p.text);
    if (c.isCertain('day') || (relative && !c.isCertain('hour'))) {
      // A day, or a span relative to now ("last week", "two days ago"): chrono gives
      // its start; a week-sized phrase gets a week.
      const start = Date.UTC(
        (c.get('year') as number) ?? reference.getUTCFullYear(),
        month - 1,
        c.get('day') as number,
      );
      const span = /\bweek/i.test(p.text) ? 7 * DAY : /\bmonth/i.test(p.text) ? 31 * DAY : DAY;
      const years = year !== null || relative ? [null] : anyYear(now);
      for (const y of years) {
        const from = y === null ? start : Date.UTC(y, month - 1, c.get('day') as number);
        windows.push({ from, to: from + span, after: 7 * DAY, text: p.text });
      }
    } else if (c.isCertain('month')) {
      for (const y of year !== null ? [year] : anyYear(now)) {
        windows.push({
          from: Date.UTC(y, month - 1, 1),
          to: Date.UTC(y, month, 1),
          after: 15 * DAY,
          text: p.text,
        });
      }
    }
  }
  for (const m of query.matchAll(YEAR)) {
    const y = Number(m[1]);
    windows.push({
      from: Date.UTC(y, 0, 1),
      to: Date.UTC(y + 1, 0, 1),
      after: 30 * DAY,
      text: m[0],
    });
  }
  return { windows, recent: RECENT.test(query) };
}

/** The years a month or day without one may mean: the last ten up to now. */
function anyYear(now: number): number[] {
  const y = new Date(now).getUTCFullYear();
  return Array.from({ length: 10 }, (_, i) => y - i);
}

/**
 * How well a moment fits the windows: 1 inside one, fading to 0 over the window's
 * `after` past its end, and over a third of that before its start (a plan made just
 * before is still about it).
 */
export function timeFit(at: number, windows: readonly TimeWindow[]): number {
  let best = 0;
  for (const w of windows) {
    let v = 0;
    if (at >= w.from && at < w.to) v = 1;
    else if (at >= w.to && at < w.to + w.after) v = 1 - (at - w.to) / w.after;
    else if (at < w.from && at > w.from - w.after / 3)
      v = 0.5 * (1 - (w.from - at) / (w.after / 3));
    if (v > best) best = v;
  }
  return best;
}
