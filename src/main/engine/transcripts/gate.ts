// The distillation gate: a candidate memory drawn from a journal carries quotes, and is
// accepted only if every quote stands character for character inside one turn of the
// journal (a quote that spans two turns, or was paraphrased, is refused) and what the
// candidate claims is licensed by the classes of the turns it quotes:
//
//   - a measurement (a number with a unit: "3.2 s", "14 pages", "47 ms", "12 %") only
//     from TOOL — what a tool printed, not what anyone says it printed;
//   - what the person decided, asked, prefers or wants only from USER;
//   - that something was done (ran, changed, deployed, fixed…) only from ACT or TOOL;
//   - a candidate whose quotes are all SELF (the agent's own prose) is the agent's
//     judgement: it passes only marked so, and never with a measurement or a decision.
//
// README ("Agent sessions") states the same rules; gate.test.ts holds one case each.
import type { TurnClass } from '../../../shared/constants';

export interface GateTurn {
  seq: number;
  line: number;
  class: TurnClass;
  text: string;
  quarantined: boolean;
}

export interface Candidate {
  content: string;
  quotes: string[];
}

export interface LocatedQuote {
  quote: string;
  class: TurnClass;
  seq: number;
  line: number;
  /** Where in the turn's text the quote starts. */
  offset: number;
}

export type GateVerdict =
  | { accepted: true; quotes: LocatedQuote[]; judgement: boolean }
  | { accepted: false; reasons: string[]; quotes: LocatedQuote[] };

const UNITS =
  'ms|milliseconds?|s|secs?|seconds?|minutes?|mins?|hours?|h|days?|kb|kib|mb|mib|gb|gib|tb|bytes?|%|percent|pages?|files?|tests?|lines?|rows?|requests?|rps|qps|x|times|ops';
/** A number with a unit: "3.2 s", "14 pages", "47ms", "12 %", "2.5x". */
const MEASUREMENT = new RegExp(`(?<![\\w.])(\\d+(?:[.,]\\d+)?)\\s?(?:${UNITS})(?![\\w])`, 'gi');
/** "the user decided / asked / prefers / wants", "we decided", "they asked for". */
const DECISION =
  /\b(?:user|person|owner|we|they|team|i)\s+(?:has\s+|have\s+)?(?:decided|asked|prefers?|wants?|wanted|requested|told|insisted|chose|agreed)\b|\bdecision\b/i;
/** That something was done. */
const DONE =
  /\b(?:ran|was run|were run|changed|edited|deployed|installed|upgraded|fixed|renamed|created|deleted|removed|committed|pushed|merged|migrated|rebuilt|built|restarted)\b/i;

/** Every turn where the quote stands whole, first match first. */
function locate(turns: readonly GateTurn[], quote: string): LocatedQuote | null {
  for (const t of turns) {
    const offset = t.text.indexOf(quote);
    if (offset >= 0) return { quote, class: t.class, seq: t.seq, line: t.line, offset };
  }
  return null;
}

/** What the gate says of one candidate against its journal's turns. */
export function gateCandidate(turns: readonly GateTurn[], candidate: Candidate): GateVerdict {
  const reasons: string[] = [];
  const located: LocatedQuote[] = [];
  if (candidate.quotes.length === 0) reasons.push('it quotes nothing from the journal');
  candidate.quotes.forEach((q, i) => {
    if (q.trim().length < 3) {
      reasons.push(`quote ${i + 1} is too short to prove anything`);
      return;
    }
    const at = locate(turns, q);
    if (!at) {
      reasons.push(
        `quote ${i + 1} ("${q.slice(0, 60)}") does not stand character for character in one turn of the journal`,
      );
      return;
    }
    const turn = turns.find((t) => t.seq === at.seq);
    if (turn?.quarantined) {
      reasons.push(`quote ${i + 1} comes from a turn quarantined for a credential`);
      return;
    }
    located.push(at);
  });
  if (reasons.length) return { accepted: false, reasons, quotes: located };

  const classes = new Set(located.map((q) => q.class));
  const fromTool = located
    .filter((q) => q.class === 'TOOL')
    .map((q) => q.quote)
    .join('\n');
  for (const m of candidate.content.matchAll(MEASUREMENT)) {
    if (!fromTool.includes(m[1] as string)) {
      reasons.push(`the measurement "${m[0]}" is quoted from no TOOL output`);
    }
  }
  if (DECISION.test(candidate.content) && !classes.has('USER')) {
    reasons.push(
      "what the person decided, asked or prefers needs the person's own words (a USER quote)",
    );
  }
  if (DONE.test(candidate.content) && !classes.has('ACT') && !classes.has('TOOL')) {
    reasons.push(
      'that something was done needs the invocation or its output (an ACT or TOOL quote)',
    );
  }
  if (reasons.length) return { accepted: false, reasons, quotes: located };
  const judgement = classes.size === 1 && classes.has('SELF');
  return { accepted: true, quotes: located, judgement };
}
