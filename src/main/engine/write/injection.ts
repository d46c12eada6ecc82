// Memory poisoning (prompt injection stored as a memory): text that tries to instruct
// the agent reading it. Such text is stored as data like any other — Loci never acts on
// it — but recall flags it (`flags` in verbose results) so the agent treats it as
// quoted material, and chunks of ingested files (untrusted imports) that carry it are
// quarantined until a person looks. Cheap, deterministic patterns; not a classifier:
// the red-team corpus in test/fixtures/redteam measures what it catches and misses.
import { LRUCache } from 'lru-cache';

export type InjectionFlag = 'instructions' | 'role-markup' | 'exfiltration' | 'hidden-text';

/** Phrases that address the reader as a model and try to replace its instructions. */
const INSTRUCTIONS = [
  /\b(ignore|disregard|forget|override|bypass|skip)\b[^.\n]{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|the)\b[^.\n]{0,30}\b(instructions?|prompts?|rules|directives|guidelines|guardrails|context|messages?)\b/i,
  /\b(new|updated|real|actual|true)\s+(system\s+)?(instructions?|prompt|directives?)\s*[:-]/i,
  /\byou\s+are\s+(now\s+(an?|in|DAN|free|unrestricted|jailbroken)\b|no\s+longer\b)/i,
  /\b(act|behave|respond)\s+as\s+(if\s+you\s+(are|were)\s+)?(an?\s+)?(unrestricted|unfiltered|jailbroken|DAN|evil|different)\b/i,
  /\b(developer|god|jailbreak|DAN)\s+mode\b/i,
  /\b(do\s+not|don'?t|never)\s+(tell|inform|mention\s+(this\s+)?to|reveal\s+(this\s+)?to|let)\s+the\s+user\b/i,
  /\bwithout\s+(telling|asking|informing|notifying)\s+the\s+user\b/i,
  /\b(reveal|print|show|output|repeat|leak)\s+(your|the)\s+(system\s+prompt|instructions|hidden\s+prompt|initial\s+prompt)\b/i,
  /\b(from\s+now\s+on|henceforth|going\s+forward),?\s+(you|always|never)\b/i,
  /\b(when|whenever|if)\s+(you|the\s+(agent|assistant|ai|model))\s+(read|see|recall|retrieve)s?\s+this\b/i,
  /\b(note|attention|important|message)\s+(to|for)\s+(the\s+)?(ai|assistant|agent|model|llm|chatbot)\b/i,
  /\bAI\s+(assistants?|agents?|models?)\s+(reading|processing|seeing)\s+this\b/i,
  /\b(ignorez|ignoriere|ignora)\b[^.\n]{0,40}\b(instructions|anweisungen|instrucciones|istruzioni)\b/i,
];

/** Chat-template and role markers that only make sense to fake a turn of a conversation. */
const ROLE_MARKUP = [
  /<\|(im_start|im_end|system|endoftext|start_header_id|eot_id)\|>/i,
  /\[\/?INST\]|<<\/?SYS>>/,
  /^\s*#{1,3}\s*(system|assistant)\b\s*(prompt)?\s*:/im,
  /^\s*(system|assistant)\s*(prompt)?\s*:\s*(you|ignore|from\s+now|your|sure|i\s+will|override|disregard)\b/im,
  /<\/?(system|instructions?|admin)>/i,
];

/** Directions to send data out or run fetched code. */
const EXFILTRATION = [
  /\b(curl|wget|iwr|invoke-webrequest)\b[^\n|]{0,200}\|\s*(ba|z)?sh\b/i,
  /\b(send|post|upload|forward|exfiltrate|transmit|leak)\b[^.\n]{0,60}\b(api[\s_-]?keys?|tokens?|credentials?|passwords?|secrets?|memories|\.env|ssh\s+keys?|conversation|chat\s+history)\b[^.\n]{0,60}\b(to|at|into)\b/i,
  /!\[[^\]]*\]\(https?:\/\/[^)]*[?&][^)]*=(\{|%7B|\$)/i,
  /\b(call|use|invoke|run)\s+the\s+`?\w+`?\s+tool\s+(to|and)\s+(forget|erase|delete|remove)\b/i,
  /\b(forget|erase|delete|wipe|remove)\s+(all|every)\s+(the\s+)?(other\s+)?memor(y|ies)\b/i,
];

/**
 * Characters that hide or reorder text: bidirectional overrides and isolates, Unicode
 * tag characters (invisible ASCII), and the zero-width ones (the write gate strips those
 * from stored text; raw imported text is checked before that).
 */
const HIDDEN =
  /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060-\u2064\uFEFF]|[\u{E0000}-\u{E007F}]/u;

/**
 * Flags of texts seen lately: recall flags every result it returns, again and again.
 * Made on first use; an idle trim drops it (releaseInjectionFlags), with the memories'
 * texts it holds as keys.
 */
let cache: LRUCache<string, InjectionFlag[]> | null = null;

function flaggedCache(): LRUCache<string, InjectionFlag[]> {
  cache ??= new LRUCache<string, InjectionFlag[]>({
    max: 5_000,
    // Keys are whole memories (up to 64 KiB each): bound the characters held, not only the count.
    maxSize: 20_000_000,
    sizeCalculation: (_v, k) => k.length + 1,
  });
  return cache;
}

/** Forgets the flags of texts seen lately (engine/footprint.ts); the next recall refills them. */
export function releaseInjectionFlags(): void {
  cache = null;
}

export function injectionFlags(text: string): InjectionFlag[] {
  const flagged = flaggedCache();
  const cached = flagged.get(text);
  if (cached) return [...cached];
  const flags = computeFlags(text);
  flagged.set(text, flags);
  return [...flags];
}

function computeFlags(text: string): InjectionFlag[] {
  const flags: InjectionFlag[] = [];
  // Hidden characters can also split a phrase to dodge the patterns: match on the text without them.
  const visible = text.replace(new RegExp(HIDDEN.source, 'gu'), '');
  if (INSTRUCTIONS.some((r) => r.test(visible))) flags.push('instructions');
  if (ROLE_MARKUP.some((r) => r.test(visible))) flags.push('role-markup');
  if (EXFILTRATION.some((r) => r.test(visible))) flags.push('exfiltration');
  if (HIDDEN.test(text)) flags.push('hidden-text');
  return flags;
}

/** Quarantine reasons for an untrusted import (an ingested file's chunk). */
export function injectionReasons(rawText: string): string[] {
  return injectionFlags(rawText).map((f) => `prompt-injection:${f}`);
}
