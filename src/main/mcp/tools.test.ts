// The MCP tools' arguments come from the contract: each field a tool lists is the
// contract's field of the method it calls (the same types and limits), and a call is
// validated once — by the contract — except for the few fields a tool reads itself.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { methods } from '../../shared/api';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';
import { buildMcpServer } from './server';
import { toolDefinitions } from './tools';
import { join } from 'node:path';
import { tempDir } from '../../../test/helpers/engine';
import { LEAKED_KEY, writeSessions } from '../../../test/fixtures/transcripts/sessions';
import {
  CreateMessageRequestSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';

const withoutDescription = (schema: z.ZodType) => {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.description;
  return json;
};

/** A real SDK client on an in-memory link to a Loci MCP server over `t`'s handlers. */
async function connectClient(
  t: TestEngine,
  name: string,
  options: {
    handlers?: TestEngine['handlers'];
    capabilities?: ClientCapabilities;
    before?: (client: Client) => void;
  } = {},
): Promise<Client> {
  const server = buildMcpServer({
    backend: { handlers: options.handlers ?? t.handlers, activity: t.engine.activity },
    transport: 'in-memory',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name, version: '1.0.0' },
    options.capabilities ? { capabilities: options.capabilities } : undefined,
  );
  options.before?.(client);
  await client.connect(clientSide);
  // The client now checks every structured answer against the tool's output schema.
  await client.listTools();
  return client;
}

describe('MCP tool arguments', () => {
  it('lists, for every tool, fields of its contract method with the same types and limits', () => {
    for (const tool of toolDefinitions()) {
      const contract = (methods[tool.method].schema as unknown as z.ZodObject).shape;
      for (const [name, field] of Object.entries(tool.schema.shape)) {
        if (name in tool.own.shape) continue;
        expect(
          contract[name],
          `${tool.name}.${name} is not a field of ${tool.method}`,
        ).toBeDefined();
        expect(withoutDescription(field as z.ZodType), `${tool.name}.${name}`).toEqual(
          withoutDescription(contract[name] as z.ZodType),
        );
      }
    }
  });

  it('never offers an agent the fields reserved for a person', () => {
    const recall = toolDefinitions().find((t) => t.name === 'recall');
    for (const reserved of ['as_client', 'include_quarantined', 'rehearse', 'explain'])
      expect(Object.keys(recall?.schema.shape ?? {})).not.toContain(reserved);
  });

  it('validates a call once: the contract judges the values, the tool only its own fields', async () => {
    const t = await openTestEngine();
    try {
      let dispatched = 0;
      const handlers = Object.create(t.handlers) as typeof t.handlers;
      handlers.dispatch = (method, args, ctx) => {
        dispatched++;
        return t.handlers.dispatch(method, args, ctx);
      };
      const client = await connectClient(t, 'tools-test', { handlers });
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as {
          isError?: boolean;
          content: { text: string }[];
        };
      // A value the contract refuses: its message, reached through one dispatch.
      const empty = await call('recall', { query: '   ' });
      expect(empty.isError).toBe(true);
      expect(empty.content[0]?.text).toBe(
        'Invalid arguments for recall: query: the query is empty',
      );
      expect(dispatched).toBe(1);
      // A field that is the tool's own is checked before any dispatch.
      const hard = await call('forget', { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', hard: 'yes' });
      expect(hard.content[0]?.text).toMatch(/^Invalid arguments for forget: hard: /);
      expect(dispatched).toBe(1);
      // So is a field the tool does not have.
      const extra = await call('read', { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', include_deleted: true });
      expect(extra.content[0]?.text).toBe(
        'Invalid arguments for read: unknown field "include_deleted"',
      );
      expect(dispatched).toBe(1);
      await client.close();
    } finally {
      await t.close();
    }
  });

  it('hands an agent its session through the distill prompt, and gates what it proposes', async () => {
    const t = await openTestEngine();
    try {
      const files = writeSessions(tempDir('loci-mcp-distill-'));
      await t.cli.call('ingest.setFolders', { folders: [join(files.codex, '..')] });
      const client = await connectClient(t, 'codex');
      const imported = (await client.callTool({
        name: 'import_transcript',
        arguments: { paths: [files.codex] },
      })) as unknown as { structuredContent: { files: { journal_id: string }[] } };
      const journal = imported.structuredContent.files[0]!.journal_id;
      const prompt = await client.getPrompt({
        name: 'distill',
        arguments: { journal_id: journal },
      });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      expect(text).toContain('USER: Upgrade the date library');
      expect(text).toMatch(/TOOL exit 1: ERR_PNPM_PEER_DEP_ISSUES/);
      const proposed = (await client.callTool({
        name: 'propose_memories',
        arguments: {
          journal_id: journal,
          candidates: [
            {
              content: 'Use pnpm in the ferry app, never npm.',
              quotes: ['From now on use pnpm, never npm.'],
            },
            { content: 'The user decided to drop date-fns.', quotes: ['date-fns is on 4.x'] },
          ],
        },
      })) as unknown as { structuredContent: { results: { status: string; reasons: string[] }[] } };
      expect(proposed.structuredContent.results.map((r) => r.status)).toEqual([
        'proposed',
        'rejected',
      ]);
      expect(proposed.structuredContent.results[1]!.reasons[0]).toMatch(/USER quote/);
      await client.close();
    } finally {
      await t.close();
    }
  });

  it("asks the client's own model when it offers sampling, and gates its answer", async () => {
    const t = await openTestEngine();
    try {
      const dir = tempDir('loci-mcp-sampling-');
      const files = writeSessions(dir);
      await t.cli.call('ingest.setFolders', { folders: [dir] });
      const asked: { system: string; text: string; maxTokens: number }[] = [];
      const client = await connectClient(t, 'vscode', {
        capabilities: { sampling: {} },
        before: (c) =>
          c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
            const content = req.params.messages[0]!.content as { type: 'text'; text: string };
            asked.push({
              system: req.params.systemPrompt ?? '',
              text: content.text,
              maxTokens: req.params.maxTokens,
            });
            return {
              model: 'client-model-1',
              role: 'assistant',
              content: {
                type: 'text',
                text: JSON.stringify({
                  memories: [
                    {
                      content: 'The timetable is built with pnpm build.',
                      quotes: ['pnpm build'],
                      kind: 'procedural',
                    },
                    { content: 'The build takes 3 s.', quotes: ['date-fns is on 4.x'] },
                  ],
                }),
              },
            };
          }),
      });
      const imported = (await client.callTool({
        name: 'import_transcript',
        arguments: { paths: [files.codex, files.claude] },
      })) as unknown as {
        content: { text: string }[];
        structuredContent: {
          files: {
            path: string;
            journal_id: string;
            model: { model: string; counts: Record<string, number> };
          }[];
        };
      };
      const codex = imported.structuredContent.files.find((f) => f.path === files.codex)!;
      expect(codex.model.model).toBe('client-model-1');
      expect(codex.model.counts.proposed).toBe(1);
      expect(codex.model.counts.rejected).toBe(1);
      expect(imported.content[0]!.text).toMatch(/A model \(client-model-1\) read 1 window/);
      expect(asked.length).toBe(2);
      expect(asked[0]!.system).toMatch(/Answer with JSON only/);
      expect(asked.map((a) => a.text).join('\n')).not.toContain(LEAKED_KEY);
      const j = await t.cli.call('journal.get', { id: codex.journal_id });
      const sampled = j.candidates.filter((c) => c.extractor === 'sampling');
      expect(sampled.map((c) => c.status)).toEqual(['proposed', 'rejected']);
      expect(sampled[1]!.reasons.join(' ')).toMatch(
        /the measurement "3 s" is quoted from no TOOL output/,
      );
      const audit = await t.cli.call('audit.list', { action: 'journal.sampled' });
      expect(audit.entries[0]).toMatchObject({ actor: 'mcp:vscode' });

      // distill_session asks again, through the same gate (now a duplicate).
      const again = (await client.callTool({
        name: 'distill_session',
        arguments: { id: codex.journal_id },
      })) as unknown as { structuredContent: { via: string; counts: Record<string, number> } };
      expect(again.structuredContent.via).toBe('sampling');
      expect(again.structuredContent.counts.duplicate).toBe(1);
      await client.close();
    } finally {
      await t.close();
    }
  });

  it('tells an agent without a model to distil the session itself', async () => {
    const t = await openTestEngine();
    try {
      const files = writeSessions(tempDir('loci-mcp-nomodel-'));
      await t.cli.call('ingest.setFolders', { folders: [join(files.codex, '..')] });
      const client = await connectClient(t, 'zed');
      const imported = (await client.callTool({
        name: 'import_transcript',
        arguments: { paths: [files.codex] },
      })) as unknown as { structuredContent: { files: { journal_id: string; model?: unknown }[] } };
      expect(imported.structuredContent.files[0]!.model).toBeUndefined();
      const r = (await client.callTool({
        name: 'distill_session',
        arguments: { id: imported.structuredContent.files[0]!.journal_id },
      })) as unknown as { isError?: boolean; content: { text: string }[] };
      expect(r.isError).toBeFalsy();
      expect(r.content[0]!.text).toMatch(/No model is at hand.*the `distill` prompt/);
      await client.close();
    } finally {
      await t.close();
    }
  });

  it('says when recall hid an older version, and shows it with history', async () => {
    const t = await openTestEngine();
    try {
      const { results } = await t.cli.call('memory.rememberMany', {
        items: [
          { content: 'Billing runs on port 8080.' },
          { content: 'Billing moved to port 8081.' },
        ],
      });
      const [old, current] = results.map((r) => r.id);
      await t.cli.call('link.create', { from: current!, to: old!, type: 'supersedes' });
      const client = await connectClient(t, 'cursor');
      const text = async (args: Record<string, unknown>) =>
        (
          (await client.callTool({ name: 'recall', arguments: args })).content as {
            text: string;
          }[]
        )[0]!.text;
      expect(await text({ query: 'billing port 8080' })).toMatch(
        /1 older version hidden \(history: true shows it\)/,
      );
      expect(await text({ query: 'billing port 8080', history: true })).toContain(
        'Billing runs on port 8080.',
      );
      await client.close();
    } finally {
      await t.close();
    }
  });

  it('names a conflict on remember and recall, resolves and undoes it, and verifies claims', async () => {
    const t = await openTestEngine();
    try {
      const client = await connectClient(t, 'cursor');
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: args });
        return {
          text: (r.content as { text: string }[])[0]!.text,
          structured: r.structuredContent as Record<string, unknown>,
          isError: r.isError,
        };
      };
      await call('remember', { content: 'The billing service listens on port 8080.' });
      const second = await call('remember', {
        content: 'The billing service listens on port 9090.',
      });
      expect(second.text).toMatch(
        /It seems to contradict \[[0-9A-Z]{26}\] \(conflict [0-9A-Z]{26}\)/,
      );
      const conflict = (second.structured.conflicts as { conflict: string }[])[0]!.conflict;

      const recalled = await call('recall', { query: 'billing service port' });
      expect(recalled.text).toMatch(
        /conflicts with \[[0-9A-Z]{26}\] \(this one is current; conflict/,
      );
      const listed = await call('conflicts', {});
      expect(listed.text).toMatch(/differs: 8080 → 9090/);

      const verified = await call('verify', { claim: 'The billing service listens on port 9090' });
      expect(verified.text).toMatch(/^SUPPORTED \(confidence 0\.\d+\)/);
      const unknown = await call('verify', { claim: 'The billing service is written in Rust' });
      expect(unknown.text).toMatch(/^UNKNOWN[\s\S]*say so rather than guess/);

      const resolved = await call('resolve', {
        ids: [conflict],
        resolution: 'supersede',
        reason: 'the user moved it',
      });
      expect(resolved.text).toMatch(/holds now; the other stopped holding at/);
      expect((await call('recall', { query: 'billing service port' })).text).toMatch(
        /1 older version hidden/,
      );
      const old = await call('verify', { claim: 'The billing service listens on port 8080' });
      expect(old.text).toMatch(/^CONTRADICTED[\s\S]*it was true/);

      expect(
        (await call('resolve', { ids: [conflict], resolution: 'dismiss', undo: true })).text,
      ).toMatch(/open again/);
      const refused = await call('resolve', {
        ids: [conflict, conflict],
        resolution: 'dismiss',
        undo: true,
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/undo takes exactly one conflict id/);
      await client.close();
    } finally {
      await t.close();
    }
  });

  it('answers session_summary, errors and decisions from what sessions left', async () => {
    const t = await openTestEngine();
    try {
      const files = writeSessions(tempDir('loci-mcp-sessions-'));
      await t.cli.call('transcript.import', { paths: [files.codex, files.claude] });
      await t.cli.call('review.accept', {
        ids: (await t.cli.call('review.list', { kind: 'distill' })).items.map((i) => i.id),
      });
      const client = await connectClient(t, 'claude-code');
      const text = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text;
      const summary = await text('session_summary', { project: '/home/ada/code/ferry-app' });
      expect(summary).toContain('Codex CLI session in /home/ada/code/ferry-app');
      expect(summary).not.toContain('billing-api');
      expect(await text('session_summary', {})).toContain('billing-api');
      expect(
        await text('errors', { query: 'ERR_PNPM_PEER_DEP_ISSUES unmet peer dependencies' }),
      ).toContain('--config.strict-peer-dependencies=false');
      expect(await text('decisions', { query: 'which package manager, pnpm or npm' })).toContain(
        'From now on use pnpm, never npm.',
      );
      expect(await text('errors', { query: 'kubernetes pod crashloop' })).toBe(
        'No known remedy for this error.',
      );
      await client.close();
    } finally {
      await t.close();
    }
  });
});
