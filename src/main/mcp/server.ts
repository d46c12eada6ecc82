// buildMcpServer: the MCP face of the contract — tools, resources (memory://<id>,
// memory://map) and the `bootstrap` prompt — for one client session, on any transport.
// Tool failures are `isError` results with a clear message; protocol errors (an unknown
// tool, resource or prompt) stay protocol errors. No business logic lives here.
import { LOCI_VERSION } from '../../shared/version';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type LoggingLevel,
  type RequestId,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Actor, CallContext, CallLogLevel, ClientGrant, LociClient } from '../../shared/api';
import { DEFAULT_STORE_NAME } from '../../shared/constants';
import { toErrorData } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';
import type { HandlerRegistry } from '../api';
import { createInProcessClient } from '../api/inProcess';
import type { ActivityLog } from '../engine/activity';
import type { EngineEvents } from '../engine/events';
import { ProtocolError } from './errors';
import { AjvJsonSchemaValidator } from './sdkValidator';
import { outputSchemaFor } from './outputSchemas';
import { getPrompt, PROMPT_FIELDS, PROMPTS } from './prompts';
import {
  listedResources,
  readMemoryResource,
  RESOURCE_TEMPLATES,
  TEMPLATE_FIELDS,
} from './resources';
import { watchResources } from './subscriptions';
import type { ToolSession } from './toolKit';
import { toolDefinitions } from './tools';

export { ProtocolError } from './errors';

export const SERVER_NAME = 'loci';
export const SERVER_VERSION = LOCI_VERSION;

/** What a session serves: the contract's handlers, the activity log, the change events. */
export interface McpBackend {
  handlers: HandlerRegistry;
  activity: ActivityLog;
  /** The engine's change events: resource subscriptions and the resource list follow them. */
  events?: EngineEvents | undefined;
}

export interface McpSessionOptions {
  /**
   * The engine, or how to open it: `loci mcp` answers initialize, tools/list and
   * prompts/list before the engine is loaded; the first request that needs it opens it
   * (once) and waits, and fails with its error if it does not open.
   */
  backend: McpBackend | (() => Promise<McpBackend>);
  /** Called once tools/list has been answered (`loci mcp` then opens the engine). */
  afterToolsList?: () => void;
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

/**
 * Where a failed call's error (code, message, data) travels, for clients that read it as
 * data. Not as structured content: that is for the tool's output schema, which clients
 * check even on an error result (typescript-sdk#1943).
 */
export const ERROR_META = 'loci/error';

/** Until the client sets a level, it is told what is worth its attention (info and up). */
const DEFAULT_LOG_LEVEL: LoggingLevel = 'info';
const LOG_RANK = new Map(LoggingLevelSchema.options.map((l, i) => [l, i]));

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

type ToolDefinition = ReturnType<typeof toolDefinitions>[number];
interface ToolSet {
  tools: ToolDefinition[];
  byName: Map<string, ToolDefinition>;
  /** Per tool: its own fields typed, the contract's fields passed through (see below). */
  argChecks: Map<string, z.ZodObject>;
  /** What tools/list answers. */
  listedTools: {
    name: string;
    title?: string | undefined;
    description: string;
    inputSchema: { type: 'object'; [k: string]: unknown };
    outputSchema: ReturnType<typeof outputSchemaFor>;
    annotations: ToolDefinition['annotations'];
  }[];
}

/** The tools of a session's default store, built once per process (sessions share them). */
const toolSets = new Map<string, ToolSet>();
function toolSet(defaultStore: string | undefined): ToolSet {
  const key = defaultStore ?? '';
  const known = toolSets.get(key);
  if (known) return known;
  const tools = toolDefinitions(defaultStore);
  const set: ToolSet = {
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    argChecks: new Map(
      tools.map((t) => [
        t.name,
        z.strictObject({
          ...Object.fromEntries(
            Object.keys(t.schema.shape).map((k) => [k, z.unknown().optional()]),
          ),
          ...t.own.shape,
        }),
      ]),
    ),
    listedTools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: z.toJSONSchema(t.schema, { io: 'input' }) as {
        type: 'object';
        [k: string]: unknown;
      },
      outputSchema: outputSchemaFor(t.name),
      annotations: t.annotations,
    })),
  };
  toolSets.set(key, set);
  return set;
}

