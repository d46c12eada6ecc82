// The short form of `npm run bench:load`: 50 MCP clients at once through the daemon, 500
// mixed calls (remember, recall, update, link, read): no errors, no lost writes, the WAL
// stays bounded while they run, and the maintenance policy truncates it once idle.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../scripts/bench/loadRun';
import { startDaemon, type Daemon } from '../../src/main/daemon';
import { tempDir } from '../helpers/engine';

let daemon: Daemon;
let dir: string;
beforeAll(async () => {
  dir = tempDir('loci-load50-');
  daemon = await startDaemon({ dataDir: dir, port: 0, env: {} });
});
afterAll(async () => {
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('50 concurrent MCP clients', () => {
  it(
    '500 mixed calls: no errors, no lost writes, a bounded WAL truncated when idle',
    { timeout: 90_000 },
    async () => {
      const dbFile = join(dir, 'stores', 'default', 'loci.db');
      const report = await runLoad({
        url: `${daemon.url}/mcp`,
        token: daemon.token,
        dbFile,
        clients: 50,
        ops: 500,
      });
      expect(report.errors).toEqual([]);
      expect(report.lost_writes).toBe(0);
      expect(report.writes).toBeGreaterThan(100);
      expect(report.p95_ms.recall).toBeGreaterThan(0);
      // wal_autocheckpoint (1000 pages) keeps the log near 4 MiB under writes.
      expect(report.wal_max_bytes).toBeLessThan(16 * 2 ** 20);
      await daemon.maintenance.tick(); // sees the log's size
      await daemon.maintenance.tick(); // unchanged: idle, so it truncates
      expect(statSync(`${dbFile}-wal`).size).toBe(0);
    },
  );
});
