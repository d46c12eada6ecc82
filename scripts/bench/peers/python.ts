// The Python memory systems, each installed by pip into its own venv (./venv.ts), run as an
// MCP stdio server on a fresh data directory, with the real all-MiniLM-L6-v2 from the folder
// of models laid out where it looks (./localModel.ts) and every model hub switched off.
// Tool names and settings are read from each installed package; nothing of theirs is
// copied here.
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3-multiple-ciphers';
import { baseEnv, check, text, type Launch, type Session, type SystemUnderTest } from './common';
import {
  arrangeFastEmbedCache,
  arrangeMcpMemoryServiceHome,
  arrangeSentenceTransformersCache,
  requireMiniLm,
} from './localModel';
import { requireMeaning } from './probe';
import { stdioSession } from './stdio';
import { ensureVenv, type Venv, type VenvSpec } from './venv';

/** No hub, no telemetry, no self-update, whatever library asks. */
const offline = {
  HF_HUB_OFFLINE: '1',
  TRANSFORMERS_OFFLINE: '1',
  HF_DATASETS_OFFLINE: '1',
  HF_HUB_DISABLE_TELEMETRY: '1',
  DO_NOT_TRACK: '1',
  ANONYMIZED_TELEMETRY: 'False',
  PYTHONUNBUFFERED: '1',
};

/** A key for a memory from its content, for servers whose search gives content back, not ids. */
const contentKey = (content: string) => content.slice(0, 150);

interface PythonSystem {
  name: string;
  venv: VenvSpec;
  /** What the report says of its install and configuration, after the versions. */
  setup: string;
  /** Arranges the model (once per run); returns env shared by its launches. */
  arrange(): Record<string, string>;
  launch(venv: Venv, dir: string, env: Record<string, string>): Launch;
  write: SystemUnderTest['write'];
  search: SystemUnderTest['search'];
  settle?: SystemUnderTest['settle'];
  checkModel?: SystemUnderTest['checkModel'];
}

function pythonSystem(p: PythonSystem): SystemUnderTest {
  let venv: Venv | undefined;
  let env: Record<string, string> = {};
  const launch = (dir: string): Launch => {
    if (!venv) throw new Error(`${p.name} is not prepared`);
    return p.launch(venv, dir, { ...baseEnv, ...offline, ...env });
  };
  const sut: SystemUnderTest = {
    name: p.name,
    model: true,
    get about() {
      const v = venv
        ? `${Object.entries(venv.versions)
            .map(([k, x]) => `${k} ${x}`)
            .join(
              ', ',
            )}; Python ${venv.pythonVersion}${venv.sqliteShim ? ' (sqlite3 swapped for pysqlite3-binary: this Python cannot load SQLite extensions)' : ''}`
        : 'not installed';
      return `${v}. ${p.setup}`;
    },
    async prepare() {
      requireMiniLm();
      venv = await ensureVenv(p.venv);
      env = p.arrange();
      await requireMeaning(sut);
    },
    launch,
    start: (dir): Promise<Session> => stdioSession(launch(dir)),
    write: p.write,
    search: p.search,
    ...(p.settle ? { settle: p.settle } : {}),
    ...(p.checkModel ? { checkModel: p.checkModel } : {}),
  };
  return sut;
}