export function buildMcpServer(options: McpSessionOptions): Server {
  // Each capability is declared because it is implemented: logging (setLevel and the
  // daemon's warnings about this client's calls), resource subscriptions and the list's
  // changes, completions of prompt and template arguments.
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: {
        tools: {},
        resources: { subscribe: true, listChanged: true },
        prompts: {},
        logging: {},
        completions: {},
      },
      instructions: INSTRUCTIONS,
      // Answers to elicitations are checked with @cfworker/json-schema (sdkValidator.ts).
      jsonSchemaValidator: new AjvJsonSchemaValidator(),
    },
  );
  const { tools, byName, argChecks, listedTools } = toolSet(options.defaultStore);
  const actor = (): Actor => ({
    kind: 'mcp',
    client: normalizeClient(
      options.grant?.name ?? options.clientId ?? server.getClientVersion()?.name,
    ),
    transport: options.transport,
    ...(options.grant ? { grant: options.grant } : {}),
  });
  let opened: Promise<McpBackend> | null = null;
  let followEvents: (events: EngineEvents | undefined) => void = () => undefined;
  const events = new Promise<EngineEvents | undefined>((resolve) => (followEvents = resolve));
  const backend = (): Promise<McpBackend> => {
    if (!opened) {
      const given = options.backend;
      opened = typeof given === 'function' ? given() : Promise.resolve(given);
      opened.then((b) => followEvents(b.events)).catch(() => undefined);
    }
    return opened;
  };
  // Given open, the session follows the engine's changes from the start.
  if (typeof options.backend !== 'function') void backend();
  const client = (ctx: Omit<CallContext, 'actor'> = {}): LociClient => {
    const full = { ...ctx, actor: actor() };
    return {
      call: (method, args) =>
        backend().then((b) => createInProcessClient(b.handlers, full).call(method, args)),
    };
  };
  const actorName = () => `mcp:${actor().client}`;
  const sessionStore = options.defaultStore ?? DEFAULT_STORE_NAME;

  // ---------------------------------------------------------------- logging
  let logLevel: LoggingLevel = DEFAULT_LOG_LEVEL;
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    logLevel = request.params.level;
    return {};
  });
  const logged = (level: LoggingLevel) =>
    (LOG_RANK.get(level) ?? 0) >= (LOG_RANK.get(logLevel) ?? 0);
  /**
   * The caller's log for one call: on the call's own stream while it runs (Streamable
   * HTTP answers on it), then on the session's (work the call started may warn later).
   */
  const callLog = (send: (n: ServerNotification) => Promise<void>) => {
    let open = true;
    const log = (level: CallLogLevel, message: string) => {
      if (!logged(level)) return;
      const n: ServerNotification = {
        method: 'notifications/message',
        params: { level, logger: 'loci', data: message },
      };
      (open ? send(n) : server.notification(n)).catch(() => undefined);
    };
    return { log, end: () => (open = false) };
  };

  // ---------------------------------------------------------------- tools
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (options.afterToolsList) setImmediate(options.afterToolsList);
    return { tools: listedTools };
  });

  /** The client's model, for the tools that distil, when the client declared sampling. */
  const sampler = (requestId: RequestId, signal: AbortSignal): ToolSession['sample'] =>
    server.getClientCapabilities()?.sampling
      ? async ({ system, prompt, maxTokens }) => {
          const r = await server.createMessage(
            {
              systemPrompt: system,
              messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
              maxTokens,
              temperature: 0,
              includeContext: 'none',
            },
            { relatedRequestId: requestId, timeout: SAMPLING_TIMEOUT_MS, signal },
          );
          const content = Array.isArray(r.content) ? r.content : [r.content];
          const text = content
            .map((c) => (c.type === 'text' ? c.text : ''))
            .join('\n')
            .trim();
          return { text, model: r.model };
        }
      : undefined;

  /**
   * When `err` is a refusal that asks for the person's confirmation and the client can
   * elicit: the question, in the client; the confirmation id on a yes, else null (the
   * refusal then stands, with its instructions). A decline is said in the refusal.
   */
  const askThePerson = async (
    err: unknown,
    requestId: RequestId,
    signal: AbortSignal,
  ): Promise<string | null> => {
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
        { relatedRequestId: requestId, timeout: ELICIT_TIMEOUT_MS, signal },
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
      const record = (ok: boolean, code: string | null, result: unknown) => {
        const entry = {
          at: new Date().toISOString(),
          actor: actorName(),
          transport: options.transport,
          tool: tool.name,
          ok,
          error_code: code,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          args: rawArgs,
          result,
        };
        backend()
          .then((b) => b.activity.record(entry))
          .catch(() => undefined);
      };
      // One validation per call: here only the tool's own fields and that no other field
      // is given; the contract validates the rest when the tool calls its method.
      const invalid = (message: string): CallToolResult => {
        record(false, 'invalid-args', { text: message });
        return {
          isError: true,
          content: [{ type: 'text', text: message }],
          _meta: { [ERROR_META]: { code: 'invalid-args', message } },
        };
      };
      const parsed = (argChecks.get(tool.name) as z.ZodObject).safeParse(rawArgs);
      if (!parsed.success) {
        return invalid(
          `Invalid arguments for ${tool.name}: ${describeIssues(parsed.error.issues)}`,
        );
      }
      // What the call is told as it runs: progress when the client asked for it (a
      // progress token), the client's cancel, and the daemon's warnings about it.
      const token = request.params._meta?.progressToken;
      const progress: CallContext['progress'] =
        token === undefined
          ? undefined
          : (p) => {
              extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: {
                    progressToken: token,
                    progress: p.done,
                    ...(p.total !== undefined ? { total: p.total } : {}),
                    ...(p.message ? { message: p.message } : {}),
                  },
                })
                .catch(() => undefined);
            };
      const logs = callLog(extra.sendNotification);
      const ctx = { progress, signal: extra.signal, log: logs.log };
      const session: ToolSession = {
        sample: sampler(extra.requestId, extra.signal),
        progress,
        signal: extra.signal,
      };
      try {
        const run = (c: LociClient) => tool.run(c, parsed.data as Record<string, unknown>, session);
        let answer;
        try {
          answer = await run(client(ctx));
        } catch (err) {
          // A request the engine lets through only with the person's yes: asked in the
          // client when it can ask (elicitation), then made again with that yes.
          const confirmationId = await askThePerson(err, extra.requestId, extra.signal);
          if (!confirmationId) throw err;
          logs.log('info', `${tool.name}: the person allowed it; it is made again.`);
          answer = await run(client({ ...ctx, confirmation: confirmationId }));
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
        if (data.code === 'forbidden') logs.log('warning', `${tool.name}: ${data.message}`);
        return {
          isError: true,
          content: [{ type: 'text', text: `${data.message} (${data.code})` }],
          _meta: { [ERROR_META]: data },
        };
      } finally {
        logs.end();
      }
    },
  );

  // ---------------------------------------------------------------- resources
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    let stores: string[] = [];
    try {
      stores = (await client().call('memory.complete', { field: 'store', prefix: '' })).values;
    } catch {
      // A token that may not list stores still reads its own store's map and changes.
    }
    return { resources: listedResources(stores, sessionStore) };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) =>
    readMemoryResource(client(), request.params.uri, options.defaultStore),
  );

  watchResources(server, {
    client,
    events,
    defaultStore: options.defaultStore,
    sessionStore,
  });

  // ---------------------------------------------------------------- prompts
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    getPrompt(
      client(),
      request.params.name,
      request.params.arguments ?? {},
      options.defaultStore,
      INSTRUCTIONS,
    ),
  );

  // ---------------------------------------------------------------- completions
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument, context } = request.params;
    let field: 'store' | 'tag' | 'id' | 'kind' | undefined;
    if (ref.type === 'ref/prompt') {
      if (!PROMPTS.some((p) => p.name === ref.name)) {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Unknown prompt "${ref.name}". Prompts: ${PROMPTS.map((p) => p.name).join(', ')}.`,
        );
      }
      field = PROMPT_FIELDS[ref.name]?.[argument.name];
    } else {
      const template = RESOURCE_TEMPLATES.find((t) => t.uriTemplate === ref.uri);
      if (!template) {
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Unknown resource template "${ref.uri}". Templates: ${RESOURCE_TEMPLATES.map((t) => t.uriTemplate).join(', ')}.`,
        );
      }
      if (template.uriTemplate.includes(`{${argument.name}}`))
        field = TEMPLATE_FIELDS[argument.name];
    }
    // An argument with no set of values (a budget, an offset) completes to nothing.
    if (!field) return { completion: { values: [], total: 0, hasMore: false } };
    const store = context?.arguments?.store ?? options.defaultStore;
    try {
      const r = await client().call('memory.complete', {
        field,
        prefix: argument.value,
        ...(store && (field === 'tag' || field === 'id') ? { store } : {}),
      });
      return { completion: { values: r.values, total: r.total, hasMore: r.has_more } };
    } catch (err) {
      const data = toErrorData(err);
      throw new ProtocolError(
        data.code === 'internal' ? ErrorCode.InternalError : ErrorCode.InvalidParams,
        data.message,
      );
    }
  });

  return server;
}
