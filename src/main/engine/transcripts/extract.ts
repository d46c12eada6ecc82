// Candidate memories drawn from a journal with no model, each carrying the quotes the
// gate checks (gate.ts):
//   - explicit instructions of the person: "remember that …", "always …", "never …",
//     "from now on …", "we decided …" (a USER quote; "remember that" is written at once,
//     the others wait in the review inbox);
//   - corrections of the agent by the person ("no, …", "that's wrong, …", "actually, …"
//     right after the agent spoke or acted);
//   - error → remedy: a command that failed, then a later variant of it (the same program)
//     that passed: the failing command, its first error line and the command that worked,
//     each quoted from its ACT or TOOL turn;
//   - configuration values a tool printed: the settings of a configuration file the agent
//     read (`cat config/app.toml` → "port = 8081"), and what a `--version` printed, each
//     quoted from the TOOL output with the ACT that asked for it (never a turn with a
//     credential, never a setting whose name says it is one).
import type { MemoryKind } from '../../../shared/schemas';
import type { EpisodeTurn } from './episode';

export interface ExtractedCandidate {
  /**
   * `agent`: proposed by an agent through journal.propose; `sampling`: by the client's
   * model (MCP sampling); `llm`: by the configured endpoint (journal.distill).
   */
  extractor:
    'instruction' | 'correction' | 'error-remedy' | 'config' | 'agent' | 'sampling' | 'llm';
  title: string;
  content: string;
  kind: MemoryKind;
  tags: string[];
  quotes: string[];
  /** `direct`: written at once when the gate passes it; `review`: to the review inbox. */
  policy: 'direct' | 'review';
}

export interface ExtractTurn extends EpisodeTurn {
  seq: number;
}

const INSTRUCTION =
  /^(?:please\s+)?(?:(remember|note)(?:\s+that)?\b|always\b|never\b|from now on\b|going forward\b|we(?:'ve| have)?\s+decided\b|we\s+agreed\b|do not ever\b|don't ever\b)/i;
/** Phrases that start like an instruction and are none: "never mind", "always happy to". */
const NOT_AN_INSTRUCTION = /^(?:never\s?mind|never again will|always happy|note to self\b)/i;
const CORRECTION =
  /^(?:no[,.!]|nope\b|that'?s (?:wrong|not right|not what)|actually[,]|wrong[,.])/i;

/** Sentences of a text, each exactly as it stands in it (so that it can be quoted). */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n+/)) {
    // A sentence ends at . ! or ? before white space ("example.com" is not an end).
    for (const piece of para.split(/(?<=[.!?])\s+/)) {
      const s = piece.trim();
      if (s.length >= 8) out.push(s);
    }
  }
  return out;
}

const oneLine = (s: string, max: number) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The program a command runs: its first word past `sudo`, env assignments and `cd x &&`. */
export function programOf(command: string): string {
  const words = command
    .replace(/^\s*cd\s+\S+\s*&&\s*/, '')
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  const first = words[0] === 'sudo' ? words[1] : words[0];
  return (first ?? '').replace(/^.*\//, '');
}

/** The line of a tool's output that says what went wrong, as it stands there. */
function errorLine(output: string): string | null {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^exit (?:code|status)/i.test(l));
  const hit = lines.find((l) =>
    /error|fail|cannot|can't|not found|denied|invalid|unmet|refused|missing/i.test(l),
  );
  const line = hit ?? lines[0];
  return line ? line.slice(0, 300) : null;
}

/** A command that reads one configuration file, and the file. */
const READ_FILE = /^(?:cat|head|tail|less|more|bat)\s+(?:-\S+\s+)*(\S+)$/;
const CONFIG_FILE =
  /(?:^|\/)(?:\.env(?:\.[\w-]+)?|[\w.-]+\.(?:env|ini|toml|ya?ml|conf|cfg|properties)|\.npmrc|\.nvmrc|\.tool-versions)$/i;
/** `name = value`, `name: value`, `NAME=value`: one scalar setting per line. */
const SETTING =
  /^([A-Za-z_][\w.-]{0,60})\s*[=:]\s*("[^"]{0,120}"|'[^']{0,120}'|[^\s#{[][^#]{0,120}?)\s*$/;
const SECRET_NAME = /token|secret|passw|pwd|api[_-]?key|private|credential|auth/i;
const VERSION_COMMAND = /^(\S+)\s+(?:--version|-v|-V|version)$/;
const VERSION = /\bv?\d+\.\d+(?:\.\d+)?\b/;
/** Settings of one file kept as one memory, at most. */
const SETTINGS_MAX = 8;

