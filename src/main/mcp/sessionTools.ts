// The MCP tools of working memory for coding agents, over ordinary memories that session
// imports and distillation write (kinds and tags, so recall, the Atlas and the audit see
// them too): what happened last time in a project (its episode memories), known error →
// remedy for a message or a command, and the decisions and conventions in force.
import { z } from 'zod';
import type { MemoryView, MethodResult, RecallResult } from '../../shared/api';
import { toolOutput } from './structured';
import { fromContract, read, withStore, type ToolDefinition } from './toolKit';

type Recall = MethodResult<'memory.recall'>;

/** `session_summary`'s structured content: the episode memories of the sessions, newest first. */
export interface SessionSummaryToolOutput {
  sessions: Pick<MemoryView, 'id' | 'title' | 'content' | 'occurred_at' | 'tags'>[];
}

/** The structured content of `errors` and `decisions`: the hits of their recall. */
export type TaggedRecallToolOutput = Pick<RecallResult, 'abstained' | 'results'>;

function renderHits(r: Recall, none: string): string {
  if (r.abstained || r.results.length === 0) return none;
  return r.results
    .map(
      (h, i) =>
        `${i + 1}. [${h.id}] ${h.title}\n${h.content}\n   (${h.why}; confidence ${h.confidence.toFixed(2)})`,
    )
    .join('\n\n');
}

/** A project's tag: the last part of its folder, as episode memories carry it. */
const projectTag = (project: string) =>
  `project:${
    project
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .at(-1)
      ?.toLowerCase() ?? project
  }`;

/** A recall over the memories distillation tagged `tag`: `errors` and `decisions`. */
function taggedRecall(
  defaultStore: string | undefined,
  t: {
    name: 'errors' | 'decisions';
    title: string;
    description: string;
    query: string;
    tag: string;
    none: string;
  },
): ToolDefinition {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    ...fromContract('memory.recall', ['query', 'limit', 'store'], {
      query: t.query,
      limit: 'At most this many (default 5).',
    }),
    annotations: { ...read, idempotentHint: false },
    async run(client, a) {
      const r = await client.call(
        'memory.recall',
        withStore(
          a,
          { query: a.query as string, tags: [t.tag], limit: (a.limit as number | undefined) ?? 5 },
          defaultStore,
        ),
      );
      return {
        text: renderHits(r, t.none),
        structured: toolOutput(t.name, { abstained: r.abstained, results: r.results }),
      };
    },
  };
}

export function sessionTools(defaultStore?: string): ToolDefinition[] {
  return [
    {
      name: 'session_summary',
      title: 'Last sessions in a project',
      description:
        'What happened in the last agent sessions (imported transcripts): when, the first request, the files changed, the commands run with their exit status, and how each ended. Give `project` (the folder or its name) for one project; without it, the last sessions anywhere.',
      ...fromContract(
        'memory.list',
        ['limit', 'store'],
        { limit: 'How many sessions, newest first (default 3).' },
        z.strictObject({
          project: z
            .string()
            .min(1)
            .max(500)
            .optional()
            .describe('The project folder, or its name.'),
        }),
      ),
      annotations: read,
      async run(client, a) {
        const tags = ['session', ...(typeof a.project === 'string' ? [projectTag(a.project)] : [])];
        const r = await client.call(
          'memory.list',
          withStore(
            a,
            {
              tags,
              kinds: ['episodic'],
              order: 'occurred',
              limit: (a.limit as number | undefined) ?? 3,
            },
            defaultStore,
          ),
        );
        const sessions = await Promise.all(
          r.items.map((m) => client.call('memory.get', withStore(a, { id: m.id }, defaultStore))),
        );
        const text = sessions.length
          ? sessions.map((m) => `[${m.id}] ${m.title}\n${m.content}`).join('\n\n')
          : `No session${a.project ? ` in ${String(a.project)}` : ''} has been imported yet (import_transcript reads one).`;
        return {
          text,
          structured: toolOutput('session_summary', {
            sessions: sessions.map((m) => ({
              id: m.id,
              title: m.title,
              content: m.content,
              occurred_at: m.occurred_at,
              tags: m.tags,
            })),
          }),
        };
      },
    },
    taggedRecall(defaultStore, {
      name: 'errors',
      title: 'Known errors and their remedies',
      description:
        'Before fixing an error, ask whether it was met before: give the error message or the failing command; returns the remedies distilled from past sessions (what failed, with the tool output quoted, and what worked instead).',
      query: 'The error message or the command that failed.',
      tag: 'error-remedy',
      none: 'No known remedy for this error.',
    }),
    taggedRecall(defaultStore, {
      name: 'decisions',
      title: 'Decisions and conventions in force',
      description:
        'The user\'s decisions, conventions and standing instructions about a topic ("from now on …", "always …", "we decided …"), as the user said them in past sessions.',
      query: 'The topic: a tool, a module, a practice (deploys, migrations, package manager…).',
      tag: 'instruction',
      none: 'No decision about this is stored.',
    }),
  ];
}
