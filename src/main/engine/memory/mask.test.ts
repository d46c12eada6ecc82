import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import { applyMask, SECRET_MASK } from './mask';

// Built at run time so that no scanner of this repository takes the fixture for a leak.
const GITHUB = `ghp_${'Zq7'.repeat(12)}`;
const SLACK = ['xoxb', '2417786301', '9912054419273', 'Qm7NcY4rTb2Vx9LpW8sKe3Hd'].join('-');

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

async function quarantined(content: string): Promise<string> {
  const { id, quarantined: q } = await t.cli.call('memory.remember', { content });
  expect(q).toBe(true);
  return id;
}

describe('applyMask', () => {
  it('replaces each span and masks the whole text when where is unknown', () => {
    const text = 'token AAAA and BBBB here';
    expect(
      applyMask(text, [
        { rule: 'x', start: 6, end: 10 },
        { rule: 'y', start: 15, end: 19 },
      ]),
    ).toEqual({ text: `token ${SECRET_MASK} and ${SECRET_MASK} here`, hidden: 2 });
    expect(applyMask(text, undefined)).toEqual({ text: SECRET_MASK, hidden: 1 });
    expect(applyMask(text, [])).toEqual({ text, hidden: 0 });
  });
});

describe('secrets on screen', () => {
  it('masks a quarantined memory in get, list, history and the atlas, keeping the rest', async () => {
    const id = await quarantined(`The deploy bot uses ${GITHUB} for the release job`);
    const got = await t.cli.call('memory.get', { id });
    expect(got.content).not.toContain(GITHUB);
    expect(got.content).toBe(`The deploy bot uses ${SECRET_MASK} for the release job`);
    expect(got.title).not.toContain(GITHUB);
    expect(got.secrets_hidden).toBeGreaterThanOrEqual(1);

    const list = await t.cli.call('memory.list', { trust: 'any' });
    const row = list.items.find((m) => m.id === id);
    expect(row?.preview).toContain(SECRET_MASK);
    expect(JSON.stringify(list)).not.toContain(GITHUB);

    await t.cli.call('memory.update', { id, content: `Now ${SLACK} is the bot's token` });
    const history = await t.cli.call('memory.history', { id });
    expect(JSON.stringify(history)).not.toContain(GITHUB);
    expect(history.versions[0]?.content).toContain(SECRET_MASK);

    const atlas = await t.cli.call('graph.atlas', {});
    expect(JSON.stringify(atlas)).not.toContain(SLACK);
    expect(atlas.nodes.find((n) => n.id === id)?.secrets_hidden).toBeGreaterThanOrEqual(1);

    // A trusted memory is untouched and carries no count.
    const { id: plain } = await t.cli.call('memory.remember', {
      content: 'Releases go out on Tuesdays',
    });
    const p = await t.cli.call('memory.get', { id: plain });
    expect(p.content).toBe('Releases go out on Tuesdays');
    expect(p.secrets_hidden).toBeUndefined();
  });

  it('reveals to a person only, with a memory.reveal entry in the audit chain', async () => {
    const id = await quarantined(`Slack bot token: ${SLACK}`);
    const ui = t.client({ kind: 'ui' });
    const shown = await ui.call('memory.get', { id, reveal: true });
    expect(shown.content).toContain(SLACK);
    expect(shown.secrets_hidden).toBeUndefined();
    const audit = await t.cli.call('audit.list', { action: 'memory.reveal' });
    const entry = audit.entries.find((e) => e.target === id);
    expect(entry?.actor).toBe('ui');
    expect(JSON.stringify(audit)).not.toContain(SLACK);
    await expect(t.agent('cursor').call('memory.get', { id, reveal: true })).rejects.toMatchObject({
      code: expect.stringMatching(/forbidden|not-found/),
    });
  });

  it('masks credentials in what the activity feed shows of a call', async () => {
    // As the MCP server records a call (mcp/server.ts): the raw arguments and the answer.
    const item = t.engine.activity.record({
      at: new Date().toISOString(),
      actor: 'mcp:claude-code',
      transport: 'stdio',
      tool: 'remember',
      ok: true,
      error_code: null,
      duration_ms: 3,
      args: { content: `use ${GITHUB} to push`, tags: ['ci'] },
      result: { text: 'Remembered as 01J….' },
    });
    const full = await t.cli.call('activity.get', { id: item.id });
    expect(JSON.stringify(full)).not.toContain(GITHUB);
    expect(JSON.stringify(full)).toContain(SECRET_MASK);
  });
});

describe('memory.redact', () => {
  it('replaces the secret with a fingerprint in every version and releases the memory', async () => {
    const id = await quarantined(`The CI token is ${GITHUB}, rotate it monthly`);
    await t.cli.call('memory.update', {
      id,
      content: `The CI token is ${GITHUB}, rotate it weekly`,
    });
    const agent = t.agent('cursor');
    const before = await agent.call('memory.recall', { query: 'CI token rotate' });
    expect(before.results.map((r) => r.id)).not.toContain(id);

    const r = await t.cli.call('memory.redact', { id });
    expect(r.change).toBe('redacted');
    expect(r.redacted).toHaveLength(1);
    expect(r.redacted[0]?.rule).toMatch(/github/);
    const fp = r.redacted[0]!.fingerprint;
    expect(fp).toMatch(/^[0-9a-f]{16}$/);

    const after = await t.cli.call('memory.get', { id });
    expect(after.trust).toBe('trusted');
    expect(after.content).toContain(`[redacted `);
    expect(after.content).toContain(fp);
    expect(after.content).toContain('rotate it weekly');
    const history = await t.cli.call('memory.history', { id });
    expect(history.versions.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(history)).not.toContain(GITHUB);
    // Nowhere in the database file's tables either.
    const leaks = (await t.engine.store(undefined)).db
      .prepare(
        `SELECT (SELECT count(*) FROM memory WHERE content LIKE '%' || ? || '%')
              + (SELECT count(*) FROM memory_version WHERE content LIKE '%' || ? || '%') AS n`,
      )
      .get(GITHUB, GITHUB);
    expect(leaks).toEqual({ n: 0 });
    // The same secret elsewhere gets the same fingerprint (keyed, so comparable in the store).
    const other = await quarantined(`Backup job token ${GITHUB}`);
    const r2 = await t.cli.call('memory.redact', { id: other });
    expect(r2.redacted[0]?.fingerprint).toBe(fp);

    // Agents see it now, with the placeholder.
    const found = await agent.call('memory.recall', { query: 'CI token rotate weekly' });
    expect(found.results.map((x) => x.id)).toContain(id);
    const audit = await t.cli.call('audit.list', { action: 'memory.redact' });
    expect(audit.entries.some((e) => e.target === id)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(GITHUB);
  });

  it('refuses agents, trusted memories and memories with no locatable secret, changing nothing', async () => {
    const id = await quarantined(`Token ${GITHUB}`);
    await expect(t.agent('cursor').call('memory.redact', { id })).rejects.toMatchObject({
      code: expect.stringMatching(/forbidden|not-found/),
    });
    const { id: plain } = await t.cli.call('memory.remember', { content: 'Nothing secret here' });
    await expect(t.cli.call('memory.redact', { id: plain })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('not quarantined'),
    });
    const still = await t.client({ kind: 'ui' }).call('memory.get', { id, reveal: true });
    expect(still.content).toBe(`Token ${GITHUB}`);
    expect(still.version).toBe(1);
  });
});