// cerebro-cortex: `remember` answers "Stored memory (ID: …)" or "Memory gated out …";
// `recall` answers numbered lines `N. [type] (score: …, salience: …) <first 150 characters>`.
const cerebroCortex = pythonSystem({
  name: 'cerebro-cortex',
  venv: {
    name: 'cerebro-cortex',
    // torch 2.13.0 is pinned for its CPU build (a plain requirement pulls the CUDA one);
    // the wheel pip finds for it here is for CPython 3.11.
    python: { min: [3, 11], max: [3, 11] },
    // Its `mcp` extra asks for any mcp; 2.x dropped the server API it uses, so 1.30.0.
    steps: [['torch==2.13.0', 'cerebro-cortex[mcp]==0.2.0', 'mcp==1.30.0']],
    sqliteExtensions: false,
    report: ['cerebro-cortex', 'sentence-transformers', 'torch', 'chromadb', 'mcp'],
  },
  setup:
    '`pip install torch==2.13.0 "cerebro-cortex[mcp]==0.2.0" mcp==1.30.0` (its `mcp` extra is unpinned, and with mcp 2.x, which pip picks, the server dies at start on an API 2.0 removed); `cerebro-mcp` with `CEREBRO_DATA_DIR` on the run\'s directory; its embedder, sentence-transformers `all-MiniLM-L6-v2` on PyTorch, is loaded from a local Hugging Face cache (`HF_HUB_CACHE`, `HF_HUB_OFFLINE=1`) holding the int8 ONNX weights dequantized to float32 safetensors; `remember` / `recall` (top_k 10), which ranks by vector similarity and spreading activation',
  arrange: () => ({ HF_HUB_CACHE: arrangeSentenceTransformersCache() }),
  launch: (venv, dir, env) => ({
    command: venv.bin('cerebro-mcp'),
    args: [],
    env: { ...env, HOME: dir, CEREBRO_DATA_DIR: join(dir, 'cerebro') },
  }),
  async write(client, _i, content) {
    const r = check(
      await client.callTool({ name: 'remember', arguments: { content } }),
      'remember',
    );
    const t = text(r);
    if (/^Error/.test(t)) throw new Error(`remember: ${t.slice(0, 300)}`);
    const key = contentKey(content);
    if (/^Stored memory/.test(t)) {
      stored(client).add(key);
      return key;
    }
    // Gated out as a duplicate or as noise: findable only if the same text is stored.
    return stored(client).has(key) ? key : null;
  },
  async search(client, query) {
    const r = check(
      await client.callTool({ name: 'recall', arguments: { query, top_k: 10 } }),
      'recall',
    );
    const t = text(r).split('\n\n**Contradictions detected:**')[0] ?? '';
    if (/^Error/.test(t)) throw new Error(`recall: ${t.slice(0, 300)}`);
    const head = /^\d+\. \[[\w-]+\] \(score: [-\d.e+]+, salience: [-\d.e+]+\) /gm;
    const starts = [...t.matchAll(head)];
    return starts.slice(0, 10).map((m, k) => {
      const from = (m.index ?? 0) + m[0].length;
      const to = k + 1 < starts.length ? (starts[k + 1]?.index ?? t.length) - 1 : t.length;
      const preview = t.slice(from, to);
      return preview.length === 153 && preview.endsWith('...') ? preview.slice(0, 150) : preview;
    });
  },
});

