// MCP over stdio with a bounded message size: newline-delimited JSON-RPC, as the SDK's
// StdioServerTransport reads it, but a message past the limit is skipped to its end and
// answered with a JSON-RPC error (its id when one can be read from its first or last
// bytes), and a line that is not JSON-RPC is answered too; the session goes on. The SDK's
// transport instead drops its buffer mid-message and closes the session, silently.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes } from '../../shared/format';

/** The largest message read from stdin; larger ones are answered with an error. */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC's own error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

const HEAD_BYTES = 4096;
const TAIL_BYTES = 512;

type Id = string | number | null;

const ID_VALUE = String.raw`("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})`;
/** `{"jsonrpc":"2.0","id":7,…` — the id as the first or second member. */
const ID_AT_HEAD = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`,
);
/** `…,"jsonrpc":"2.0","id":7}` — the id as the last member (the SDK's clients write it so). */
const ID_AT_TAIL = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a message known only by its first and last bytes, or null. */
export function idOfOversized(head: string, tail: string): Id {
  const m = ID_AT_TAIL.exec(tail) ?? ID_AT_HEAD.exec(head);
  if (!m?.[1]) return null;
  try {
    return JSON.parse(m[1]) as string | number;
  } catch {
    return null;
  }
}

const INVALID_PARAMS = -32602;

/**
 * Where a JSON value holds a `__proto__` key of its own (`params.arguments.__proto__`),
 * or null. JSON.parse keeps such a key, but copying the object (as the SDK does with a
 * request's arguments) turns it into a prototype and the key silently disappears, where
 * /api rejects it. Both MCP transports refuse such a message instead.
 */
export function prototypeKeyPath(value: unknown, path = '', depth = 0): string | null {
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = prototypeKeyPath(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key === '__proto__') return at;
    const found = prototypeKeyPath((value as Record<string, unknown>)[key], at, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The JSON-RPC error for a message with a `__proto__` key, or null when it has none. */
export function prototypeKeyError(
  message: unknown,
): { jsonrpc: '2.0'; id: Id; error: { code: number; message: string } } | null {
  const at = prototypeKeyPath(message);
  if (!at) return null;
  const id = (message as { id?: unknown } | null)?.id;
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: {
      code: INVALID_PARAMS,
      message: `Invalid params: the key "__proto__" (at ${at}) is not allowed.`,
    },
  };
}

const isId = (v: unknown) => typeof v === 'string' || Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const onlyKeys = (v: Record<string, unknown>, keys: string[]) =>
  Object.keys(v).every((k) => keys.includes(k));

/**
 * The JSON-RPC 2.0 envelope as MCP's schema has it: a request, a notification, a result
 * or an error, with no other members. What is inside (params, result) is the receiver's
 * to check: the SDK's handlers, or the daemon a forwarder passes the message to.
 */
export function isJsonRpcMessage(v: unknown): v is JSONRPCMessage {
  if (!isObject(v) || v.jsonrpc !== '2.0') return false;
  if ('method' in v) {
    if (typeof v.method !== 'string') return false;
    if (v.params !== undefined && !isObject(v.params)) return false;
    if (!onlyKeys(v, ['jsonrpc', 'id', 'method', 'params'])) return false;
    return !('id' in v) || isId(v.id);
  }
  if ('result' in v)
    return isId(v.id) && isObject(v.result) && onlyKeys(v, ['jsonrpc', 'id', 'result']);
  if ('error' in v) {
    const e = v.error;
    if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') return false;
    if (!onlyKeys(e, ['code', 'message', 'data'])) return false;
    return (v.id === undefined || isId(v.id)) && onlyKeys(v, ['jsonrpc', 'id', 'error']);
  }
  return false;
}

export class BoundedStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /**
   * What counts as a message: the envelope by default; a server in this process may
   * install the MCP SDK's full schema (stdioLocal.ts).
   */
  accepts: (value: unknown) => boolean = isJsonRpcMessage;

  private parts: Buffer[] = [];
  private size = 0;
  /** Past the limit: the rest of this line is skipped; its first and last bytes are kept. */
  private oversized: { head: Buffer; tail: Buffer } | null = null;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly maxBytes = STDIO_MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('BoundedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const nl = data.indexOf(0x0a);
      if (nl < 0) {
        this.append(data);
        return;
      }
      this.append(data.subarray(0, nl));
      this.endLine();
      data = data.subarray(nl + 1);
    }
  };

  private append(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.oversized) {
      this.oversized.tail = Buffer.concat([this.oversized.tail, part]).subarray(-TAIL_BYTES);
      return;
    }
    if (this.size > this.maxBytes) {
      const all = Buffer.concat([...this.parts, part.subarray(0, HEAD_BYTES)]);
      this.oversized = { head: all.subarray(0, HEAD_BYTES), tail: part.subarray(-TAIL_BYTES) };
      this.parts = [];
      return;
    }
    this.parts.push(part);
  }

  private endLine(): void {
    const size = this.size;
    const oversized = this.oversized;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    this.oversized = null;
    if (oversized) {
      const id = idOfOversized(oversized.head.toString('utf8'), oversized.tail.toString('utf8'));
      this.answerError(
        id,
        INVALID_REQUEST,
        `The message is ${formatBytes(size)}; the limit for one message is ${formatBytes(this.maxBytes)}. It was not read.`,
      );
      return;
    }
    const line = Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      this.answerError(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`);
      return;
    }
    const refused = prototypeKeyError(value);
    if (refused) {
      this.onerror?.(new Error(refused.error.message));
      void this.write(refused);
      return;
    }
    if (!this.accepts(value)) {
      const id = (value as { id?: unknown } | null)?.id;
      this.answerError(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        INVALID_REQUEST,
        'Invalid request: not a JSON-RPC 2.0 message.',
      );
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  private answerError(id: Id, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.oversized = null;
    this.onclose?.();
  }
}
