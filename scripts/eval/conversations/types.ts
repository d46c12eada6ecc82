// The shape every conversational evaluation set is read into: conversations of sessions
// of turns, and questions whose evidence is a list of turn ids. LoCoMo's JSON and our own
// written set are both read into this, so one runner measures both.

export interface Turn {
  /** Unique within the conversation (LoCoMo's `dia_id`, e.g. `D3:7`). */
  id: string;
  speaker: string;
  text: string;
}

export interface Session {
  id: string;
  /** When the session took place (ISO 8601 with offset). */
  at: string;
  turns: Turn[];
}

export interface ConversationQuestion {
  id: string;
  question: string;
  /** The turns that hold the answer; empty for an unanswerable question. */
  evidence: string[];
  category: string;
  /** False for a question the conversation cannot answer (LoCoMo's adversarial ones). */
  answerable: boolean;
}

export interface Conversation {
  id: string;
  sessions: Session[];
  questions: ConversationQuestion[];
}

export interface ConversationSet {
  name: string;
  description: string;
  conversations: Conversation[];
}

/** What one turn is stored as: the protocol of DESIGN's evaluation (speaker: text). */
export function turnContent(turn: Turn): string {
  return `${turn.speaker}: ${turn.text}`;
}
