// `loci hook <event>`: what an editor's hook runs (Claude Code's SessionStart,
// UserPromptSubmit, PreCompact and SessionEnd; others where they have an equivalent). It
// reads the hook's JSON from standard input, asks the running daemon, and answers in the
// client's format on standard output: at session start the bootstrap (pinned memories and
// the map) as added context; on each prompt the few memories that bear on it, only above a
// confidence bar, with their ids; before a compaction and at the end of a session, the
// transcript imported (and distilled). It fails open: no daemon, a slow answer, bad input
// — it prints nothing and exits 0, so the editor is never blocked. It loads no engine.
import { homedir } from 'node:os';
import type { LociClient } from '../../shared/api';
import { resolveDataDir } from '../api/discovery';
import { createHttpClient, findOwner } from '../http/client';

export const HOOK_EVENTS = [
  'session-start',
  'prompt-submit',
  'pre-compact',
  'session-end',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's names for the events. */
export const CLAUDE_HOOK_NAMES: Record<HookEvent, string> = {
  'session-start': 'SessionStart',
  'prompt-submit': 'UserPromptSubmit',
  'pre-compact': 'PreCompact',
  'session-end': 'SessionEnd',
};

/** The agent a hook speaks for (the hooks are Claude Code's). */
export const HOOK_CLIENT = 'claude-code';

/** How long each hook may take before it gives up (ms): a prompt must not wait. */
export const HOOK_BUDGET_MS: Record<HookEvent, number> = {
  'session-start': 2000,
  'prompt-submit': 900,
  'pre-compact': 30_000,
  'session-end': 30_000,
};

/**
 * A prompt gets memories only when the recall is sure enough that the answer is among
 * them (its confidence medium or high), and then only those of at least this confidence.
 */
export const PROMPT_CONFIDENCE_BAR = 0.3;
/** The budget of what a prompt hook adds (tokens, counted by the engine). */
export const PROMPT_MAX_TOKENS = 600;
export const SESSION_START_MAX_TOKENS = 2000;

export interface HookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  prompt?: string;
  hook_event_name?: string;
}

const context = (event: HookEvent, text: string) =>
  JSON.stringify({
    hookSpecificOutput: { hookEventName: CLAUDE_HOOK_NAMES[event], additionalContext: text },
  });

const oneLine = (s: string, max: number) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** What the hook prints for this event ('' for nothing). */
export async function hookAnswer(
  event: HookEvent,
  input: HookInput,
  /** The agent's: what the hook puts in its context is an agent's read. */
  client: LociClient,
  /** The person's, who installed the hook: the transcript imports. */
  person: LociClient = client,
): Promise<string> {
  switch (event) {
    case 'session-start': {
      const b = await client.call('memory.bootstrap', { max_tokens: SESSION_START_MAX_TOKENS });
      return b.text.trim() ? context(event, `Loci memory for this session:\n${b.text}`) : '';
    }
    case 'prompt-submit': {
      const prompt = input.prompt?.trim() ?? '';
      if (prompt.length < 8) return '';
      const r = await client.call('memory.recall', {
        query: prompt.slice(0, 2000),
        limit: 3,
        max_tokens: PROMPT_MAX_TOKENS,
      });
      const sure = !r.abstained && r.confidence.level !== 'low';
      const hits = sure ? r.results.filter((h) => h.confidence >= PROMPT_CONFIDENCE_BAR) : [];
      if (hits.length === 0) return '';
      return context(
        event,
        `Memories that may bear on this (from Loci; \`read\` an id for the whole memory):\n${hits
          .map((h) => `- [${h.id}] ${h.title}: ${oneLine(h.content, 400)}`)
          .join('\n')}`,
      );
    }
    case 'pre-compact':
    case 'session-end':
      if (input.transcript_path) {
        await person.call('transcript.import', { paths: [input.transcript_path] });
      }
      return '';
  }
}

/** Runs one hook end to end; never throws, always exit code 0. */
export async function runHook(
  event: string,
  stdin: string,
  env: Record<string, string | undefined>,
): Promise<{ stdout: string; code: 0 }> {
  const quiet = { stdout: '', code: 0 as const };
  if (!(HOOK_EVENTS as readonly string[]).includes(event)) return quiet;
  const e = event as HookEvent;
  let input: HookInput;
  try {
    const parsed = JSON.parse(stdin || '{}') as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return quiet;
    input = parsed as HookInput;
  } catch {
    return quiet;
  }
  const dataDir = resolveDataDir({ env, platform: process.platform, home: homedir() });
  const owner = findOwner(dataDir);
  if (!owner) return quiet;
  // What reaches the editor's context goes as Claude Code's read (shared memories and its
  // own, never a quarantined one; in the read log); the import is the person's, who
  // installed the hook.
  const client = createHttpClient(owner, { agent: HOOK_CLIENT }, { timeoutMs: HOOK_BUDGET_MS[e] });
  const person = createHttpClient(owner, 'cli', { timeoutMs: HOOK_BUDGET_MS[e] });
  let timer: NodeJS.Timeout | undefined;
  try {
    const stdout = await Promise.race([
      hookAnswer(e, input, client, person),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(''), HOOK_BUDGET_MS[e]);
      }),
    ]);
    return { stdout, code: 0 };
  } catch {
    return quiet;
  } finally {
    clearTimeout(timer);
  }
}
