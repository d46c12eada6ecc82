// The user's settings, kept in <data dir>/config.json and validated on every load so a
// typo is reported by name instead of silently ignored. Written atomically.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LociError } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';

export const RankingWeightsSchema = z.strictObject({
  relevance: z.number().min(0).max(1).default(0.75),
  activation: z.number().min(0).max(1).default(0.08),
  retrievability: z.number().min(0).max(1).default(0.07),
  salience: z.number().min(0).max(1).default(0.05),
  pinned: z.number().min(0).max(1).default(0.05),
});

/** An OpenAI-compatible chat-completions endpoint. */
const LlmEndpointSchema = z.strictObject({
  /** Base URL, e.g. http://127.0.0.1:11434/v1 (…/chat/completions is appended). */
  url: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1).max(200).default('gpt-4o-mini'),
  /** The name of an environment variable holding the API key (never the key itself). */
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
    .optional(),
  timeout_ms: z.number().int().min(500).max(300_000).default(30_000),
  max_tokens: z.number().int().min(16).max(8000).default(400),
});

/** `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export const ConfigSchema = z.strictObject({
  embedding: z
    .strictObject({
      /** `auto`: the catalogue's default if installed, else the first installed model. */
      model: z.string().min(1).default('auto'),
      threads: z.number().int().min(1).max(64).optional(),
      batch_size: z.number().int().min(1).max(256).default(32),
      /**
       * `ask`: while no model is installed, the observatory, the desktop app and
       * `loci setup` offer the catalogue's default (nothing downloads without a yes);
       * `declined`: a person said "not now", so they no longer ask.
       */
      offer: z.enum(['ask', 'declined']).default('ask'),
    })
    .prefault({}),
  recall: z
    .strictObject({
      weights: RankingWeightsSchema.prefault({}),
      /**
       * How lexical and vector relevance combine: `linear`, a weighted sum of the BM25
       * score (relative to the best) and the cosine similarity; or `rrf`, reciprocal rank
       * fusion with `rrf_k`. Measured on conversations, ranks throw away how much better
       * the first match is, and linear fusion wins (docs/heuristics.md).
       */
      fusion: z.enum(['linear', 'rrf']).default('linear'),
      rrf_k: z.number().int().min(1).max(1000).default(60),
      /** Share of relevance from vector similarity with a semantic model (linear fusion). */
      vector_weight: z.number().min(0).max(1).default(0.5),
      /** The same with the hashing fallback, whose similarity is shared spelling, not meaning. */
      spelling_weight: z.number().min(0).max(1).default(0.15),
      /** Share of a match's relevance lent to the turns just before and after it in its session. */
      neighbour_weight: z.number().min(0).max(1).default(0.5),
      /** Relevance gained (× 1 + this) by a memory whose speaker the query names. */
      speaker_boost: z.number().min(0).max(3).default(0.5),
      /** Relevance gained (× 1 + this) by a memory from a time the query names. */
      time_boost: z.number().min(0).max(3).default(1),
      spread_hops: z.number().int().min(0).max(2).default(2),
      spread_decay: z.number().min(0).max(1).default(0.6),
      spread_nodes: z.number().int().min(0).max(50).default(50),
      mmr_lambda: z.number().min(0).max(1).default(0.7),
      /** Re-calibrate abstention when the store has grown by this factor since the last time. */
      recalibrate_growth: z.number().min(1.1).max(100).default(2),
      /** Stages that can be switched off, for comparisons (`npm run eval`) and diagnosis. */
      use_vectors: z.boolean().default(true),
      use_recognizer: z.boolean().default(true),
    })
    .prefault({}),
  backup: z
    .strictObject({
      /** The daemon backs up each open store this often (hours; 0: never). */
      every_hours: z.number().min(0).max(8760).default(24),
      /** Scheduled backups kept per store (older ones are removed); manual ones are kept. */
      keep: z.number().int().min(1).max(1000).default(7),
    })
    .prefault({}),
  ingest: z
    .strictObject({
      /** Folders the MCP tool ingest_file may read from (absolute; Settings or `loci ingest allow`). */
      allowed_folders: z.array(z.string().min(1).max(4096)).max(100).default([]),
    })
    .prefault({}),
  dream: z
    .strictObject({
      /** Dream on its own when the daemon (or the app) has been idle for a while. */
      schedule: z.boolean().default(true),
      /** Minutes without a call before a scheduled dream may start. */
      idle_minutes: z.number().int().min(1).max(1440).default(30),
      /** At most one scheduled cycle per store per this many hours. */
      interval_hours: z.number().min(0.25).max(720).default(24),
      /** Proposals written without a person's review, per kind (off: they wait in the inbox). */
      auto_accept: z
        .strictObject({
          schema: z.boolean().default(false),
          merge: z.boolean().default(false),
          link: z.boolean().default(false),
          refine: z.boolean().default(false),
          distill: z.boolean().default(false),
        })
        .prefault({}),
      /** Links made by recombination per cycle, at most. */
      max_new_links: z.number().int().min(0).max(1000).default(20),
      /** Memories compared for near-duplicates and recombination per cycle (the most recent). */
      max_compared: z.number().int().min(10).max(20_000).default(3000),
      /** Word-set similarity (Jaccard) at or above which two memories are near-duplicates. */
      merge_similarity: z.number().min(0.5).max(1).default(0.8),
      /** Similarity at or above which two distant memories get a proposed link. */
      recombine_similarity: z.number().min(0.1).max(0.95).default(0.35),
      /** Smallest cluster a schema summary is proposed for. */
      schema_min_cluster: z.number().int().min(2).max(100).default(3),
      /** Days for a memory's arousal to halve. */
      arousal_half_life_days: z.number().min(1).max(3650).default(30),
      /** Days for an unused link's weight (and an unused memory's salience) to halve. */
      fade_half_life_days: z.number().min(1).max(3650).default(90),
      /** A memory unused this many days, with nearly no chance of recall, is forgotten (soft). */
      prune_after_days: z.number().int().min(30).max(36500).default(365),
      /** Earlier versions kept per memory (the oldest go first). */
      keep_versions: z.number().int().min(1).max(1000).default(50),
      /** Dream reports kept per store. */
      keep_reports: z.number().int().min(5).max(10_000).default(200),
      /** Older configurations named the language model here; `llm` wins when both are set. */
      llm: LlmEndpointSchema.prefault({}),
    })
    .prefault({}),
  /**
   * An OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp's server, LM Studio)
   * for the steps that want a language model: dreams' schema summaries and refined
   * procedures, and candidate memories drawn from session journals. Without one those
   * steps are skipped and say so; what it writes only reaches the review inbox or the
   * distillation gate.
   */
  llm: LlmEndpointSchema.extend({
    /** Send journal text and memories to an endpoint that is not this machine. */
    allow_remote: z.boolean().default(false),
  })
    .superRefine((llm, ctx) => {
      if (llm.url && !llm.allow_remote && !isLoopbackUrl(llm.url)) {
        ctx.addIssue({
          code: 'custom',
          path: ['url'],
          message: `${llm.url} is not on this machine; set llm.allow_remote to true to send memories and session text there`,
        });
      }
    })
    .prefault({}),
  distill: z
    .strictObject({
      /** After an import, ask the language model (`llm`) for candidates too, when one is set. */
      model_on_import: z.boolean().default(true),
      /** Journal turns handed to a model at once. */
      window_turns: z.number().int().min(10).max(1000).default(120),
      /** Windows of one journal a model is asked about, at most (the rest are left). */
      max_windows: z.number().int().min(1).max(100).default(8),
      /** Tokens a model may answer with, per window. */
      max_tokens: z.number().int().min(64).max(16_000).default(1500),
    })
    .prefault({}),
  /** Contradiction candidates (the Conflicts view, conflict.*, verify). */
  conflicts: z
    .strictObject({
      /**
       * Compare each new memory with its nearest ones when it is written (a batch: just
       * after, in the background). Off: only conflict.scan and the dream phase look.
       */
      detect_on_write: z.boolean().default(true),
      /** Below this detector confidence (0–1) a pair is not recorded. */
      min_confidence: z.number().min(0).max(1).default(0.5),
    })
    .prefault({}),
  /** What a daemon (or `loci mcp`, or the app) keeps resident, and when it gives it back. */
  memory: z
    .strictObject({
      /**
       * After this many seconds without a call, worker threads and caches are let go and
       * the heap collected (0: never). The next call starts what it needs again.
       */
      idle_trim_s: z.number().min(0).max(86_400).default(30),
      /**
       * Under memory pressure — free memory below this percentage of the machine's, or
       * (Linux) tasks stalled on memory more than `max_stall_pct` of the time — the
       * in-memory indexes (recogniser, vector pre-filter) go too, rebuilt on next use.
       */
      min_free_pct: z.number().min(0).max(50).default(5),
      max_stall_pct: z.number().min(0).max(100).default(20),
      /**
       * Linux (glibc): the C allocator's arenas the threads share, at most (0: glibc's own
       * rule, eight per core). Fewer arenas leave less memory pinned between blocks still
       * in use once quiet.
       */
      native_arenas: z.number().int().min(0).max(64).default(2),
    })
    .prefault({}),
});

export type Config = z.output<typeof ConfigSchema>;

export function configPath(dataDir: string): string {
  return join(dataDir, 'config.json');
}

export function loadConfig(dataDir: string): Config {
  const file = configPath(dataDir);
  let raw: unknown = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new LociError(
        'invalid-args',
        `${file} is not valid JSON. Fix it or remove it to use the defaults.`,
      );
    }
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new LociError('invalid-args', `${file}: ${describeIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

/** Applies a change to the stored config (validated before it is written). */
export function updateConfig(
  dataDir: string,
  change: (raw: Record<string, unknown>) => void,
): Config {
  const file = configPath(dataDir);
  const raw = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
    : {};
  change(raw);
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new LociError('invalid-args', `config: ${describeIssues(parsed.error.issues)}`);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return parsed.data;
}
