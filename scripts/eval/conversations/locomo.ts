// Reads LoCoMo conversations (snap-research/locomo; ../shared/datasets/conversations-dev)
// into the evaluation's ConversationSet. Each file is one conversation; session times
// like "1:56 pm on 8 May, 2023" become ISO timestamps (UTC: the data gives no zone).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Conversation, ConversationQuestion, ConversationSet, Session } from './types';

const CATEGORY: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1:56 pm on 8 May, 2023" → 2023-05-08T13:56:00.000Z. */
export function parseLocomoTime(text: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(
    text.trim(),
  );
  if (!m) throw new Error(`unreadable session time "${text}"`);
  const month = MONTHS.indexOf((m[5] as string).toLowerCase());
  if (month < 0) throw new Error(`unknown month in "${text}"`);
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === 'pm') hour += 12;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface LocomoQa {
  question: string;
  evidence?: string[];
  category: number;
}

export function readLocomoConversation(file: string): Conversation {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const id = basename(file, '.json');
  const sessions: Session[] = [];
  for (let n = 1; ; n++) {
    const turns = raw[`session_${n}`] as LocomoTurn[] | undefined;
    if (!turns) {
      // Numbering has no gaps in the published files, but stop only after a run of misses.
      if (n > 200) break;
      continue;
    }
    const at = parseLocomoTime(raw[`session_${n}_date_time`] as string);
    sessions.push({
      id: `${id}/S${n}`,
      at,
      turns: turns.map((t) => ({
        id: t.dia_id,
        speaker: t.speaker,
        text: t.blip_caption ? `${t.text} [shares a photo: ${t.blip_caption}]` : t.text,
      })),
    });
  }
  const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.id)));
  const questions: ConversationQuestion[] = (raw.qa as LocomoQa[]).map((q, i) => {
    // A few published evidence entries join two ids with ";" or carry stray spaces.
    const evidence = (q.evidence ?? [])
      .flatMap((e) => e.split(/[;,]/))
      .map((e) => e.trim())
      .filter((e) => known.has(e));
    const category = CATEGORY[q.category] ?? String(q.category);
    return {
      id: `${id}/q${i + 1}`,
      question: q.question,
      evidence: q.category === 5 ? [] : evidence,
      category,
      answerable: q.category !== 5,
    };
  });
  return { id, sessions, questions };
}

export function readLocomoDir(dir: string): ConversationSet {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  return {
    name: 'locomo-dev',
    description: `LoCoMo development conversations (${files.map((f) => basename(f, '.json')).join(', ')})`,
    conversations: files.map((f) => readLocomoConversation(join(dir, f))),
  };
}
