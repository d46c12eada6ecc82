// Reads a conversational evaluation set from disk: a folder of LoCoMo JSON files
// (../shared/datasets/conversations-dev) or one conversation in our own format
// (eval/datasets/ferrylog/conversation.json: sessions of turns and questions with
// evidence turn ids, documented in that folder's README).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readLocomoDir } from './locomo';
import type { Conversation, ConversationSet } from './types';

export function readConversationSet(path: string): ConversationSet {
  if (statSync(path).isDirectory() && !existsSync(join(path, 'conversation.json'))) {
    return readLocomoDir(path);
  }
  const file = statSync(path).isDirectory() ? join(path, 'conversation.json') : path;
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Conversation & { description?: string };
  const ids = new Set(raw.sessions.flatMap((s) => s.turns.map((t) => t.id)));
  for (const q of raw.questions) {
    const unknown = q.evidence.filter((e) => !ids.has(e));
    if (unknown.length > 0)
      throw new Error(`${file}: question ${q.id} names unknown turns ${unknown.join(', ')}`);
  }
  return {
    name: raw.id ?? basename(path),
    description: raw.description ?? '',
    conversations: [{ id: raw.id, sessions: raw.sessions, questions: raw.questions }],
  };
}
