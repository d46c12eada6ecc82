// What a language model (or an agent) is handed to distil a session, and how its answer
// is read back. One window of a journal at a time: its turns numbered and classed (USER,
// TOOL, ACT, SELF), a quarantined turn withheld, and the gate's rules said plainly. A
// model answers with JSON; an agent answers by calling propose_memories. Either way the
// candidates reach the same gate (gate.ts) as the extractors' — nothing a model says is
// believed until its quotes are found in the journal.
import { z } from 'zod';
import type { JournalView } from '../../../shared/api';
import { ProposedMemorySchema } from '../../../shared/schemas';
import { describeIssues } from '../../../shared/validation';

/** A turn's text shown to a model, at most (quotes must come from what is shown). */
const TURN_CHARS = 2000;

const RULES = [
  "Each turn says who it is from: USER (the person), TOOL (a tool's output), ACT (an invocation the agent made), SELF (the agent's own prose).",
  'Keep what is worth remembering in later sessions: decisions, conventions and preferences of the person, facts about the project, an error and what fixed it, configuration values a tool printed.',
  'Every memory needs exact quotes from the turns, character for character, each within one turn (no "[n]" markers, no ellipses).',
  "A measurement (a number with a unit) only from TOOL output; what the person decided, asked or prefers only from USER words; that something was done only from an ACT or TOOL turn; SELF alone backs only a memory marked as the agent's judgement.",
  'Nothing that looks like a credential, and nothing about the conversation itself ("the user asked me to…").',
];

export type Audience = 'agent' | 'model';

export interface WindowText {
  system: string;
  prompt: string;
}

/** The text for one window of a journal: for a model (answer in JSON) or an agent (call the tool). */
export function windowText(view: JournalView, offset: number, audience: Audience): WindowText {
  const j = view.journal;
  const last = view.turns.at(-1)?.seq ?? offset;
  const turns = view.turns.map((t) => {
    const head = `[${t.seq}] ${t.class}${t.tool ? ` ${t.tool}` : ''}${t.exit === null ? '' : ` exit ${t.exit}`}`;
    if (t.quarantined) return `${head}: (withheld: it looked like it holds a credential)`;
    const text = t.text.length > TURN_CHARS ? `${t.text.slice(0, TURN_CHARS)} …` : t.text;
    return `${head}: ${text}`;
  });
  const answer =
    audience === 'model'
      ? 'Answer with JSON only, no prose: {"memories": [{"content": "…", "title": "…", "kind": "semantic" | "procedural" | "episodic", "tags": ["…"], "quotes": ["…"]}]}. An empty list when nothing is worth keeping.'
      : 'Propose the memories worth keeping with the tool propose_memories (journal_id and candidates, each with its quotes).';
  const system = [
    "You distil an AI coding agent's session journal into long-term memories.",
    ...RULES,
    answer,
  ].join('\n');
  const prompt = [
    `Session journal ${j.id} (${j.format}${j.cwd ? `, ${j.cwd}` : ''}), turns ${offset}–${last} of ${view.total}.`,
    '',
    ...turns,
  ].join('\n');
  return { system, prompt };
}

const ReplySchema = z.union([z.object({ memories: z.array(z.unknown()) }), z.array(z.unknown())]);

export type ProposedMemory = z.output<typeof ProposedMemorySchema>;

/** Closing brackets tried, from the last, when prose follows the JSON. */
const ENDS_TRIED = 50;

/** The JSON value that starts at the first bracket, with whatever prose follows it cut. */
function firstJson(text: string): unknown {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  let end = text.length;
  for (let tries = 0; tries < ENDS_TRIED; tries++) {
    end = Math.max(text.lastIndexOf('}', end - 1), text.lastIndexOf(']', end - 1));
    if (end <= start) return undefined;
    try {
      return JSON.parse(text.slice(start, end + 1)) as unknown;
    } catch {
      // prose after the value: try the closing bracket before
    }
  }
  return undefined;
}

/**
 * The candidates in a model's answer: the first JSON value in it (fenced or not), a
 * `{memories: [...]}` object or a bare list. What cannot be read is a problem named, not
 * a failure of the rest.
 */
export function readReply(reply: string): { candidates: ProposedMemory[]; problems: string[] } {
  const problems: string[] = [];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply)?.[1];
  const text = (fenced ?? reply).trim();
  const value = firstJson(text);
  if (value === undefined) {
    return {
      candidates: [],
      problems: [
        `the answer holds no JSON list of memories (it begins "${reply.trim().slice(0, 60)}")`,
      ],
    };
  }
  const shaped = ReplySchema.safeParse(value);
  if (!shaped.success) {
    return {
      candidates: [],
      problems: ['the answer is JSON but neither {"memories": [...]} nor a list'],
    };
  }
  const items = Array.isArray(shaped.data) ? shaped.data : shaped.data.memories;
  const candidates: ProposedMemory[] = [];
  items.slice(0, 50).forEach((item, i) => {
    const parsed = ProposedMemorySchema.safeParse(item);
    if (parsed.success) candidates.push(parsed.data);
    else problems.push(`memory ${i + 1} of the answer: ${describeIssues(parsed.error.issues)}`);
  });
  if (items.length > 50)
    problems.push(`${items.length - 50} memories past the first 50 were not read`);
  return { candidates, problems };
}
