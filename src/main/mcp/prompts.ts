// The MCP prompts: `bootstrap` (the map and the pinned memories, to start a session),
// `topic` (what memory holds under a tag) and `distill` (a window of an imported session
// journal, with the rules for proposing memories from it). Each is assembled by contract
// calls made as the session's caller.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { LociClient } from '../../shared/api';
import { toErrorData } from '../../shared/errors';
import { KindSchema, StoreNameSchema, TagSchema } from '../../shared/schemas';
import { ProtocolError } from './errors';

/** What the instructions and the blank line after them cost in tokens (recall's tokenizer counts 127). */
export const INSTRUCTIONS_TOKENS = 135;

/** How many memories the topic prompt lists. */
const TOPIC_LIMIT = 50;

const STORE_ARG = {
  name: 'store',
  description: "The store (default: the daemon's default store).",
  required: false,
};

export const PROMPTS = [
  {
    name: 'bootstrap',
    title: 'Load memory',
    description:
      'The memory map and the pinned memories, to start a session knowing what is stored.',
    arguments: [
      {
        name: 'max_tokens',
        description: 'Budget for the whole prompt (default 4000).',
        required: false,
      },
      STORE_ARG,
    ],
  },
  {
    name: 'topic',
    title: 'What memory holds on a topic',
    description: `The memories with a tag (optionally of one kind), the latest changed first (at most ${TOPIC_LIMIT}), to read before working on that topic.`,
    arguments: [
      { name: 'tag', description: 'The tag, e.g. billing.', required: true },
      {
        name: 'kind',
        description: 'Only memories of this kind (semantic, procedural, …).',
        required: false,
      },
      STORE_ARG,
    ],
  },
  {
    name: 'distill',
    title: 'Distil a session',
    description:
      'A window of a session journal you imported, turn by turn with who said what, and how to propose memories from it with propose_memories.',
    arguments: [
      {
        name: 'journal_id',
        description: 'The journal (from import_transcript).',
        required: true,
      },
      { name: 'offset', description: 'The first turn (default 0).', required: false },
      { name: 'limit', description: 'How many turns (default 200).', required: false },
    ],
  },
];

/** Prompt arguments whose values completion offers, by the field that has them. */
export const PROMPT_FIELDS: Record<string, Record<string, 'store' | 'tag' | 'kind'>> = {
  bootstrap: { store: 'store' },
  topic: { tag: 'tag', kind: 'kind', store: 'store' },
};

const invalid = (message: string) => new ProtocolError(ErrorCode.InvalidParams, message);

function storeOf(a: Record<string, string>, fallback: string | undefined): { store?: string } {
  const s = a.store ?? fallback;
  if (s === undefined) return {};
  if (!StoreNameSchema.safeParse(s).success) throw invalid(`"${s}" is not a store name.`);
  return { store: s };
}

/** A contract failure as the prompt's protocol error. */
async function asPromptError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    throw invalid(toErrorData(err).message);
  }
}

export async function getPrompt(
  client: LociClient,
  name: string,
  a: Record<string, string>,
  defaultStore: string | undefined,
  instructions: string,
) {
  switch (name) {
    case 'bootstrap': {
      const budget = Number(a.max_tokens ?? 4000);
      if (!Number.isInteger(budget) || budget < 200 || budget > 100_000) {
        throw invalid('max_tokens must be a whole number from 200 to 100000.');
      }
      // Pinned memories and the map, assembled and counted by the engine; the server's
      // instructions come first, from the budget.
      const context = await asPromptError(() =>
        client.call('memory.bootstrap', {
          ...storeOf(a, defaultStore),
          max_tokens: Math.max(200, budget - INSTRUCTIONS_TOKENS),
        }),
      );
      return {
        description: 'Loci memory for this session',
        messages: [
          {
            role: 'user' as const,
            content: { type: 'text' as const, text: `${instructions}\n\n${context.text}` },
          },
        ],
      };
    }
    case 'topic': {
      if (!a.tag) throw invalid('tag is required.');
      if (!TagSchema.safeParse(a.tag).success) throw invalid(`"${a.tag}" is not a tag.`);
      if (a.kind !== undefined && !KindSchema.safeParse(a.kind).success) {
        throw invalid(`"${a.kind}" is not a memory kind: ${KindSchema.options.join(', ')}.`);
      }
      const list = await asPromptError(() =>
        client.call('memory.list', {
          ...storeOf(a, defaultStore),
          tags: [a.tag as string],
          ...(a.kind ? { kinds: [a.kind as never] } : {}),
          order: 'updated',
          limit: TOPIC_LIMIT,
        }),
      );
      const what = `#${a.tag}${a.kind ? ` (${a.kind})` : ''}`;
      const lines = list.items.map(
        (m) => `- [${m.id}] ${m.title} (${m.kind}, changed ${m.updated_at})\n  ${m.preview}`,
      );
      const text = list.items.length
        ? `What memory holds on ${what}: ${list.total} memor${list.total === 1 ? 'y' : 'ies'}${list.total > list.items.length ? `, the ${list.items.length} latest changed here` : ''}. Read one in full with the \`read\` tool (or memory://<id>); search around it with \`recall\`.\n\n${lines.join('\n')}`
        : `Memory holds nothing tagged ${what}. Say so rather than guess; \`recall\` searches by meaning.`;
      return {
        description: `Memories on ${what}`,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      };
    }
    case 'distill': {
      const offset = Number(a.offset ?? 0);
      const limit = Number(a.limit ?? 200);
      if (!a.journal_id) throw invalid('journal_id is required.');
      if (
        !Number.isInteger(offset) ||
        offset < 0 ||
        !Number.isInteger(limit) ||
        limit < 1 ||
        limit > 1000
      ) {
        throw invalid('offset is a whole number ≥ 0 and limit a whole number from 1 to 1000.');
      }
      const w = await asPromptError(() =>
        client.call('journal.window', {
          ...storeOf({}, defaultStore),
          id: a.journal_id as string,
          offset,
          limit,
          audience: 'agent' as const,
        }),
      );
      return {
        description: `Distil session ${w.journal_id}`,
        messages: [
          {
            role: 'user' as const,
            content: { type: 'text' as const, text: `${w.system}\n\n${w.prompt}` },
          },
        ],
      };
    }
    default:
      throw invalid(`Unknown prompt "${name}". Prompts: ${PROMPTS.map((p) => p.name).join(', ')}.`);
  }
}
