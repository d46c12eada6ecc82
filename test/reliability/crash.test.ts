// The short form of the crash-durability harness (the full 200 kills: `npm run torture`):
// 20 SIGKILLs of the daemon while 3 MCP clients remember, update, link, ingest and verify
// the audit chain; after every restart the store must be intact and hold every
// acknowledged write (scripts/torture/crashHarness.ts says exactly what is checked).
import { describe, expect, it } from 'vitest';
import { runCrashTorture } from '../../scripts/torture/crashHarness';

describe('crash durability', () => {
  it(
    'survives 20 SIGKILLs under concurrent MCP writes with every acknowledged write intact',
    { timeout: 120_000 },
    async () => {
      const report = await runCrashTorture({
        kills: 20,
        clients: 3,
        minKillMs: 50,
        maxKillMs: 700,
        seed: 20261129,
      });
      expect(report.kills).toBe(20);
      // The run did real work: writes of every kind were acknowledged before kills.
      expect(report.acknowledged.remember).toBeGreaterThan(20);
      expect(report.acknowledged.update).toBeGreaterThan(5);
      expect(report.acknowledged.link).toBeGreaterThan(5);
      expect(report.audit_entries).toBeGreaterThan(report.acknowledged.remember);
    },
  );
});