function configCandidates(
  calls: readonly { act: ExtractTurn; output: ExtractTurn; command: string }[],
): ExtractedCandidate[] {
  const out: ExtractedCandidate[] = [];
  for (const { output, command } of calls) {
    if (output.exit !== 0) continue;
    const cmd = command.trim();
    const file = READ_FILE.exec(cmd)?.[1];
    if (file && CONFIG_FILE.test(file)) {
      const settings = output.text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => {
          const m = SETTING.exec(l);
          return m !== null && !SECRET_NAME.test(m[1] as string);
        })
        .slice(0, SETTINGS_MAX);
      if (settings.length === 0) continue;
      out.push({
        extractor: 'config',
        title: oneLine(`${file}: ${settings.join('; ')}`, 100),
        content: `${file} sets ${settings.join('; ')}.`,
        kind: 'semantic',
        tags: ['distilled', 'config'],
        quotes: [cmd, ...settings],
        policy: 'review',
      });
      continue;
    }
    const program = VERSION_COMMAND.exec(cmd)?.[1];
    const line = output.text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => VERSION.test(l));
    if (program && line && line.length <= 120) {
      out.push({
        extractor: 'config',
        title: oneLine(`${program} version: ${line}`, 100),
        content: `\`${cmd}\` prints "${line}".`,
        kind: 'semantic',
        tags: ['distilled', 'config'],
        quotes: [cmd, line],
        policy: 'review',
      });
    }
  }
  return out;
}

export function extractCandidates(turns: readonly ExtractTurn[]): ExtractedCandidate[] {
  const out: ExtractedCandidate[] = [];
  const seen = new Set<string>();
  const add = (c: ExtractedCandidate) => {
    const key = `${c.extractor}:${c.content.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(c);
  };

  turns.forEach((t, i) => {
    if (t.class !== 'USER' || t.quarantined) return;
    const afterAgent = turns
      .slice(0, i)
      .reverse()
      .find((p) => p.class !== 'TOOL');
    for (const s of sentences(t.text)) {
      const m = NOT_AN_INSTRUCTION.test(s) ? null : INSTRUCTION.exec(s);
      if (m) {
        const remember = m[1] !== undefined;
        const content = remember ? s.replace(INSTRUCTION, '').replace(/^[\s,:]+/, '') : s;
        if (content.length < 8) continue;
        const body = content.charAt(0).toUpperCase() + content.slice(1);
        add({
          extractor: 'instruction',
          title: oneLine(body, 100),
          content: body,
          kind: /^(always|never|from now on|going forward|do not|don't)/i.test(s)
            ? 'procedural'
            : 'semantic',
          tags: ['distilled', 'instruction'],
          quotes: [s],
          policy: remember ? 'direct' : 'review',
        });
      } else if (
        CORRECTION.test(s) &&
        afterAgent &&
        (afterAgent.class === 'SELF' || afterAgent.class === 'ACT')
      ) {
        add({
          extractor: 'correction',
          title: oneLine(`Correction: ${s}`, 100),
          content: `The person corrected the agent: "${s}"`,
          kind: 'semantic',
          tags: ['distilled', 'correction'],
          quotes: [s],
          policy: 'review',
        });
      }
    }
  });

  // Error → remedy: each failing command, and the first later passing command of the
  // same program that is not the same command.
  const outputs = new Map<string, ExtractTurn>();
  for (const t of turns) if (t.class === 'TOOL' && t.callId) outputs.set(t.callId, t);
  const calls = turns.flatMap((t, i) => {
    if (t.class !== 'ACT' || t.command === undefined || t.quarantined) return [];
    const answer = t.callId
      ? outputs.get(t.callId)
      : turns.slice(i + 1).find((n) => n.class === 'TOOL');
    if (!answer || answer.quarantined || answer.exit === null) return [];
    return [{ act: t, output: answer, command: t.command, program: programOf(t.command) }];
  });
  calls.forEach((failed, i) => {
    if (failed.output.exit === 0 || !failed.program) return;
    const fixed = calls.slice(i + 1).find(
      (c) =>
        c.output.exit === 0 &&
        c.command !== failed.command &&
        // The same program with other arguments, or the same command wrapped
        // (`uv run …`, `npx …`, `sudo …`).
        (c.program === failed.program || c.command.includes(failed.command)),
    );
    if (!fixed) return;
    const error = errorLine(failed.output.text);
    if (!error) return;
    add({
      extractor: 'error-remedy',
      title: oneLine(`${failed.program}: ${error}`, 100),
      content: `\`${failed.command}\` fails with "${error}"; \`${fixed.command}\` works.`,
      kind: 'procedural',
      tags: ['distilled', 'error-remedy'],
      quotes: [failed.command, error, fixed.command],
      policy: 'review',
    });
  });
  for (const c of configCandidates(calls)) add(c);
  return out;
}
