// buildMcpServer: the MCP face of the contract — tools, resources (memory://<id>,
// memory://map) and the `bootstrap` prompt — for one client session, on any transport.
// Tool failures are `isError` results with a clear message; protocol errors (an unknown
// tool, resource or prompt) stay protocol errors. No business logic lives here.
import { LOCI_VERSION } from '../../shared/version';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Actor, ClientGrant, LociClient } from '../../shared/api';
import { toErrorData } from '../../shared/errors';
import { MemoryIdSchema } from '../../shared/schemas';
import { describeIssues } from '../../shared/validation';
import { createInProcessClient, type HandlerRegistry } from '../api';
import type { ActivityLog } from '../engine/activity';
import type { ToolSession } from './toolKit';
import { toolDefinitions } from './tools';

/**
 * A JSON-RPC error for the client. The SDK sends `code` and `message` as they are; its
 * own McpError would put "MCP error <code>:" in the message, which clients add again.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const SERVER_NAME = 'loci';
export const SERVER_VERSION = LOCI_VERSION;

export interface McpSessionOptions {
  handlers: HandlerRegistry;
  activity: ActivityLog;
  /** Called on every tool call with the client's name (for the connected-clients list). */
  onCall?: (client: string) => void;
  /** `http`, `stdio`, `stdio-proxy`, `in-memory`. */
  transport: string;
  /** From an `Mcp-Client-Id` header, when the client sent one (it wins over clientInfo). */
  clientId?: string | undefined;
  /** A client token's grant: its name is the client's, its policy holds for every call. */
  grant?: ClientGrant | undefined;
  defaultStore?: string | undefined;
}

/** What the instructions and the blank line after them cost in tokens (recall's tokenizer counts 127). */
const INSTRUCTIONS_TOKENS = 135;

/** How long the person has to answer a confirmation asked in the client. */
const ELICIT_TIMEOUT_MS = 120_000;

/** How long a client's model may take over one journal window (it may ask its person first). */
const SAMPLING_TIMEOUT_MS = 300_000;

export const INSTRUCTIONS = `Loci is the user's long-term memory, shared by all their agents.
- Before answering questions about this user, their projects or conventions, call \`recall\`.
- When you learn something worth keeping (a decision, a convention, a fix, a preference), call \`remember\` with a self-contained note.
- Correct wrong memories with \`update\`; record whether a procedure worked with \`record_outcome\`.
- Never store secrets: credential-looking text is quarantined and hidden from agents.
- If recall abstains, say you do not know instead of guessing.
- Check a remembered fact with \`verify\` before relying on it.`;

/** `Claude Code` → `claude-code`; bounded, so it is safe in logs and audit rows. */
export function normalizeClient(name: string | undefined): string {
  const n = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return n || 'unknown';
}

