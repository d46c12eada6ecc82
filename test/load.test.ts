// Many agents at once through the daemon (bounded: 20 clients × 20 calls here; the full
// 20 × 200 with latencies is `npm run bench:mcp`). Every acknowledged write must be there
// afterwards, readable, and no call may fail.
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../src/main/daemon';
import type { StatsResult } from '../src/shared/api';
import { tempDir } from './helpers/engine';

const CLIENTS = 20;
const CALLS = 20;

let daemon: Daemon;
let dir: string;
beforeAll(async () => {
  dir = tempDir('loci-load-');
  daemon = await startDaemon({ dataDir: dir, port: 0, env: {} });
});
afterAll(async () => {
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('concurrent MCP clients through the daemon', () => {
  it(
    `${CLIENTS} clients × ${CALLS} mixed calls: no errors, no lost writes`,
    { timeout: 60_000 },
    async () => {
      const errors: string[] = [];
      const written: { id: string; content: string }[] = [];
      const agent = async (c: number) => {
        const client = new Client({ name: `load-agent-${c}`, version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
          }),
        );
        for (let i = 0; i < CALLS; i++) {
          const remember = (i + c) % 2 === 0;
          const content = `Agent ${c} observation ${i}: the ${['build', 'deploy', 'cache', 'queue'][i % 4]} step took ${c * 100 + i} ms.`;
          const r = remember
            ? await client.callTool({ name: 'remember', arguments: { content } })
            : await client.callTool({
                name: 'recall',
                arguments: { query: `agent ${c} ${['build', 'deploy'][i % 2]} step` },
              });
          if (r.isError) errors.push(JSON.stringify(r.content));
          else if (remember)
            written.push({ id: (r.structuredContent as { id: string }).id, content });
        }
        await client.close();
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => agent(c)));

      expect(errors).toEqual([]);
      expect(written).toHaveLength((CLIENTS * CALLS) / 2);
      expect(new Set(written.map((w) => w.id)).size).toBe(written.length);
      const stats = (await daemon.handlers.dispatch(
        'stats.get',
        {},
        { actor: { kind: 'cli' } },
      )) as StatsResult;
      expect(stats.memories.live).toBe(written.length);
      for (const w of written) {
        const m = await daemon.handlers.dispatch(
          'memory.get',
          { id: w.id },
          { actor: { kind: 'cli' } },
        );
        expect((m as { content: string }).content).toBe(w.content);
      }
    },
  );
});
