// Agent session logs, one JSON object a line, read into classed turns. Three formats:
// Claude Code's transcripts (~/.claude/projects/<project>/<session>.jsonl, the file a
// hook receives as `transcript_path`), Codex CLI's rollouts (~/.codex/sessions/…/
// rollout-*.jsonl) and Loci's generic JSONL ({role, content, tool, ts, exit}). Each line
// is accounted for: it yields turns, or is a known record without content (`ignored`,
// with its kind), or cannot be read (`skipped`, with the reason). Nothing here throws on
// what a line holds.
import type { TurnClass, TranscriptFormat } from '../../../shared/constants';

export interface Turn {
  /** 1-based line of the file it came from. */
  line: number;
  class: TurnClass;
  /** Epoch ms, when the line says. */
  at: number | null;
  /** The tool invoked (ACT) or answering (TOOL). */
  tool: string | null;
  text: string;
  /** A command's exit status, when the tool's output says (TOOL), or null. */
  exit: number | null;
  /** For ACT: the command run, the files it touches (for the episode). */
  command?: string;
  files?: string[];
  /** For ACT/TOOL of one call: the id pairing them. */
  callId?: string;
}

/** What one line gave. */
export type LineResult =
  | { kind: 'turns'; turns: Turn[]; meta?: SessionMeta }
  | { kind: 'ignored'; what: string; meta?: SessionMeta }
  | { kind: 'skipped'; reason: string };

export interface SessionMeta {
  session?: string;
  cwd?: string;
  at?: number;
}

const time = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e12 ? v : v * 1000;
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Text of a content value: a string, or the text parts of a list of blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((b) => (typeof b === 'string' ? b : isObject(b) ? (str(b.text) ?? '') : ''))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

/** "Exit code 2" at the head of a tool's output (how Claude Code reports a failed command). */
function exitFromText(text: string): number | null {
  const m = /^\s*(?:Exit code|exit code|exit status)[: ]\s*(-?\d+)/.exec(text);
  return m ? Number(m[1]) : null;
}

/** Files a patch in the apply_patch format adds, updates or deletes. */
function patchFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) {
    out.push((m[1] as string).trim());
  }
  return out;
}

/** What an invocation says, in one line of text, and what the episode reads from it. */
function describeCall(
  name: string,
  input: unknown,
): { text: string; command?: string; files?: string[] } {
  const args = isObject(input) ? input : {};
  const command = Array.isArray(args.command)
    ? args.command.map(String).join(' ')
    : (str(args.command) ?? str(args.cmd));
  if (command !== undefined) {
    // `bash -lc "<script>"`: the script is the command a person would read.
    const script = /^(?:ba|z)?sh -l?c (.+)$/s.exec(command)?.[1] ?? command;
    return { text: `${name}: ${script}`, command: script };
  }
  const file = str(args.file_path) ?? str(args.path) ?? str(args.notebook_path);
  const patch = str(args.input) ?? str(args.patch);
  const files = file ? [file] : patch ? patchFiles(patch) : [];
  const detail = files.length
    ? files.join(', ')
    : JSON.stringify(args).slice(0, 500) || '(no arguments)';
  return { text: `${name}: ${detail}`, ...(files.length ? { files } : {}) };
}

/** Tools that change the files they name (the episode's "files touched"). */
const WRITING_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'apply_patch']);

// ---------------------------------------------------------------- Claude Code

const CLAUDE_IGNORED = new Set([
  'summary',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'progress',
]);

