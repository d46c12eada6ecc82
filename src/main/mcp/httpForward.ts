// The client half of MCP's Streamable HTTP, as `loci mcp` needs it to forward: each
// message is POSTed to the daemon's /mcp; what comes back (a JSON body, or an SSE stream
// of messages) and what the daemon sends on its own (the session's GET stream, reopened
// with Last-Event-ID after a cut) goes to `deliver`. It does not read or check what it
// carries: the daemon validates every message. Plain node:http and eventsource-parser —
// no fetch, no MCP SDK, no zod — so the process an editor keeps per window is small and
// starts fast (README, Cold start and Idle memory).
import { request, type IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';

/** A JSON-RPC message as it travels: not inspected beyond what forwarding needs. */
export type Message = Record<string, unknown>;

export interface ForwardOptions {
  /** The daemon's MCP endpoint (http://127.0.0.1:<port>/mcp). */
  url: string;
  headers: Record<string, string>;
  deliver: (message: Message) => void;
  log: (line: string) => void;
  /** Reconnection of the GET stream: first and longest wait (ms). */
  retryMs?: { first: number; max: number };
}

/** The daemon answered with an HTTP error, or could not be reached. */
export class ForwardError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** The JSON-RPC error the daemon sent with it, when it sent one. */
    readonly rpcError: { code: number; message: string } | null,
  ) {
    super(message);
  }
}

/** A message that expects an answer (the forwarder answers it with the error when it fails). */
export const isRequest = (m: Message) => typeof m.method === 'string' && m.id !== undefined;

export class HttpForwarder {
  private sessionId: string | null = null;
  private protocolVersion: string | null = null;
  private stream: { abort: () => void } | null = null;
  private lastEventId: string | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly o: ForwardOptions) {}

  get session(): string | null {
    return this.sessionId;
  }

  /** The daemon no longer knows the session (it restarted): start afresh. */
  reset(): void {
    this.stream?.abort();
    this.stream = null;
    this.sessionId = null;
    this.protocolVersion = null;
    this.lastEventId = null;
  }

  /** Sends one message; resolves once everything the daemon answered to it is delivered. */
  async send(message: Message): Promise<void> {
    const res = await this.post(message);
    const type = String(res.headers['content-type'] ?? '');
    const sid = res.headers['mcp-session-id'];
    if (typeof sid === 'string' && sid) this.sessionId = sid;
    if (res.statusCode === 202) {
      res.resume();
      return;
    }
    if (res.statusCode !== 200) {
      const body = await readBody(res);
      throw httpError(res.statusCode ?? 0, body);
    }
    if (type.includes('text/event-stream')) {
      await this.readEvents(res, (m) => this.received(message, m));
      return;
    }
    const body = await readBody(res);
    if (!body.trim()) return;
    const parsed = JSON.parse(body) as Message | Message[];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.received(message, m);
  }

  /** Opens the session's stream of messages the daemon starts (notifications, requests). */
  listen(): void {
    if (this.closed || this.stream || !this.sessionId) return;
    const req = request(this.o.url, {
      method: 'GET',
      headers: { ...this.headers(), accept: 'text/event-stream' },
    });
    let aborted = false;
    this.stream = {
      abort: () => {
        aborted = true;
        req.destroy();
      },
    };
    const reopen = (why: string) => {
      this.stream = null;
      if (aborted || this.closed) return;
      this.o.log(`the daemon's event stream ended (${why}); reconnecting`);
      this.scheduleListen();
    };
    req.on('response', (res) => {
      if (res.statusCode === 405) {
        // The daemon sends nothing of its own in this session: nothing to listen to.
        res.resume();
        this.stream = { abort: () => undefined };
        return;
      }
      if (res.statusCode !== 200) {
        res.resume();
        reopen(`HTTP ${res.statusCode}`);
        return;
      }
      this.backoff = this.o.retryMs?.first ?? 1000;
      void this.readEvents(res, (m) => this.o.deliver(m), true).then(
        () => reopen('closed by the daemon'),
        (err: Error) => reopen(err.message),
      );
    });
    req.on('error', (err) => reopen(err.message));
    req.end();
  }

  /** Ends the session at the daemon (best effort) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.stream?.abort();
    this.stream = null;
    if (!this.sessionId) return;
    await new Promise<void>((resolve) => {
      const req = request(this.o.url, { method: 'DELETE', headers: this.headers(), timeout: 2000 });
      req.on('response', (res) => {
        res.resume();
        resolve();
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve());
      req.end();
    });
  }

  private backoff = 1000;

  private scheduleListen(): void {
    if (this.retry || this.closed) return;
    const max = this.o.retryMs?.max ?? 30_000;
    const wait = this.backoff;
    this.backoff = Math.min(max, this.backoff * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.listen();
    }, wait);
    this.retry.unref();
  }

  /** A message that answers `sent`: the session's protocol version is read off initialize. */
  private received(sent: Message, m: Message): void {
    if (sent.method === 'initialize' && m.id === sent.id && m.result) {
      const v = (m.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof v === 'string') this.protocolVersion = v;
    }
    this.o.deliver(m);
  }

  private headers(): Record<string, string> {
    return {
      ...this.o.headers,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
      ...(this.protocolVersion ? { 'mcp-protocol-version': this.protocolVersion } : {}),
      ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}),
    };
  }

  private post(message: Message): Promise<IncomingMessage> {
    const body = Buffer.from(JSON.stringify(message));
    return new Promise((resolve, reject) => {
      const headers = { ...this.headers() };
      delete headers['last-event-id'];
      const req = request(this.o.url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(body.length),
        },
      });
      req.on('response', resolve);
      req.on('error', (err) => reject(new ForwardError(err.message, null, null)));
      req.end(body);
    });
  }

  /** Delivers every `message` event of an SSE response until it ends. */
  private readEvents(
    res: IncomingMessage,
    onMessage: (m: Message) => void,
    resumable = false,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const parser = createParser({
        onEvent: (event) => {
          if (resumable && event.id) this.lastEventId = event.id;
          if (event.event && event.event !== 'message') return;
          if (!event.data) return; // a priming event: an id to resume from, no message
          try {
            onMessage(JSON.parse(event.data) as Message);
          } catch (err) {
            this.o.log(`the daemon sent an event that is not JSON: ${(err as Error).message}`);
          }
        },
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('end', () => resolve());
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the connection was cut')));
    });
  }
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (body += c));
    res.on('end', () => resolve(body));
    res.on('error', reject);
  });
}

function httpError(status: number, body: string): ForwardError {
  let rpc: { code: number; message: string } | null = null;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    const e = parsed.error;
    if (e && typeof e.code === 'number' && typeof e.message === 'string') {
      rpc = { code: e.code, message: e.message };
    }
  } catch {
    /* not JSON: the status says it */
  }
  return new ForwardError(
    rpc?.message ?? `HTTP ${status}${body.trim() ? `: ${body.trim().slice(0, 200)}` : ''}`,
    status,
    rpc,
  );
}
