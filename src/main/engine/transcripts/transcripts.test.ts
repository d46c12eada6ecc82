// Transcripts end to end against a real store: each format read into a classed journal
// with every line accounted for, the episode memory, quarantine of a credential in a
// tool's output, budgets, re-import (unchanged, or replaced when the session grew), and
// who may read a journal.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptFileReport } from '../../../shared/api';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import {
  LEAKED_KEY,
  LEAKED_SECRET,
  writeSessions,
} from '../../../../test/fixtures/transcripts/sessions';
import { SCENARIO_SECRET, writeScenarios } from '../../../../test/fixtures/transcripts/scenarios';
import { clip } from './read';

let t: TestEngine;
let files: ReturnType<typeof writeSessions>;
beforeEach(async () => {
  t = await openTestEngine();
  files = writeSessions(tempDir('loci-transcripts-'));
});
afterEach(async () => {
  await t.close();
});

const importOne = async (path: string): Promise<TranscriptFileReport> => {
  const r = await t.cli.call('transcript.import', { paths: [path] });
  return r.files[0] as TranscriptFileReport;
};

/** Every line of the file is used, ignored, skipped or past the budget. */
function accountedFor(r: TranscriptFileReport): number {
  const a = r.accounting!;
  return (
    a.used + Object.values(a.ignored).reduce((x, y) => x + y, 0) + a.skipped_total + a.not_kept
  );
}

