// `loci mcp` while a daemon or the app owns the data directory: every message is
// forwarded, both ways, to its Streamable HTTP endpoint (httpForward.ts). Nothing of the
// engine is loaded, nor the MCP SDK. When the daemon restarts, the session is opened
// again with the client's own initialize, so the editor does not notice.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Footprint } from '../api/footprint';
import type { Owner } from '../http/client';
import { ForwardError, HttpForwarder, isRequest, type Message } from './httpForward';
import type { StdioSession } from './stdio';

/** Quiet this long (ms) before the heap is collected (as the engine's `memory.idle_trim_s`). */
const IDLE_TRIM_MS = 30_000;
/** JSON-RPC's internal error: the daemon could not be reached or failed. */
const INTERNAL_ERROR = -32603;
/** Ids of the initialize replayed after a daemon restart: their answers stay here. */
const REPLAY_ID = 'loci-reconnect-';

export async function forwardStdio(
  session: StdioSession,
  owner: Owner,
  clientToken: string | null,
): Promise<number> {
  const { stdio, log } = session;
  log(
    `forwarding to the Loci ${owner.kind === 'app' ? 'app' : 'daemon'} at ${owner.url} (pid ${owner.pid})`,
  );
  // An editor keeps this process for as long as it runs: once the session is quiet, the
  // garbage of the messages it carried is collected (it holds nothing else to release).
  const footprint = new Footprint({
    now: Date.now,
    idleMs: IDLE_TRIM_MS,
    pollMs: 5000,
    minFreeShare: 0.05,
    maxStallPct: 20,
    pressureGapMs: 5 * 60_000,
  });
  footprint.start();
  const fwd = new HttpForwarder({
    url: `${owner.url}/mcp`,
    headers: {
      authorization: `Bearer ${clientToken ?? owner.token}`,
      'x-loci-transport': 'stdio-proxy',
    },
    deliver: (m) => {
      footprint.touch();
      if (typeof m.id === 'string' && m.id.startsWith(REPLAY_ID)) return;
      void stdio.send(m as JSONRPCMessage);
    },
    log,
  });

  // The client's initialize, kept to open the session again if the daemon restarts.
  let initialize: Message | null = null;
  let replays = 0;
  const reconnect = async () => {
    if (!initialize) return false;
    log('the daemon no longer knows this session (it restarted?); opening it again');
    fwd.reset();
    await fwd.send({ ...initialize, id: `${REPLAY_ID}${++replays}` });
    await fwd.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    fwd.listen();
    return true;
  };
  const forward = async (m: Message) => {
    try {
      try {
        await fwd.send(m);
      } catch (err) {
        if (!(err instanceof ForwardError && err.status === 404 && fwd.session)) throw err;
        if (!(await reconnect())) throw err;
        await fwd.send(m);
      }
      if (m.method === 'notifications/initialized') fwd.listen();
    } catch (err) {
      log(`forwarding failed: ${(err as Error).message}`);
      if (isRequest(m)) {
        const rpc = err instanceof ForwardError ? err.rpcError : null;
        void stdio.send({
          jsonrpc: '2.0',
          id: m.id as string | number,
          error: rpc ?? {
            code: INTERNAL_ERROR,
            message: `The Loci daemon did not answer: ${(err as Error).message}`,
          },
        });
      }
    }
  };
  stdio.onmessage = (message) => {
    footprint.touch();
    const m = message as unknown as Message;
    if (m.method === 'initialize') {
      session.initialized();
      initialize = m;
    }
    void forward(m);
  };
  await stdio.start();
  const code = await session.done;
  footprint.stop();
  await fwd.close();
  await stdio.close().catch(() => undefined);
  return code;
}
