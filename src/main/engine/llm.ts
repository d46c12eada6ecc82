// The optional language model: an OpenAI-compatible chat-completions endpoint from the
// configuration (`llm`: Ollama, llama.cpp's server, LM Studio…), called with a timeout.
// Dreams ask it for schema summaries and refined procedures, distillation for candidate
// memories drawn from a session journal; what it writes only ever reaches the review inbox
// or the distillation gate. Without an endpoint there is no client, and nothing is sent
// anywhere: the URL must be this machine's unless `llm.allow_remote` says otherwise
// (checked when the configuration is read, config.ts).
import { isLoopbackUrl, type Config } from './config';

export interface LlmClient {
  model: string;
  complete(system: string, user: string, options?: { maxTokens?: number }): Promise<string>;
}

/** The endpoint configured: `llm`, or (older configurations) `dream.llm`. */
export function llmSettings(cfg: Config): Config['llm'] {
  if (cfg.llm.url === undefined && cfg.dream.llm.url !== undefined) {
    return { ...cfg.dream.llm, allow_remote: cfg.llm.allow_remote };
  }
  return cfg.llm;
}

export function createLlmClient(
  cfg: Config['llm'],
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch = fetch,
): LlmClient | null {
  if (!cfg.url) return null;
  const url = `${cfg.url.replace(/\/+$/, '')}/chat/completions`;
  const key = cfg.api_key_env ? env[cfg.api_key_env] : undefined;
  // An older `dream.llm` was not checked when it was read: the same rule, when asked.
  const remote = !cfg.allow_remote && !isLoopbackUrl(cfg.url);
  return {
    model: cfg.model,
    async complete(system, user, options = {}): Promise<string> {
      if (remote) {
        throw new Error(
          `${cfg.url} is not on this machine; set llm.allow_remote to true to send memories and session text there`,
        );
      }
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify({
          model: cfg.model,
          max_tokens: options.maxTokens ?? cfg.max_tokens,
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