// basic-memory: `write_note` makes one markdown note per memory (titled by its first words); its
// `search_notes` (JSON output) ranks notes by full-text and, with semantic search, vectors.
const basicMemory = pythonSystem({
  name: 'basic-memory',
  venv: {
    name: 'basic-memory',
    python: { min: [3, 12] },
    steps: [['basic-memory==0.24.1']],
    sqliteExtensions: true,
    report: ['basic-memory', 'fastembed', 'onnxruntime', 'fastmcp', 'mcp'],
  },
  setup:
    "`pip install basic-memory==0.24.1`; `basic-memory mcp` (stdio) with `BASIC_MEMORY_HOME` and `BASIC_MEMORY_CONFIG_DIR` on the run's directory, `BASIC_MEMORY_AUTO_UPDATE=false`; semantic search on (its default) with `BASIC_MEMORY_SEMANTIC_EMBEDDING_MODEL=sentence-transformers/all-MiniLM-L6-v2` (instead of its default bge-small-en-v1.5, which is not on this disk) from a local FastEmbed cache (`BASIC_MEMORY_SEMANTIC_EMBEDDING_CACHE_DIR`, `HF_HUB_OFFLINE=1`); `write_note` (one note per memory, titled by its first eight words and its number) / `search_notes` (page_size 10, its default hybrid search). It embeds notes in the background, so each load is followed by a wait for its vectors (`settle`, below)",
  arrange: () => ({
    BASIC_MEMORY_SEMANTIC_EMBEDDING_MODEL: 'sentence-transformers/all-MiniLM-L6-v2',
    BASIC_MEMORY_SEMANTIC_EMBEDDING_CACHE_DIR: arrangeFastEmbedCache(),
    BASIC_MEMORY_AUTO_UPDATE: 'false',
  }),
  launch: (venv, dir, env) => ({
    command: venv.bin('basic-memory'),
    args: ['mcp'],
    env: {
      ...env,
      HOME: dir,
      BASIC_MEMORY_HOME: join(dir, 'notes'),
      BASIC_MEMORY_CONFIG_DIR: join(dir, 'config'),
    },
  }),
  async write(client, i, content) {
    // A note needs a unique title, and its title is embedded with its text: the memory's
    // first words (letters and digits only: a title becomes a file name) and its number.
    const words = content
      .replace(/[^A-Za-z0-9 ]+/g, ' ')
      .trim()
      .split(/\s+/);
    const title = `${words.slice(0, 8).join(' ')} ${i}`;
    const r = check(
      await client.callTool({
        name: 'write_note',
        arguments: { title, content, directory: 'bench' },
      }),
      'write_note',
    );
    if (!/Created note|Updated note/.test(text(r)))
      throw new Error(`write_note: ${text(r).slice(0, 300)}`);
    return title;
  },
  async search(client, query) {
    const r = check(
      await client.callTool({
        name: 'search_notes',
        arguments: { query, page_size: 10, output_format: 'json' },
      }),
      'search_notes',
    );
    const body =
      (r.structuredContent as { result?: unknown } | undefined)?.result ?? JSON.parse(text(r));
    const hits = (body as { results?: { title: string }[] }).results ?? [];
    return hits.slice(0, 10).map((h) => h.title);
  },
  settle: basicMemorySettled,
  // Its search keeps vector matches of cosine 0.55 or more (a floor set for its default
  // bge-small-en-v1.5): with all-MiniLM-L6-v2 a paraphrase scores about 0.5 against a
  // note (whose title and permalink are embedded with it), so the probe's questions cannot
  // show its model at work; its store can.
  checkModel(dir) {
    const db = new Database(join(dir, 'config/memory.db'), { readonly: true, fileMustExist: true });
    try {
      const r = db
        .prepare(
          `SELECT (SELECT count(*) FROM entity) AS notes,
                  (SELECT count(DISTINCT entity_id) FROM search_vector_chunks
                    WHERE embedding_status = 'ready' AND embedding_model LIKE '%all-MiniLM-L6-v2%') AS embedded`,
        )
        .get() as { notes: number; embedded: number };
      if (!r.notes || r.embedded < r.notes)
        throw new Error(
          `${r.embedded} of ${r.notes} notes embedded by all-MiniLM-L6-v2: is its model in use?`,
        );
    } finally {
      db.close();
    }
  },
});

/**
 * Its MCP tools do not say whether the vectors are done, so its database is read (read-only)
 * until every note has its vector chunks and none is pending.
 */
async function basicMemorySettled(dir: string, budgetS: number): Promise<boolean> {
  const t0 = performance.now();
  const db = new Database(join(dir, 'config/memory.db'), { readonly: true, fileMustExist: true });
  try {
    const hasChunks = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_vector_chunks'")
      .get();
    if (!hasChunks) throw new Error('basic-memory: semantic search is off (no vector table)');
    const waiting = db.prepare(
      `SELECT (SELECT count(*) FROM entity e WHERE NOT EXISTS
                (SELECT 1 FROM search_vector_chunks c WHERE c.entity_id = e.id))
            + (SELECT count(*) FROM search_vector_chunks WHERE embedding_status = 'pending') AS n`,
    );
    while ((performance.now() - t0) / 1000 < budgetS) {
      if ((waiting.get() as { n: number }).n === 0) return true;
      await new Promise((res) => setTimeout(res, 500));
    }
    return false;
  } finally {
    db.close();
  }
}

