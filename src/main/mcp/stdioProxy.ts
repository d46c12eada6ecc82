// `loci mcp` while a daemon or the app owns the data directory: every message is
// forwarded, both ways, to its Streamable HTTP endpoint. Nothing of the engine is loaded.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Owner } from '../http/client';
import { isolatedFetch } from '../http/isolatedFetch';
import { isInitialize, type StdioSession } from './stdio';

export async function forwardStdio(
  session: StdioSession,
  owner: Owner,
  clientToken: string | null,
): Promise<number> {
  const { stdio, log } = session;
  log(
    `forwarding to the Loci ${owner.kind === 'app' ? 'app' : 'daemon'} at ${owner.url} (pid ${owner.pid})`,
  );
  const http = new StreamableHTTPClientTransport(new URL(`${owner.url}/mcp`), {
    requestInit: {
      headers: {
        authorization: `Bearer ${clientToken ?? owner.token}`,
        'x-loci-transport': 'stdio-proxy',
      },
    },
    fetch: isolatedFetch(),
  });
  stdio.onmessage = (message) => {
    if (isInitialize(message)) session.initialized();
    http.send(message).catch((err: Error) => {
      log(`forwarding failed: ${err.message}`);
      if ('id' in message && message.id !== undefined) {
        void stdio.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32603, message: `The Loci daemon did not answer: ${err.message}` },
        });
      }
    });
  };
  http.onmessage = (message) => {
    void stdio.send(message);
  };
  http.onerror = (err) => log(`daemon connection: ${err.message}`);
  await http.start();
  await stdio.start();
  const code = await session.done;
  await http.terminateSession().catch(() => undefined);
  await http.close().catch(() => undefined);
  await stdio.close().catch(() => undefined);
  return code;
}
