// An incremental parser for `text/event-stream` (the WHATWG rules the daemon's stream
// uses): lines end in \n, \r\n or \r and may be split anywhere across chunks; `data:`
// lines accumulate; a blank line dispatches; `:` lines are comments (heartbeats).
// It parses decoded text only: splitting multi-byte characters is TextDecoder's job.

export interface SseMessage {
  /** The `event:` field, `message` when the block had none. */
  event: string;
  data: string;
  /** The last `id:` seen on the stream (it persists across messages), or null. */
  id: string | null;
}

export interface SseParser {
  push(text: string): void;
  /** Forgets a partial message, e.g. when the connection drops mid-block. */
  reset(): void;
}

export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  // The previous chunk ended with \r: a \n at the start of the next one is the same line end.
  let pendingCr = false;
  let event = '';
  let data: string[] = [];
  let id: string | null = null;

  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), id });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields are ignored: the client owns its reconnection policy.
  };

  return {
    push(text) {
      if (pendingCr && text.startsWith('\n')) text = text.slice(1);
      pendingCr = false;
      // Only the unterminated tail of the previous chunk needs scanning again.
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(buffer.slice(start, i));
        if (c === 13) {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    reset() {
      buffer = '';
      pendingCr = false;
      event = '';
      data = [];
    },
  };
}
