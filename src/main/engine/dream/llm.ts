// The optional language model of dreams: an OpenAI-compatible chat-completions endpoint
// from the configuration, called with a timeout. What it writes only ever becomes a
// review item; nothing here touches the store. Without an endpoint there is no client.
import type { Config } from '../config';
import type { LlmClient } from './types';

export function createLlmClient(
  cfg: Config['dream']['llm'],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch = fetch,
): LlmClient | null {
  if (!cfg.url) return null;
  const url = `${cfg.url.replace(/\/+$/, '')}/chat/completions`;
  const key = cfg.api_key_env ? env[cfg.api_key_env] : undefined;
  return {
    model: cfg.model,
    async complete(system: string, user: string): Promise<string> {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify({
          model: cfg.model,
          max_tokens: cfg.max_tokens,
          temperature: 0,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        }),
        signal: AbortSignal.timeout(cfg.timeout_ms),
      }).catch((err: unknown) => {
        const name = (err as Error)?.name;
        throw new Error(
          name === 'TimeoutError'
            ? `no answer from ${url} within ${cfg.timeout_ms} ms`
            : `cannot reach ${url}: ${(err as Error)?.message ?? String(err)}`,
        );
      });
      if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
      const body = (await res.json().catch(() => null)) as {
        choices?: { message?: { content?: unknown } }[];
      } | null;
      const text = body?.choices?.[0]?.message?.content;
      if (typeof text !== 'string' || text.trim() === '') {
        throw new Error(
          `${url} did not answer in the chat-completions shape (choices[0].message.content)`,
        );
      }
      return text;
    },
  };
}