export function buildMcpServer(options: McpSessionOptions): Server {
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const tools = toolDefinitions(options.defaultStore);
  const byName = new Map(tools.map((t) => [t.name, t]));
  // Per tool: its own fields typed, the contract's fields passed through (see below).
  const argChecks = new Map(
    tools.map((t) => [
      t.name,
      z.strictObject({
        ...Object.fromEntries(Object.keys(t.schema.shape).map((k) => [k, z.unknown().optional()])),
        ...t.own.shape,
      }),
    ]),
  );
  const actor = (): Actor => ({
    kind: 'mcp',
    client: normalizeClient(
      options.grant?.name ?? options.clientId ?? server.getClientVersion()?.name,
    ),
    transport: options.transport,
    ...(options.grant ? { grant: options.grant } : {}),
  });
  const client = () => createInProcessClient(options.handlers, { actor: actor() });
  const actorName = () => `mcp:${actor().client}`;
  const withStore = <T extends object>(args: T): T & { store?: string } =>
    options.defaultStore ? { ...args, store: options.defaultStore } : args;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: z.toJSONSchema(t.schema, { io: 'input' }) as {
        type: 'object';
        [k: string]: unknown;
      },
      annotations: t.annotations,
    })),
  }));

  /** The client's model, for the tools that distil, when the client declared sampling. */
  const toolSession = (requestId: RequestId): ToolSession =>
    server.getClientCapabilities()?.sampling
      ? {
          sample: async ({ system, prompt, maxTokens }) => {
            const r = await server.createMessage(
              {
                systemPrompt: system,
                messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
                maxTokens,
                temperature: 0,
                includeContext: 'none',
              },
              { relatedRequestId: requestId, timeout: SAMPLING_TIMEOUT_MS },
            );
            const content = Array.isArray(r.content) ? r.content : [r.content];
            const text = content
              .map((c) => (c.type === 'text' ? c.text : ''))
              .join('\n')
              .trim();
            return { text, model: r.model };
          },
        }
      : {};

  /**
   * When `err` is a refusal that asks for the person's confirmation and the client can
   * elicit: the question, in the client; the confirmation id on a yes, else null (the
   * refusal then stands, with its instructions). A decline is said in the refusal.
   */
  const askThePerson = async (err: unknown, requestId: RequestId): Promise<string | null> => {
    const data = toErrorData(err).data as
      { needs?: unknown; confirmation?: { id?: unknown; question?: unknown } } | undefined;
    const id = data?.confirmation?.id;
    const question = data?.confirmation?.question;
    if (data?.needs !== 'user-confirmation' || typeof id !== 'string') return null;
    if (!server.getClientCapabilities()?.elicitation?.form) return null;
    let answer;
    try {
      answer = await server.elicitInput(
        {
          mode: 'form',
          message: typeof question === 'string' ? question : 'Allow this request?',
          requestedSchema: {
            type: 'object',
            properties: {
              allow: {
                type: 'boolean',
                title: 'Allow',
                description: 'Yes lets this one request through; it is recorded as yours.',
              },
            },
            required: ['allow'],
          },
        },
        { relatedRequestId: requestId, timeout: ELICIT_TIMEOUT_MS },
      );
    } catch {
      return null;
    }
    return answer.action === 'accept' && answer.content?.allow === true ? id : null;
  };

  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult> => {
      const tool = byName.get(request.params.name);
      if (!tool) {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Unknown tool "${request.params.name}". Tools: ${tools.map((t) => t.name).join(', ')}.`,
        );
      }
      const started = performance.now();
      const rawArgs = request.params.arguments ?? {};
      options.onCall?.(actor().client as string);
      const record = (ok: boolean, code: string | null, result: unknown) =>
        options.activity.record({
          at: new Date().toISOString(),
          actor: actorName(),
          transport: options.transport,
          tool: tool.name,
          ok,
          error_code: code,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          args: rawArgs,
          result,
        });
      // One validation per call: here only the tool's own fields and that no other field
      // is given; the contract validates the rest when the tool calls its method.
      const invalid = (message: string): CallToolResult => {
        record(false, 'invalid-args', { text: message });
        return {
          isError: true,
          content: [{ type: 'text', text: message }],
          structuredContent: { error: { code: 'invalid-args', message } },
        };
      };
      const parsed = (argChecks.get(tool.name) as z.ZodObject).safeParse(rawArgs);
      if (!parsed.success) {
        return invalid(
          `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error.issues)}`,
        );
      }
      try {
        const run = (c: LociClient) =>
          tool.run(c, parsed.data as Record<string, unknown>, toolSession(extra.requestId));
        let answer;
        try {
          answer = await run(client());
        } catch (err) {
          // A request the engine lets through only with the person's yes: asked in the
          // client when it can ask (elicitation), then made again with that yes.
          const confirmationId = await askThePerson(err, extra.requestId);
          if (!confirmationId) throw err;
          answer = await run(
            createInProcessClient(options.handlers, {
              actor: actor(),
              confirmation: confirmationId,
            }),
          );
        }
        // What the client received: the text and the structured content.
        record(true, null, { text: answer.text, structured: answer.structured });
        return {
          content: [{ type: 'text', text: answer.text }],
          structuredContent: answer.structured,
        };
      } catch (err) {
        const data = toErrorData(err);
        // The contract's verdict on the arguments, said as the tool's.
        const method = typeof data.data?.method === 'string' ? data.data.method : null;
        if (data.code === 'invalid-args' && method && data.message.startsWith(`${method}: `)) {
          return invalid(
            `Invalid arguments for ${tool.name}: ${data.message.slice(method.length + 2)}`,
          );
        }
        record(false, data.code, { text: `${data.message} (${data.code})` });
        return {
          isError: true,
          content: [{ type: 'text', text: `${data.message} (${data.code})` }],
          structuredContent: { error: data },
        };
      }
    },
  );

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: 'memory://map',
        name: 'map',
        title: 'Memory map',
        description: 'One line per memory (pinned first, then newest), within 2,000 tokens.',
        mimeType: 'text/plain',
      },
    ],
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'memory://{id}',
        name: 'memory',
        title: 'A memory',
        description: 'One memory in full, by id.',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const match = /^memory:\/\/(.+)$/.exec(uri);
    if (!match)
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown resource "${uri}": use memory://map or memory://<id>.`,
      );
    try {
      if (match[1] === 'map') {
        const map = await client().call('memory.map', withStore({}));
        return { contents: [{ uri, mimeType: 'text/plain', text: map.text }] };
      }
      const id = MemoryIdSchema.safeParse(match[1]);
      if (!id.success)
        throw new ProtocolError(ErrorCode.InvalidParams, `"${match[1]}" is not a memory id.`);
      const memory = await client().call('memory.get', withStore({ id: id.data }));
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(memory, null, 2) }],
      };
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      const data = toErrorData(err);
      throw new ProtocolError(
        data.code === 'not-found' ? ErrorCode.InvalidParams : ErrorCode.InternalError,
        data.message,
      );
    }
  });

  /** The `distill` prompt: a journal window the agent may read (its own session), and the rules. */
  const distillPrompt = async (a: Record<string, string>) => {
    const offset = Number(a.offset ?? 0);
    const limit = Number(a.limit ?? 200);
    if (!a.journal_id) throw new ProtocolError(ErrorCode.InvalidParams, 'journal_id is required.');
    if (
      !Number.isInteger(offset) ||
      offset < 0 ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > 1000
    ) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'offset is a whole number ≥ 0 and limit a whole number from 1 to 1000.',
      );
    }
    let w;
    try {
      w = await client().call(
        'journal.window',
        withStore({ id: a.journal_id, offset, limit, audience: 'agent' as const }),
      );
    } catch (err) {
      const data = toErrorData(err);
      throw new ProtocolError(ErrorCode.InvalidParams, data.message);
    }
    return {
      description: `Distil session ${w.journal_id}`,
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: `${w.system}\n\n${w.prompt}` },
        },
      ],
    };
  };

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
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
    ],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name === 'distill') return distillPrompt(request.params.arguments ?? {});
    if (request.params.name !== 'bootstrap') {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${request.params.name}". Prompts: bootstrap, distill.`,
      );
    }
    const budget = Number(request.params.arguments?.max_tokens ?? 4000);
    if (!Number.isInteger(budget) || budget < 200 || budget > 100_000) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        'max_tokens must be a whole number from 200 to 100000.',
      );
    }
    // Pinned memories and the map, assembled and counted by the engine; the server's
    // instructions come first, from the budget.
    const context = await client().call(
      'memory.bootstrap',
      withStore({ max_tokens: Math.max(200, budget - INSTRUCTIONS_TOKENS) }),
    );
    const text = `${INSTRUCTIONS}\n\n${context.text}`;
    return {
      description: 'Loci memory for this session',
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  });

  return server;
}
