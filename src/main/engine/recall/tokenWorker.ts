// The token-count worker thread: counts the texts it is sent with the o200k tokenizer
// (gpt-tokenizer) and answers with the numbers. The tokenizer's tables take ~22 MiB and
// ~300 ms to load; here they load off the thread that answers clients, and go away with
// the worker when the engine is quiet (tokenCounter.ts, engine/footprint.ts).
import { parentPort } from 'node:worker_threads';
import { countTokens } from 'gpt-tokenizer';

export interface TokenRequest {
  id: number;
  texts: string[];
}

export type TokenResponse =
  | { op: 'ready' }
  | { op: 'done'; id: number; counts: number[] }
  | { op: 'failed'; id: number; reason: string };

const port = parentPort;
if (port) {
  port.on('message', (req: TokenRequest) => {
    try {
      const counts = req.texts.map((t) => (t.length === 0 ? 0 : countTokens(t)));
      port.postMessage({ op: 'done', id: req.id, counts } satisfies TokenResponse);
    } catch (err) {
      port.postMessage({
        op: 'failed',
        id: req.id,
        reason: (err as Error)?.message ?? String(err),
      } satisfies TokenResponse);
    }
  });
  port.postMessage({ op: 'ready' } satisfies TokenResponse);
}