describe('transcript.import', () => {
  it('reads a Claude Code transcript into classed turns, every line accounted for', async () => {
    const r = await importOne(files.claude);
    expect(r).toMatchObject({ status: 'imported', format: 'claude-code' });
    expect(r.session).toBe('4f1c2b7e-9a3d-4e51-b0c2-7d8e9f0a1b2c');
    const lines = readFileSync(files.claude, 'utf8').trimEnd().split('\n').length;
    expect(r.lines).toBe(lines);
    expect(accountedFor(r)).toBe(r.lines);
    const a = r.accounting!;
    expect(a.skipped.map((s) => s.line)).toEqual([6, 14]);
    expect(a.skipped[0]?.reason).toMatch(/not JSON/);
    expect(a.skipped[1]?.reason).toMatch(/unknown record type "telemetry"/);
    expect(a.ignored).toMatchObject({ summary: 1, meta: 1, 'file-history-snapshot': 1 });
    expect(a.by_class).toEqual({ USER: 2, TOOL: 4, ACT: 4, SELF: 2 });
    expect(a.truncated).toBe(1);
    expect(a.quarantined).toBe(1);

    const j = await t.cli.call('journal.get', { id: r.journal_id!, limit: 100 });
    expect(j.turns.map((x) => x.class)).toEqual([
      'USER',
      'SELF',
      'ACT',
      'TOOL',
      'ACT',
      'TOOL',
      'ACT',
      'TOOL',
      'ACT',
      'TOOL',
      'USER',
      'SELF',
    ]);
    const failed = j.turns[3]!;
    expect(failed).toMatchObject({ class: 'TOOL', exit: 1, line: 5 });
    // The credential is kept but masked unless a person asks to see it.
    const leak = j.turns.find((x) => x.quarantined)!;
    expect(leak.text).not.toContain(LEAKED_KEY);
    const revealed = await t.cli.call('journal.get', {
      id: r.journal_id!,
      reveal: true,
      limit: 100,
    });
    expect(revealed.turns.find((x) => x.quarantined)?.text).toContain(LEAKED_KEY);
    // The huge output keeps its head and tail; the Latin-1 line is read, not a crash.
    const huge = j.turns[9]!;
    expect(huge.text.length).toBeLessThanOrEqual(32 * 1024);
    expect(huge.text).toMatch(/^PASS src\/test\/case0\.test\.ts/);
    expect(huge.text).toMatch(/characters left out/);
    expect(j.turns[10]?.text).toMatch(/^Merci, caf\uFFFD time$/);
  });

  it('builds the episode memory deterministically, with nothing of the quarantined turn', async () => {
    const r = await importOne(files.claude);
    const episode = await t.cli.call('memory.get', { id: r.episode_id! });
    expect(episode.kind).toBe('episodic');
    expect(episode.trust).toBe('trusted');
    expect(episode.tags).toEqual(
      expect.arrayContaining(['session', 'agent:claude-code', 'project:billing-api']),
    );
    expect(episode.title).toBe(
      'Session 2026-03-03 in billing-api: The invoice rounding test fails on CI, can you fix it? We decided last week…',
    );
    expect(episode.content).toContain(
      'Claude Code session in /home/ada/code/billing-api, 2026-03-03T14:00:00Z to 2026-03-03T14:12:00Z',
    );
    expect(episode.content).toContain('Files changed: /home/ada/code/billing-api/src/invoice.ts.');
    expect(episode.content).toContain(
      'Commands run (3, 1 failed): `npm test -- invoice` (exit 1), `cat .env.ci` (exit 0), `npm test` (exit 0).',
    );
    expect(episode.content).toContain(
      'Outcome: the last command passed; the agent\'s last words: "Fixed: amounts are rounded in cents now, and the whole suite passes."',
    );
    expect(JSON.stringify(episode)).not.toContain(LEAKED_KEY);
    expect(JSON.stringify(episode)).not.toContain(LEAKED_SECRET);
    // The same journal gives the same text.
    const again = await openTestEngine();
    try {
      const r2 = (await again.cli.call('transcript.import', { paths: [files.claude] })).files[0]!;
      expect((await again.cli.call('memory.get', { id: r2.episode_id! })).content).toBe(
        episode.content,
      );
    } finally {
      await again.close();
    }
  });

  it('reads a Codex CLI rollout: boilerplate ignored, commands with their exit codes, patches as files', async () => {
    const r = await importOne(files.codex);
    expect(r).toMatchObject({
      status: 'imported',
      format: 'codex',
      session: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    });
    expect(accountedFor(r)).toBe(r.lines);
    expect(r.accounting!.ignored).toMatchObject({
      session_meta: 1,
      context: 1,
      event_msg: 1,
      turn_context: 1,
      reasoning: 1,
    });
    expect(r.accounting!.skipped.map((s) => s.line)).toEqual([13]);
    expect(r.accounting!.by_class).toEqual({ USER: 1, TOOL: 4, ACT: 5, SELF: 1 });
    const episode = await t.cli.call('memory.get', { id: r.episode_id! });
    expect(episode.content).toContain(
      'Commands run (3, 1 failed): `pnpm up date-fns@4` (exit 1), `pnpm up date-fns@4 --config.strict-peer-dependencies=false` (exit 0), `pnpm build` (exit 0).',
    );
    expect(episode.content).toContain('Files changed: src/timetable.ts.');
    expect(episode.content).toContain('Outcome: the last command passed;');
  });

  it('reads the generic JSONL', async () => {
    const r = await importOne(files.generic);
    expect(r).toMatchObject({ status: 'imported', format: 'generic', session: 'gen-7' });
    expect(accountedFor(r)).toBe(r.lines);
    expect(r.accounting!.by_class).toEqual({ USER: 1, TOOL: 1, ACT: 1, SELF: 1 });
    expect(r.accounting!.skipped).toEqual([{ line: 5, reason: 'unknown role "narrator"' }]);
    const episode = await t.cli.call('memory.get', { id: r.episode_id! });
    expect(episode.content).toContain('Commands run (1, 0 failed): `make report` (exit 0).');
  });

  it('changes nothing when the same file is imported again; replaces the journal when the session grew', async () => {
    const first = await importOne(files.generic);
    const same = await importOne(files.generic);
    expect(same).toMatchObject({
      status: 'unchanged',
      journal_id: first.journal_id,
      episode_id: first.episode_id,
    });
    appendFileSync(
      files.generic,
      `${JSON.stringify({ role: 'user', content: 'Also send it to ops.', ts: '2026-03-09T08:05:00Z', session: 'gen-7' })}\n`,
    );
    const grown = await importOne(files.generic);
    expect(grown).toMatchObject({
      status: 'replaced',
      journal_id: first.journal_id,
      episode_id: first.episode_id,
    });
    expect(grown.accounting!.by_class.USER).toBe(2);
    expect((await t.cli.call('journal.list', {})).journals).toHaveLength(1);
    const history = await t.cli.call('memory.history', { id: first.episode_id! });
    expect(history.current_version).toBe(2);
    // The episode and the instruction it remembered, each once.
    const stats = await t.cli.call('stats.get', {});
    expect(stats.memories.live).toBe(2);
  });

  it('imports every transcript of a folder and reports a file that is none, without failing the rest', async () => {
    const dir = join(files.claude, '..', '..');
    writeFileSync(join(dir, 'notes.jsonl'), 'hello\nworld\n');
    const r = await t.cli.call('transcript.import', { paths: [dir] });
    expect(r.totals).toEqual({ imported: 3, unchanged: 0, replaced: 0, failed: 1 });
    const bad = r.files.find((f) => f.status === 'failed')!;
    expect(bad.reason).toMatch(/not a transcript Loci knows/);
  });

  it('names a missing path, and keeps journals from agents', async () => {
    await expect(
      t.cli.call('transcript.import', { paths: ['/nowhere/at/all.jsonl'] }),
    ).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringContaining('/nowhere/at/all.jsonl'),
    });
    const r = await importOne(files.generic);
    const agent = t.client({ kind: 'mcp', client: 'cursor', transport: 'http' });
    await expect(agent.call('journal.get', { id: r.journal_id! })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(agent.call('transcript.import', { paths: [files.generic] })).rejects.toMatchObject(
      {
        code: 'forbidden',
      },
    );
  });
});

