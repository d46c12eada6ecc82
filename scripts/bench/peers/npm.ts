// Memory servers from npm that run offline: the reference @modelcontextprotocol/server-memory
// (a knowledge graph in a JSONL file: each memory an entity with one observation) and
// mcp-memory-keeper (SQLite; each memory a context item). Both search by substring.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, check, root, text, type Launch, type SystemUnderTest } from './common';
import { stdioSession } from './stdio';

const pkgDir = (name: string) => join(root, 'node_modules', name);
const version = (name: string) =>
  (JSON.parse(readFileSync(join(pkgDir(name), 'package.json'), 'utf8')) as { version: string })
    .version;

function installed(name: string, entry: string) {
  return async () => {
    if (!existsSync(join(pkgDir(name), entry)))
      throw new Error(`${name} is not in node_modules (npm install)`);
  };
}

const serverMemory = join(pkgDir('@modelcontextprotocol/server-memory'), 'dist/index.js');
const memoryKeeper = join(pkgDir('mcp-memory-keeper'), 'dist/index.js');

const serverMemoryLaunch = (dir: string): Launch => ({
  command: process.execPath,
  args: [serverMemory],
  env: { ...baseEnv, MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
});
const memoryKeeperLaunch = (dir: string): Launch => ({
  command: process.execPath,
  args: [memoryKeeper],
  env: { ...baseEnv, DATA_DIR: dir, HOME: dir },
});

export const npmSystems: SystemUnderTest[] = [
  {
    name: 'server-memory',
    get about() {
      return `@modelcontextprotocol/server-memory ${version('@modelcontextprotocol/server-memory')} (npm devDependency): \`create_entities\` (one entity, one observation) / \`search_nodes\``;
    },
    model: false,
    prepare: installed('@modelcontextprotocol/server-memory', 'dist/index.js'),
    launch: serverMemoryLaunch,
    start: (dir) => stdioSession(serverMemoryLaunch(dir)),
    async write(client, i, content) {
      const name = `memory-${i}`;
      check(
        await client.callTool({
          name: 'create_entities',
          arguments: { entities: [{ name, entityType: 'memory', observations: [content] }] },
        }),
        'create_entities',
      );
      return name;
    },
    async search(client, query) {
      const r = check(
        await client.callTool({ name: 'search_nodes', arguments: { query } }),
        'search_nodes',
      );
      const graph = (r.structuredContent ?? JSON.parse(text(r))) as {
        entities: { name: string }[];
      };
      // It returns every match, unranked (file order); an agent reads the first ones.
      return graph.entities.slice(0, 10).map((e) => e.name);
    },
  },
  {
    name: 'mcp-memory-keeper',
    get about() {
      return `mcp-memory-keeper ${version('mcp-memory-keeper')} (npm devDependency): \`context_save\` / \`context_search\` (limit 10)`;
    },
    model: false,
    prepare: installed('mcp-memory-keeper', 'dist/index.js'),
    launch: memoryKeeperLaunch,
    start: (dir) => stdioSession(memoryKeeperLaunch(dir)),
    async write(client, i, content) {
      const key = `memory-${i}`;
      check(
        await client.callTool({ name: 'context_save', arguments: { key, value: content } }),
        'context_save',
      );
      return key;
    },
    async search(client, query) {
      const r = check(
        await client.callTool({ name: 'context_search', arguments: { query, limit: 10 } }),
        'context_search',
      );
      // Plain text, one `• [priority] key (category)` line per item, newest first.
      return [...text(r).matchAll(/^• \[\w+\] (\S+) \(/gm)].slice(0, 10).map((m) => m[1] as string);
    },
  },
];
