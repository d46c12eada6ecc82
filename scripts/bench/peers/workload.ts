// The two workloads: the generated corpus with questions made from its memories, and the
// development conversations (every turn one memory, every question of categories 1–4 one
// search, scored by the share of its evidence turns in the top 10).
import { existsSync } from 'node:fs';
import { mulberry32 } from '../../../src/shared/random';
import { readLocomoDir } from '../../eval/conversations/locomo';
import { generator } from '../corpus';
import { opts } from './common';

export interface Query {
  text: string;
  target: number;
  kind: 'phrase' | 'keywords';
}

export function corpus(size: number): string[] {
  return Array.from({ length: size }, generator(11)).map((g) => g.content);
}

/**
 * Half the queries quote consecutive words of the target that occur in no other memory
 * (what a substring search can find); half give five of its words in another order (what
 * an agent asks, and what only a ranked search can answer).
 */
export function makeQueries(contents: string[], n: number): Query[] {
  const r = mulberry32(7);
  const out: Query[] = [];
  const lower = contents.map((c) => c.toLowerCase());
  const unique = (phrase: string, target: number) => {
    const p = phrase.toLowerCase();
    return lower.every((c, i) => i === target || !c.includes(p));
  };
  while (out.length < n) {
    const q = out.length;
    const target = Math.floor(r() * contents.length);
    const words = (contents[target] as string).split(/\s+/).filter((w) => /^[A-Za-z]+$/.test(w));
    if (q % 2 === 0) {
      // The shortest window (4 to 8 words) from a random start that is unique; else another target.
      const start = Math.floor(r() * Math.max(1, words.length - 4));
      let phrase: string | null = null;
      for (let len = 4; len <= 8 && start + len <= words.length && !phrase; len++) {
        const candidate = words.slice(start, start + len).join(' ');
        if ((contents[target] as string).includes(candidate) && unique(candidate, target))
          phrase = candidate;
      }
      if (phrase) out.push({ text: phrase, target, kind: 'phrase' });
    } else {
      const picked = [...new Set(words.filter((w) => w.length > 3))]
        .map((w) => [r(), w] as const)
        .sort((a, b) => a[0] - b[0])
        .slice(0, 5)
        .map(([, w]) => w);
      out.push({ text: picked.join(' '), target, kind: 'keywords' });
    }
  }
  return out;
}

export interface ConversationWork {
  id: string;
  /** Every turn in order, as stored: `"<speaker>: <text>"` (with its photo caption). */
  turns: { id: string; content: string }[];
  /** Questions of categories 1–4 that name evidence turns. */
  questions: { text: string; evidence: string[] }[];
}

export function conversations(): ConversationWork[] {
  if (!existsSync(opts.conversations))
    throw new Error(`no conversation set at ${opts.conversations}`);
  return readLocomoDir(opts.conversations).conversations.map((c) => ({
    id: c.id,
    turns: c.sessions.flatMap((s) =>
      s.turns.map((t) => ({ id: t.id, content: `${t.speaker}: ${t.text}` })),
    ),
    questions: c.questions
      .filter((q) => q.answerable && q.evidence.length > 0)
      .map((q) => ({ text: q.question, evidence: q.evidence })),
  }));
}