describe('distillation at import', () => {
  it('writes an explicit "remember that" at once, with its quote as evidence', async () => {
    const r = await importOne(files.generic);
    expect(r.distilled).toEqual({ written: 1, proposed: 0, duplicate: 0, rejected: 0 });
    const j = await t.cli.call('journal.get', { id: r.journal_id! });
    const c = j.candidates[0]!;
    expect(c).toMatchObject({ extractor: 'instruction', status: 'written' });
    const m = await t.cli.call('memory.get', { id: c.memory_id! });
    expect(m.content).toBe('The report goes to finance@example.com on Mondays.');
    expect(m.evidence).toEqual([
      {
        quote: 'Remember that the report goes to finance@example.com on Mondays.',
        class: 'USER',
        source: `journal:${r.journal_id}#0`,
      },
    ]);
    // Imported again after the session grew: the same memory, not a second one.
    appendFileSync(files.generic, `${JSON.stringify({ role: 'assistant', content: 'Noted.' })}\n`);
    const again = await importOne(files.generic);
    expect(again.distilled).toEqual({ written: 0, proposed: 0, duplicate: 1, rejected: 0 });
  });

  it('proposes instructions and error → remedy to the review inbox; accepting writes them', async () => {
    const r = await importOne(files.codex);
    expect(r.distilled).toMatchObject({ proposed: 2, rejected: 0 });
    const inbox = await t.cli.call('review.list', { kind: 'distill' });
    const titles = inbox.items.map((i) => i.title).sort();
    expect(titles).toEqual([
      'From a codex session: From now on use pnpm, never npm.',
      'From a codex session: pnpm: ERR_PNPM_PEER_DEP_ISSUES Unmet peer dependencies',
    ]);
    const remedy = inbox.items.find((i) => i.title.includes('ERR_PNPM'))!;
    expect(remedy.evidence.map((e) => e.title.split(' · ')[0])).toEqual(['ACT', 'TOOL', 'ACT']);
    const accepted = await t.cli.call('review.accept', { ids: [remedy.id] });
    const id = accepted.results[0]!.result_ids[0]!;
    const m = await t.cli.call('memory.get', { id });
    expect(m.kind).toBe('procedural');
    expect(m.content).toBe(
      '`pnpm up date-fns@4` fails with "ERR_PNPM_PEER_DEP_ISSUES  Unmet peer dependencies"; `pnpm up date-fns@4 --config.strict-peer-dependencies=false` works.',
    );
    expect(m.evidence.map((e) => e.class)).toEqual(['ACT', 'TOOL', 'ACT']);
    expect(m.tags).toEqual(expect.arrayContaining(['distilled', 'error-remedy']));
  });

  it('reinforces an equivalent memory, and links a conflicting one `contradicts` without changing it', async () => {
    const { results } = await t.cli.call('memory.rememberMany', {
      items: [
        { content: 'From now on use pnpm, never npm' },
        { content: 'The staging port for the billing service is 8080.' },
        { content: 'The release train leaves on Thursdays at 9.' },
      ],
    });
    const [pnpm, port, train] = results.map((r) => r.id);
    const before = await t.cli.call('memory.get', { id: pnpm! });
    const codex = await importOne(files.codex);
    const j = await t.cli.call('journal.get', { id: codex.journal_id! });
    expect(j.candidates.find((c) => c.extractor === 'instruction')).toMatchObject({
      status: 'duplicate',
      memory_id: pnpm,
    });
    expect((await t.cli.call('memory.get', { id: pnpm! })).access.count).toBe(
      before.access.count + 1,
    );

    const file = join(tempDir('loci-transcripts-conflict-'), 'conflict.jsonl');
    writeFileSync(
      file,
      [
        {
          role: 'user',
          content: 'Remember that the staging port for the billing service is 8081.',
        },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'We decided the release train leaves on Thursdays at 10.' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = await importOne(file);
    expect(r.distilled).toMatchObject({ written: 1, proposed: 1 });
    const jj = await t.cli.call('journal.get', { id: r.journal_id! });
    const written = jj.candidates.find((c) => c.status === 'written')!;
    const links = await t.cli.call('graph.neighbors', {
      id: written.memory_id!,
      types: ['contradicts'],
    });
    expect(links.edges.map((e) => [e.type, e.to])).toEqual([['contradicts', port]]);
    expect((await t.cli.call('memory.get', { id: port! })).content).toBe(
      'The staging port for the billing service is 8080.',
    );
    const item = (await t.cli.call('review.list', { kind: 'distill' })).items.find((i) =>
      i.title.includes('release train'),
    )!;
    expect(item.title).toMatch(/\(contradicts a memory\)/);
    expect(item.evidence.find((e) => e.id === train)?.title).toBe(
      'Contradicts: The release train leaves on Thursdays at 9.',
    );
    const accepted = await t.cli.call('review.accept', { ids: [item.id] });
    const made = accepted.results[0]!.result_ids[0]!;
    const l2 = await t.cli.call('graph.neighbors', { id: made, types: ['contradicts'] });
    expect(l2.edges.map((e) => [e.type, e.to])).toEqual([['contradicts', train]]);
  });

  it('keeps what the gate refused, with the reason, beside the journal', async () => {
    const r = await importOne(files.claude);
    const j = await t.cli.call('journal.get', { id: r.journal_id! });
    const decided = j.candidates.find((c) => c.content.startsWith('We decided'))!;
    expect(decided).toMatchObject({
      status: 'proposed',
      quotes: [expect.objectContaining({ class: 'USER', line: 2 })],
    });
    expect(j.candidates.every((c) => c.status !== 'rejected' || c.reasons.length > 0)).toBe(true);
  });
});

describe('the session corpus (eleven sessions in each format)', () => {
  it('imports every file with every line accounted for, and no secret reaches an agent', async () => {
    const written = writeScenarios(tempDir('loci-scenarios-'));
    expect(written).toHaveLength(33);
    const r = await t.cli.call('transcript.import', {
      paths: [join(written[0]!.path, '..', '..')],
    });
    expect(r.totals).toEqual({ imported: 33, unchanged: 0, replaced: 0, failed: 0 });
    for (const f of r.files) expect(accountedFor(f), f.path).toBe(f.lines);
    const secretTurns = r.files.reduce((n, f) => n + (f.accounting?.quarantined ?? 0), 0);
    expect(secretTurns).toBe(3);
    // What an agent can see, in full: no memory holds the token.
    await t.cli.call('review.accept', {
      ids: (await t.cli.call('review.list', { kind: 'distill', limit: 200 })).items.map(
        (i) => i.id,
      ),
    });
    const agent = t.client({ kind: 'mcp', client: 'cursor', transport: 'http' });
    const seen = await agent.call('memory.list', { limit: 500 });
    expect(seen.items.length).toBeGreaterThan(30);
    for (const item of seen.items) {
      const full = await agent.call('memory.get', { id: item.id });
      expect(JSON.stringify(full)).not.toContain(SCENARIO_SECRET);
    }
  });
});

describe('journal.propose', () => {
  it("passes an agent's candidates through the gate: exact quotes to the inbox, the rest refused with reasons", async () => {
    await t.cli.call('ingest.setFolders', { folders: [join(files.codex, '..')] });
    const agent = t.client({ kind: 'mcp', client: 'codex', transport: 'stdio' });
    const imported = await agent.call('transcript.import', { paths: [files.codex] });
    const journal = imported.files[0]!.journal_id!;
    // Its own session: readable, quarantined turns masked, never revealed.
    expect((await agent.call('journal.get', { id: journal })).turns.length).toBeGreaterThan(0);
    await expect(agent.call('journal.get', { id: journal, reveal: true })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const r = await agent.call('journal.propose', {
      journal_id: journal,
      candidates: [
        {
          content: 'The production build of the ferry app takes 3.2s with vite.',
          quotes: ['✓ built in 3.2s'],
          kind: 'semantic',
        },
        { content: 'The person wants pnpm.', quotes: ['The person said to use pnpm'] },
        {
          content: 'The build takes 3.2s.',
          quotes: ['date-fns is on 4.x and the timetable builds.'],
        },
      ],
    });
    expect(r.results.map((x) => x.status)).toEqual(['proposed', 'rejected', 'rejected']);
    expect(r.results[1]!.reasons[0]).toMatch(/does not stand character for character/);
    expect(r.results[2]!.reasons).toContain('the measurement "3.2s" is quoted from no TOOL output');
    const j = await t.cli.call('journal.get', { id: journal });
    expect(j.candidates.filter((c) => c.extractor === 'agent')).toHaveLength(3);
    // Another agent's session is not this agent's to read.
    const other = (await t.cli.call('transcript.import', { paths: [files.generic] })).files[0]!;
    await expect(agent.call('journal.get', { id: other.journal_id! })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});

describe('an agent importing', () => {
  it('reads only inside the folders the person allowed', async () => {
    const agent = t.client({ kind: 'mcp', client: 'claude-code', transport: 'stdio' });
    await expect(agent.call('transcript.import', { paths: [files.codex] })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await t.cli.call('ingest.setFolders', { folders: [join(files.codex, '..')] });
    const r = await agent.call('transcript.import', { paths: [files.codex] });
    expect(r.totals.imported).toBe(1);
    // The episode is the agent's, like anything it remembers.
    const episode = await agent.call('memory.get', { id: r.files[0]!.episode_id! });
    expect(episode.source).toBe('agent:claude-code');
  });
});

describe('clip', () => {
  it('keeps head and tail within the budget and says what it left out', () => {
    const text = 'a'.repeat(1000) + 'b'.repeat(1000);
    const c = clip(text, 500);
    expect(c.clipped).toBe(true);
    expect(c.text.length).toBeLessThanOrEqual(500);
    expect(c.text.startsWith('aaa')).toBe(true);
    expect(c.text.endsWith('bbb')).toBe(true);
    expect(clip('short', 500)).toEqual({ text: 'short', clipped: false });
  });
});