// mcp-memory-service, its lite distribution (ONNX Runtime and tokenizers, no PyTorch):
// `memory_store` answers the memory's content hash and refuses near duplicates unless given
// a conversation id; `memory_search` (semantic) answers each memory with its hash.
const mcpMemoryService = pythonSystem({
  name: 'mcp-memory-service',
  venv: {
    name: 'mcp-memory-service',
    python: { min: [3, 10] },
    steps: [['mcp-memory-service-lite==12.4.0']],
    sqliteExtensions: true,
    report: ['mcp-memory-service-lite', 'onnxruntime', 'tokenizers', 'sqlite-vec', 'mcp'],
  },
  setup:
    "`pip install mcp-memory-service-lite==12.4.0` (the project's ONNX-only distribution); `memory server` (stdio) with `MCP_MEMORY_STORAGE_BACKEND=sqlite_vec`, `MCP_MEMORY_SQLITE_PATH` and `MCP_MEMORY_BASE_DIR` on the run's directory, `MCP_MEMORY_USE_ONNX=1`, `MCP_MEMORY_ONNX_ALLOW_DOWNLOAD=0`, `MCP_MEMORY_OFFLINE=1`; its ONNX embedder (all-MiniLM-L6-v2, the name it defaults to) finds the model at `~/.cache/mcp_memory/onnx_models/all-MiniLM-L6-v2/onnx/` (HOME is the run's directory, the files linked there); `memory_store` / `memory_search` (limit 10, its default semantic mode). It refuses a memory within 0.85 cosine of one stored in the last 24 h unless given a `conversation_id`, which the conversations pass (as its docs suggest for conversation turns) and the corpus does not",
  arrange: () => ({}),
  launch: (venv, dir, env) => {
    const home = join(dir, 'home');
    arrangeMcpMemoryServiceHome(home);
    return {
      command: venv.bin('memory'),
      args: ['server'],
      env: {
        ...env,
        HOME: home,
        MCP_MEMORY_STORAGE_BACKEND: 'sqlite_vec',
        MCP_MEMORY_BASE_DIR: join(dir, 'data'),
        MCP_MEMORY_SQLITE_PATH: join(dir, 'data/sqlite_vec.db'),
        MCP_MEMORY_USE_ONNX: '1',
        MCP_MEMORY_ONNX_ALLOW_DOWNLOAD: '0',
        MCP_MEMORY_OFFLINE: '1',
      },
    };
  },
  async write(client, _i, content, o) {
    const r = await client.callTool({
      name: 'memory_store',
      arguments: { content, ...(o?.conversation ? { conversation_id: o.conversation } : {}) },
    });
    const t = text(r);
    // "Memory stored successfully (hash: …)"; a refused duplicate is an error naming why.
    const hash = /stored successfully \(hash: ([0-9a-f]+)\)/.exec(t)?.[1];
    if (hash) {
      hashes(client).set(content, hash);
      return hash;
    }
    if (/Duplicate content detected \(exact match\)/.test(t))
      return hashes(client).get(content) ?? null;
    if (/Duplicate content detected/.test(t)) return null;
    throw new Error(`memory_store: ${t.slice(0, 300)}`);
  },
  async search(client, query) {
    const r = check(
      await client.callTool({ name: 'memory_search', arguments: { query, limit: 10 } }),
      'memory_search',
    );
    const t = text(r);
    if (/^Error/i.test(t)) throw new Error(`memory_search: ${t.slice(0, 300)}`);
    // "Found N memories …", then per memory: "N. <content>", "   Hash: <hash>", "   Created: …".
    return [...t.matchAll(/^\s+Hash: ([0-9a-f]+)\s*$/gm)].slice(0, 10).map((m) => m[1] as string);
  },
});

/** Per session: the content keys cerebro-cortex stored. */
const storedKeys = new WeakMap<Client, Set<string>>();
function stored(client: Client): Set<string> {
  let s = storedKeys.get(client);
  if (!s) storedKeys.set(client, (s = new Set()));
  return s;
}

/** Per session: content → its hash, for a write refused as an exact duplicate of an earlier one. */
const hashMaps = new WeakMap<Client, Map<string, string>>();
function hashes(client: Client): Map<string, string> {
  let m = hashMaps.get(client);
  if (!m) hashMaps.set(client, (m = new Map()));
  return m;
}

export const pythonSystems: SystemUnderTest[] = [cerebroCortex, basicMemory, mcpMemoryService];