export function claudeCodeLine(record: unknown, line: number): LineResult {
  if (!isObject(record)) return { kind: 'skipped', reason: 'not a JSON object' };
  const type = str(record.type);
  const meta: SessionMeta = {
    ...(str(record.sessionId) ? { session: str(record.sessionId) as string } : {}),
    ...(str(record.cwd) ? { cwd: str(record.cwd) as string } : {}),
  };
  const at = time(record.timestamp);
  if (type && CLAUDE_IGNORED.has(type)) return { kind: 'ignored', what: type, meta };
  if (type !== 'user' && type !== 'assistant') {
    return { kind: 'skipped', reason: `unknown record type ${JSON.stringify(type ?? null)}` };
  }
  const message = record.message;
  if (!isObject(message)) return { kind: 'skipped', reason: `a ${type} record without a message` };
  // Lines Claude Code adds itself (caveats, command wrappers): not the person's words.
  if (record.isMeta === true) return { kind: 'ignored', what: 'meta', meta };
  const content = message.content;
  const turns: Turn[] = [];
  const base = { line, at };
  if (typeof content === 'string') {
    if (content.trim()) {
      turns.push({
        ...base,
        class: type === 'user' ? 'USER' : 'SELF',
        tool: null,
        text: content,
        exit: null,
      });
    }
  } else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue;
      const kind = str(block.type);
      if (kind === 'text' && str(block.text)?.trim()) {
        turns.push({
          ...base,
          class: type === 'user' ? 'USER' : 'SELF',
          tool: null,
          text: block.text as string,
          exit: null,
        });
      } else if (kind === 'tool_use') {
        const name = str(block.name) ?? 'tool';
        const call = describeCall(name, block.input);
        turns.push({
          ...base,
          class: 'ACT',
          tool: name,
          text: call.text,
          exit: null,
          ...(call.command !== undefined ? { command: call.command } : {}),
          ...(call.files && WRITING_TOOLS.has(name) ? { files: call.files } : {}),
          ...(str(block.id) ? { callId: str(block.id) as string } : {}),
        });
      } else if (kind === 'tool_result') {
        const text = textOf(block.content);
        // Claude Code marks a failed call `is_error` (a command's output then starts with
        // "Exit code N"); a result without it is a call that succeeded.
        const exit = exitFromText(text) ?? (block.is_error === true ? 1 : 0);
        turns.push({
          ...base,
          class: 'TOOL',
          tool: null,
          text: text || (block.is_error === true ? '(the tool failed with no output)' : ''),
          exit,
          ...(str(block.tool_use_id) ? { callId: str(block.tool_use_id) as string } : {}),
        });
      }
      // thinking, redacted_thinking, image: no words of anyone's to keep.
    }
  } else {
    return { kind: 'skipped', reason: `a ${type} message without content` };
  }
  return turns.length ? { kind: 'turns', turns, meta } : { kind: 'ignored', what: 'empty', meta };
}

// ---------------------------------------------------------------- Codex CLI

const CODEX_IGNORED = new Set(['event_msg', 'compacted']);
/** Text Codex injects as "user" messages: the environment, the project's instructions. */
const CODEX_BOILERPLATE = /^\s*<(environment_context|user_instructions|INSTRUCTIONS)>/;

export function codexLine(record: unknown, line: number): LineResult {
  if (!isObject(record)) return { kind: 'skipped', reason: 'not a JSON object' };
  const type = str(record.type);
  const at = time(record.timestamp);
  const payload = isObject(record.payload) ? record.payload : null;
  if (type === 'session_meta') {
    const p = payload ?? {};
    return {
      kind: 'ignored',
      what: 'session_meta',
      meta: {
        ...(str(p.id) ? { session: str(p.id) as string } : {}),
        ...(str(p.cwd) ? { cwd: str(p.cwd) as string } : {}),
        ...(time(p.timestamp) !== null ? { at: time(p.timestamp) as number } : {}),
      },
    };
  }
  if (type === 'turn_context') {
    const cwd = payload ? str(payload.cwd) : undefined;
    return { kind: 'ignored', what: 'turn_context', ...(cwd ? { meta: { cwd } } : {}) };
  }
  if (type && CODEX_IGNORED.has(type)) return { kind: 'ignored', what: type };
  // The older rollouts hold the items themselves, without the envelope.
  const item = type === 'response_item' ? payload : isObject(record) && !payload ? record : null;
  if (!item)
    return { kind: 'skipped', reason: `unknown record type ${JSON.stringify(type ?? null)}` };
  const kind = str(item.type);
  const base = { line, at };
  switch (kind) {
    case 'message': {
      const role = str(item.role);
      const text = textOf(item.content);
      if (!text.trim()) return { kind: 'ignored', what: 'empty' };
      if (role === 'user') {
        if (CODEX_BOILERPLATE.test(text)) return { kind: 'ignored', what: 'context' };
        return { kind: 'turns', turns: [{ ...base, class: 'USER', tool: null, text, exit: null }] };
      }
      if (role === 'assistant') {
        return { kind: 'turns', turns: [{ ...base, class: 'SELF', tool: null, text, exit: null }] };
      }
      return { kind: 'ignored', what: `${role ?? 'unknown'} message` };
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call': {
      const name = str(item.name) ?? (kind === 'local_shell_call' ? 'shell' : 'tool');
      let input: unknown = item.arguments ?? item.input ?? item.action;
      if (typeof input === 'string') {
        try {
          input = JSON.parse(input);
        } catch {
          input = name === 'apply_patch' ? { input } : { text: input };
        }
      }
      const call = describeCall(name, input);
      const callId = str(item.call_id) ?? str(item.id);
      return {
        kind: 'turns',
        turns: [
          {
            ...base,
            class: 'ACT',
            tool: name,
            text: call.text,
            exit: null,
            ...(call.command !== undefined ? { command: call.command } : {}),
            ...(call.files && WRITING_TOOLS.has(name) ? { files: call.files } : {}),
            ...(callId ? { callId } : {}),
          },
        ],
      };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      let output: unknown = item.output;
      let exit: number | null = null;
      if (typeof output === 'string') {
        try {
          const parsed = JSON.parse(output) as unknown;
          if (isObject(parsed) && 'output' in parsed) output = parsed;
        } catch {
          /* plain text output */
        }
      }
      let text: string;
      if (isObject(output)) {
        text = textOf(output.output ?? output.content);
        const md = isObject(output.metadata) ? output.metadata : {};
        exit = typeof md.exit_code === 'number' ? md.exit_code : null;
      } else {
        text = textOf(output);
      }
      exit ??= exitFromText(text);
      const callId = str(item.call_id);
      return {
        kind: 'turns',
        turns: [{ ...base, class: 'TOOL', tool: null, text, exit, ...(callId ? { callId } : {}) }],
      };
    }
    case 'web_search_call': {
      const action = isObject(item.action) ? item.action : {};
      const query = str(action.query);
      return {
        kind: 'turns',
        turns: [
          {
            ...base,
            class: 'ACT',
            tool: 'web_search',
            text: `web_search: ${query ?? '(no query recorded)'}`,
            exit: null,
          },
        ],
      };
    }
    case 'reasoning':
      return { kind: 'ignored', what: 'reasoning' };
    default:
      return { kind: 'skipped', reason: `unknown item type ${JSON.stringify(kind ?? null)}` };
  }
}

