// MCP sampling over the daemon's Streamable HTTP endpoint, with the real SDK client: the
// server's sampling request travels on the tool call's own stream, the client's model
// (the test's handler) answers, and the engine gates what it said — the same as in
// memory (src/main/mcp/tools.test.ts), on the transport editors use.
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessClient } from '../src/main/api';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { writeSessions } from './fixtures/transcripts/sessions';
import { tempDir } from './helpers/engine';

let daemon: Daemon;
let dir: string;
beforeAll(async () => {
  dir = tempDir('loci-sampling-http-');
  daemon = await startDaemon({ dataDir: dir, port: 0, env: {}, engine: { embedWrites: 'await' } });
});
afterAll(async () => {
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('MCP sampling over HTTP', () => {
  it("asks the client's model on the tool call's stream and gates its answer", async () => {
    const files = writeSessions(tempDir('loci-sampling-http-files-'));
    const person = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
    await person.call('ingest.setFolders', { folders: [files.codex.replace(/\/[^/]+$/, '')] });

    const client = new Client(
      { name: 'vscode', version: '1.0.0' },
      { capabilities: { sampling: {} } },
    );
    let asked = 0;
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked++;
      return {
        model: 'client-model-http',
        role: 'assistant',
        content: {
          type: 'text',
          text: JSON.stringify([
            { content: 'The timetable builds with pnpm build.', quotes: ['pnpm build'] },
          ]),
        },
      };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
      }),
    );
    try {
      const r = (await client.callTool({
        name: 'import_transcript',
        arguments: { paths: [files.codex] },
      })) as unknown as {
        structuredContent: {
          files: {
            journal_id: string;
            model: { model: string; windows: number; counts: Record<string, number> };
          }[];
        };
      };
      const f = r.structuredContent.files[0]!;
      expect(f.model.model).toBe('client-model-http');
      expect(f.model.counts.proposed).toBe(1);
      expect(asked).toBe(f.model.windows);
      const journal = f.journal_id;
      const d = (await client.callTool({
        name: 'distill_session',
        arguments: { id: journal },
      })) as unknown as {
        isError?: boolean;
        content: { text: string }[];
        structuredContent: { via: string; model: string; counts: Record<string, number> };
      };
      expect(d.isError, d.content[0]?.text).toBeFalsy();
      expect(d.structuredContent).toMatchObject({ via: 'sampling', model: 'client-model-http' });
      // Asked again, the same answer: already in the inbox.
      expect(d.structuredContent.counts.duplicate).toBe(1);
    } finally {
      await client.close();
    }
  });
});
