// A tiny language model endpoint for tests: an HTTP server on 127.0.0.1 that speaks
// OpenAI's chat-completions shape and answers what the test's `reply` says (or never,
// when it returns null, so that a client's timeout must fire). Every request is kept.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  url: string;
  auth: string | undefined;
  body: Record<string, unknown> & { messages?: { role: string; content: string }[] };
}

export interface ChatModel {
  /** The base URL (…/v1) to put in `llm.url`. */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

export async function startChatModel(
  reply: (body: ChatRequest['body']) => string | null,
): Promise<ChatModel> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as ChatRequest['body'];
      requests.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      const text = reply(body);
      if (text === null) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: text } }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