// ---------------------------------------------------------------- generic

/**
 * The generic format (README, "Transcripts"): `{"role": "user" | "assistant" | "tool" |
 * "system", "content": "…", "tool": "name", "ts": "ISO 8601 or epoch", "exit": 0}`.
 * An assistant line with `tool` is the invocation (ACT); a `tool` line its output (TOOL).
 */
export function genericLine(record: unknown, line: number): LineResult {
  if (!isObject(record)) return { kind: 'skipped', reason: 'not a JSON object' };
  const role = str(record.role);
  const text = textOf(record.content);
  const at = time(record.ts ?? record.timestamp);
  const tool = str(record.tool) ?? null;
  const exit = typeof record.exit === 'number' ? record.exit : null;
  const base = { line, at, tool, exit: null as number | null };
  const meta: SessionMeta = {
    ...(str(record.session) ? { session: str(record.session) as string } : {}),
    ...(str(record.cwd) ? { cwd: str(record.cwd) as string } : {}),
  };
  switch (role) {
    case 'user':
      if (!text.trim()) return { kind: 'ignored', what: 'empty', meta };
      return { kind: 'turns', turns: [{ ...base, class: 'USER', text }], meta };
    case 'assistant': {
      if (tool) {
        const input = isObject(record.input) ? record.input : text ? { command: text } : {};
        const call = describeCall(tool, input);
        return {
          kind: 'turns',
          turns: [
            {
              ...base,
              class: 'ACT',
              text: call.text,
              ...(call.command !== undefined ? { command: call.command } : {}),
              ...(call.files && WRITING_TOOLS.has(tool) ? { files: call.files } : {}),
            },
          ],
          meta,
        };
      }
      if (!text.trim()) return { kind: 'ignored', what: 'empty', meta };
      return { kind: 'turns', turns: [{ ...base, class: 'SELF', text }], meta };
    }
    case 'tool':
      return {
        kind: 'turns',
        turns: [{ ...base, class: 'TOOL', text, exit: exit ?? exitFromText(text) }],
        meta,
      };
    case 'system':
      return { kind: 'ignored', what: 'system', meta };
    default:
      return { kind: 'skipped', reason: `unknown role ${JSON.stringify(role ?? null)}` };
  }
}

export const LINE_READERS: Record<TranscriptFormat, (record: unknown, line: number) => LineResult> =
  {
    'claude-code': claudeCodeLine,
    codex: codexLine,
    generic: genericLine,
  };

/** Which format a record is in, from its shape; null when it says nothing. */
export function detectFormat(record: unknown): TranscriptFormat | null {
  if (!isObject(record)) return null;
  const type = str(record.type);
  if (
    type &&
    ['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted'].includes(type) &&
    'payload' in record
  ) {
    return 'codex';
  }
  if ((type === 'user' || type === 'assistant') && isObject(record.message)) return 'claude-code';
  if (type && CLAUDE_IGNORED.has(type) && ('sessionId' in record || 'leafUuid' in record)) {
    return 'claude-code';
  }
  if (typeof record.role === 'string' && 'content' in record) return 'generic';
  return null;
}
