// A LociClient over the daemon's HTTP API, and a reader for its event stream: how the
// CLI (and `loci mcp`) use the running owner of a data directory instead of opening the
// database themselves — one writer, one copy of the models.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { LociClient, MethodArgs, MethodName, MethodResult } from '../../shared/api';
import { fromErrorData, isLociErrorData, LociError } from '../../shared/errors';
import type { EventMap, EventName } from '../../shared/events';
import { liveOwner } from '../api/discovery';

export interface Owner {
  url: string;
  token: string;
  pid: number;
  kind: string;
}

/** The live process owning the data directory, if it serves HTTP. */
export function findOwner(dataDir: string): Owner | null {
  const lock = liveOwner(dataDir);
  if (!lock || !lock.port || !lock.token_path) return null;
  try {
    const token = readFileSync(lock.token_path, 'utf8').trim();
    return { url: `http://127.0.0.1:${lock.port}`, token, pid: lock.pid, kind: lock.kind };
  } catch {
    return null;
  }
}

/**
 * One POST of JSON over loopback with node:http (not fetch: a process that makes a single
 * call — `loci hook`, a CLI command — would spend ~70 ms loading fetch's implementation).
 */
function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number | undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(timeoutMs ? { timeout: timeoutMs } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function createHttpClient(
  owner: Pick<Owner, 'url' | 'token'>,
  /** `{ agent }`: an editor's hook speaking for its agent (an agent's rights and visibility). */
  actor: 'cli' | 'ui' | { agent: string } = 'cli',
  /** Gives up on a call after this long (`unavailable`); none by default. */
  options: { timeoutMs?: number } = {},
): LociClient {
  return {
    async call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
      let response: { status: number; text: string };
      try {
        response = await postJson(
          `${owner.url}/api/${method}`,
          {
            'content-type': 'application/json',
            authorization: `Bearer ${owner.token}`,
            ...(typeof actor === 'string'
              ? { 'x-loci-actor': actor }
              : { 'x-loci-actor': 'agent', 'x-loci-client': actor.agent }),
          },
          JSON.stringify(args ?? {}),
          options.timeoutMs,
        );
      } catch (err) {
        throw new LociError(
          'unavailable',
          `The Loci daemon at ${owner.url} does not answer: ${(err as Error).message}`,
        );
      }
      let body: { result?: unknown; error?: unknown } | null = null;
      try {
        body = JSON.parse(response.text) as { result?: unknown; error?: unknown };
      } catch {
        body = null;
      }
      const ok = response.status >= 200 && response.status < 300;
      if (ok && body && 'result' in body) return body.result as MethodResult<M>;
      if (body && isLociErrorData(body.error)) throw fromErrorData(body.error);
      throw new LociError('unavailable', `The Loci daemon answered HTTP ${response.status}.`);
    },
  };
}

/** Follows /api/events; returns a function that stops following. */
export function followEvents(
  owner: Pick<Owner, 'url' | 'token'>,
  on: <E extends EventName>(event: E, payload: EventMap[E]) => void,
): () => void {
  const controller = new AbortController();
  void (async () => {
    try {
      const response = await fetch(`${owner.url}/api/events`, {
        headers: { authorization: `Bearer ${owner.token}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) on(event as EventName, JSON.parse(data) as never);
        }
      }
    } catch {
      /* stopped, or the daemon went away: progress display only */
    }
  })();
  return () => controller.abort();
}
