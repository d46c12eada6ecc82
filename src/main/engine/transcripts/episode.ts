// The episode memory of a session, built from its journal with no model: when, where
// (the project's folder), the first thing the person asked, the files the agent changed,
// the commands it ran with their exit status, and how it ended. The same journal always
// gives the same text. Quarantined turns (a credential in them) contribute nothing.
import { basename } from 'node:path';
import type { TranscriptFormat } from '../../../shared/constants';
import type { SessionMeta, Turn } from './formats';

export interface EpisodeTurn extends Turn {
  quarantined: boolean;
}

export interface Episode {
  title: string;
  content: string;
  tags: string[];
  occurredAt: number | null;
  commands: { command: string; exit: number | null }[];
  files: string[];
}

const AGENTS: Record<TranscriptFormat, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  generic: 'an agent',
};

const MAX_LISTED = 12;

/** One line of at most `max` characters, cut at a word where one is near. */
const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.7 ? cut.slice(0, space) : cut}…`;
};

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function listed(items: string[], render: (s: string) => string = (s) => s): string {
  const shown = items.slice(0, MAX_LISTED).map(render).join(', ');
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

export function buildEpisode(
  format: TranscriptFormat,
  meta: SessionMeta,
  turns: readonly EpisodeTurn[],
): Episode {
  const visible = turns.filter((t) => !t.quarantined);
  const times = turns.map((t) => t.at).filter((t): t is number => t !== null);
  const start = meta.at ?? (times.length ? Math.min(...times) : null);
  const end = times.length ? Math.max(...times) : null;
  const project = meta.cwd ? basename(meta.cwd) : null;
  const firstRequest = visible.find((t) => t.class === 'USER');

  // Commands, each with the exit status of the output that answers it.
  const outputs = new Map<string, Turn>();
  for (const t of turns) if (t.class === 'TOOL' && t.callId) outputs.set(t.callId, t);
  const commands: Episode['commands'] = [];
  const files: string[] = [];
  turns.forEach((t, i) => {
    if (t.class !== 'ACT') return;
    for (const f of t.files ?? []) if (!files.includes(f)) files.push(f);
    if (t.command === undefined) return;
    const answer = t.callId
      ? outputs.get(t.callId)
      : turns.slice(i + 1).find((n) => n.class === 'TOOL' || n.class === 'ACT');
    commands.push({
      command: t.quarantined
        ? '[a command that looked like a credential]'
        : oneLine(t.command, 160),
      exit: answer && answer.class === 'TOOL' ? answer.exit : null,
    });
  });
  const lastSelf = [...visible].reverse().find((t) => t.class === 'SELF');
  const failed = commands.filter((c) => c.exit !== null && c.exit !== 0).length;
  const last = commands.at(-1);

  const when =
    start !== null
      ? `${iso(start)}${end !== null && end !== start ? ` to ${iso(end)}` : ''}`
      : 'at an unknown time';
  const lines = [
    `${AGENTS[format]} session${meta.cwd ? ` in ${meta.cwd}` : ''}, ${when}${meta.session ? ` (session ${meta.session})` : ''}.`,
    `First request: ${firstRequest ? `"${oneLine(firstRequest.text, 300)}"` : 'none recorded'}.`,
    files.length ? `Files changed: ${listed(files)}.` : 'Files changed: none.',
    commands.length
      ? `Commands run (${commands.length}, ${failed} failed): ${listed(
          commands.map((c) => `\`${c.command}\`${c.exit === null ? '' : ` (exit ${c.exit})`}`),
        )}.`
      : 'Commands run: none.',
    `Outcome: ${
      [
        last
          ? `the last command ${last.exit === null ? 'has no recorded exit status' : last.exit === 0 ? 'passed' : `failed (exit ${last.exit})`}`
          : '',
        lastSelf ? `the agent's last words: "${oneLine(lastSelf.text, 300)}"` : '',
      ]
        .filter(Boolean)
        .join('; ') || 'not recorded'
    }.`,
  ];
  const date = start !== null ? iso(start).slice(0, 10) : 'undated';
  return {
    title: oneLine(
      `Session ${date}${project ? ` in ${project}` : ''}: ${firstRequest ? oneLine(firstRequest.text, 80) : 'no request recorded'}`,
      200,
    ),
    content: lines.join('\n'),
    tags: ['session', `agent:${format}`, ...(project ? [`project:${project}`] : [])],
    occurredAt: start,
    commands,
    files,
  };
}
