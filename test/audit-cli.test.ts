// `loci audit …` and `loci doctor` through the real CLI, in-process, on a real data dir.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { AUDIT_TRIGGERS } from '../src/main/engine/audit/chain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/engine';

let home: string;
beforeEach(async () => {
  home = tempDir('loci-audit-cli-');
  for (let i = 0; i < 5; i++) {
    expect((await cli(home, ['remember', `Audited CLI memory number ${i}`])).code).toBe(0);
  }
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** Edits the database with the audit triggers lifted (the engine is closed between runs). */
function tamper(sql: string): void {
  const db = new Database(join(home, 'stores', 'default', 'loci.db'));
  db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
  db.exec(sql);
  // Covering its tracks: with the triggers gone, Loci's next start would restore them and
  // say so in the chain (test/hardening.test.ts); these cases are about the rows.
  for (const trigger of Object.values(AUDIT_TRIGGERS)) db.exec(trigger);
  db.close();
}

describe('loci audit', () => {
  it('tails the chain, newest first, with filters', async () => {
    const r = await cli(home, ['audit', 'tail', '-n', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/seq.*time.*actor.*action/);
    expect(r.stdout).toMatch(/3 of 5 entries; head 5/);
    const json = JSON.parse(
      (await cli(home, ['--json', 'audit', 'tail', '--actor', 'cli'])).stdout,
    );
    expect(json.entries.map((e: { seq: number }) => e.seq)).toEqual([5, 4, 3, 2, 1]);
    const bad = await cli(home, ['audit', 'tail', '--since', 'yesterday-ish']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a date/);
  });

  it('verifies, prints an anchor, and catches a cut tail against it (exit 8)', async () => {
    const ok = await cli(home, ['audit', 'verify']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/chain intact.*5 entries/);
    const anchor = /(loci-anchor:1:\S+)/.exec(ok.stdout)?.[1];
    expect(anchor).toBeDefined();
    const file = join(home, 'anchor.txt');
    writeFileSync(file, `${anchor}\n`);
    tamper('DELETE FROM audit WHERE seq = 5');
    const fromFile = await cli(home, ['audit', 'verify', '--anchor', file]);
    expect(fromFile.code).toBe(8);
    expect(fromFile.stdout).toMatch(/chain broken at entry 5 \(truncated\)/);
    const fromString = await cli(home, ['--json', 'audit', 'verify', '--anchor', anchor!]);
    expect(JSON.parse(fromString.stdout).first_broken).toMatchObject({
      seq: 5,
      reason: 'truncated',
    });
    const nonsense = await cli(home, ['audit', 'verify', '--anchor', 'no-such-file']);
    expect(nonsense.code).toBe(2);
    expect(nonsense.stderr).toMatch(/neither a file nor an anchor/);
  });

  it('reports an edited entry with its index', async () => {
    tamper(`UPDATE audit SET actor = 'ui' WHERE seq = 3`);
    const r = await cli(home, ['audit', 'verify']);
    expect(r.code).toBe(8);
    expect(r.stdout).toMatch(/broken at entry 3 \(payload-changed\)/);
  });

  it('exports JSON Lines: a header, every entry, the anchor', async () => {
    const out = join(home, 'audit.jsonl');
    const r = await cli(home, ['audit', 'export', '-o', out]);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatchObject({ type: 'header', format: 'loci-audit/1' });
    expect(lines.slice(1, 6).map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(lines[6]).toMatchObject({ type: 'anchor', anchor: { seq: 5 } });
    // The exported anchor checks the live chain.
    expect((await cli(home, ['audit', 'verify', '--anchor', lines[6].text])).code).toBe(0);
  });
});

describe('loci doctor', () => {
  it('prints grouped checks and exits 9 when something needs attention', async () => {
    const r = await cli(home, ['doctor']);
    // A fresh data dir: never verified, no daemon, no model → warnings.
    expect(r.code).toBe(9);
    expect(r.stdout).toMatch(/Database\n/);
    expect(r.stdout).toMatch(/Audit chain: The chain \(5 entries\) has never been verified/);
    expect(r.stdout).toMatch(/\d+ ok, \d+ warnings?, \d+ failures?/);
    const json = JSON.parse((await cli(home, ['doctor', '--json'])).stdout);
    expect(json.checks.find((c: { id: string }) => c.id === 'fts.sync')).toMatchObject({
      status: 'ok',
    });
  });

  it('asks before fixing, fixes with --yes, and only explains unsafe problems', async () => {
    const db = new Database(join(home, 'stores', 'default', 'loci.db'));
    db.exec('DELETE FROM memory_fts WHERE rowid = 1');
    db.close();
    const refused = await cli(home, ['doctor', '--fix', 'fts.sync']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/confirm on a terminal or pass --yes/);
    const fixed = await cli(home, ['doctor', '--fix', 'fts.sync', '--yes']);
    expect(fixed.stderr).toMatch(/fts\.sync: Rebuilt the full-text index: 5 memories indexed/);
    const after = JSON.parse((await cli(home, ['doctor', '--json'])).stdout);
    expect(after.checks.find((c: { id: string }) => c.id === 'fts.sync').status).toBe('ok');
    const unsafe = await cli(home, ['doctor', '--fix', 'http.reachable', '--yes']);
    expect(unsafe.stderr).toMatch(/http\.reachable: no safe automatic fix/);
    expect((await cli(home, ['doctor', 'fts.sync'])).stderr).toMatch(/only together with --fix/);
  });
});
