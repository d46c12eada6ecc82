// Distillation by a language model, against a loopback endpoint speaking the
// chat-completions shape: each window of a journal is handed over with its turns classed
// and a quarantined turn withheld; what the model answers goes through the same gate
// (a paraphrase refused, an exact quote proposed); a model that is down or answers prose
// is a problem reported, never a failed import.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatModel, type ChatModel } from '../../../../test/helpers/chatModel';
import { cli } from '../../../../test/helpers/cli';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import {
  LEAKED_KEY,
  LEAKED_SECRET,
  writeSessions,
} from '../../../../test/fixtures/transcripts/sessions';
import { readReply } from './prompt';

let t: TestEngine | null = null;
let model: ChatModel | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
  await model?.close();
  model = null;
});

async function open(llm: Record<string, unknown> | null, distill: Record<string, unknown> = {}) {
  const dir = tempDir('loci-distill-model-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...(llm ? { llm } : {}), distill }));
  t = await openTestEngine({ dataDir: dir });
  return writeSessions(tempDir('loci-distill-model-files-'));
}

const GOOD = {
  content: 'The ferry app uses pnpm, never npm.',
  kind: 'procedural',
  tags: ['tooling'],
  quotes: ['From now on use pnpm, never npm.'],
};
const PARAPHRASED = {
  content: 'The user wants pnpm instead of npm.',
  quotes: ['the user said to always use pnpm'],
};

describe('distillation by a configured language model', () => {
  it('hands each window over classed, withholds quarantined turns, and gates what comes back', async () => {
    model = await startChatModel(
      () =>
        `Here you are:\n\`\`\`json\n${JSON.stringify({ memories: [GOOD, PARAPHRASED, { content: 'no quotes' }] })}\n\`\`\``,
    );
    const files = await open({ url: model.url, model: 'local-test' }, { window_turns: 10 });
    const r = (await t!.cli.call('transcript.import', { paths: [files.codex, files.claude] }))
      .files;
    const codex = r.find((f) => f.path === files.codex)!;
    expect(codex.model).toMatchObject({ model: 'local-test' });
    expect(codex.model!.windows).toBeGreaterThan(0);
    expect(codex.model!.counts.proposed).toBe(1);
    expect(codex.model!.counts.rejected).toBeGreaterThanOrEqual(1);
    expect(codex.model!.problems.join('\n')).toMatch(/memory 3 of the answer: quotes/);

    // What the model saw: the rules, the turns numbered and classed, never a credential.
    const bodies = model.requests.map((q) => q.body);
    expect(bodies[0]).toMatchObject({ model: 'local-test', temperature: 0, max_tokens: 1500 });
    const codexBody = bodies.find((b) => b.messages![1]!.content.includes('(codex'))!;
    const [system, user] = codexBody.messages!;
    expect(system!.content).toMatch(/A measurement \(a number with a unit\) only from TOOL/);
    expect(user!.content).toMatch(/^Session journal [0-9A-Z]{26} \(codex/);
    expect(user!.content).toMatch(/\[\d+\] USER: .*From now on use pnpm, never npm\./);
    expect(user!.content).toMatch(/\[\d+\] TOOL exit 1: ERR_PNPM_PEER_DEP_ISSUES/);
    const everything = bodies.flatMap((b) => b.messages!.map((m) => m.content)).join('\n');
    expect(everything).toContain('(withheld: it looked like it holds a credential)');
    expect(everything).not.toContain(LEAKED_KEY);
    expect(everything).not.toContain(LEAKED_SECRET);

    // The journal keeps every candidate with the gate's word on it, marked as the model's.
    const j = await t!.cli.call('journal.get', { id: codex.journal_id! });
    const fromModel = j.candidates.filter((c) => c.extractor === 'llm');
    expect(fromModel.map((c) => c.status)).toEqual(
      expect.arrayContaining(['proposed', 'rejected']),
    );
    expect(fromModel.find((c) => c.status === 'rejected')!.reasons[0]).toMatch(
      /does not stand character for character/,
    );
    const inbox = await t!.cli.call('review.list', { kind: 'distill' });
    expect(inbox.items.some((i) => i.proposal.content === GOOD.content)).toBe(true);
    const audit = await t!.cli.call('audit.list', { action: 'journal.distilled' });
    expect(audit.entries.length).toBeGreaterThanOrEqual(2);
  });

  it('asks nothing about a session with no turns', async () => {
    model = await startChatModel(() => '[]');
    await open({ url: model.url, model: 'm' });
    const file = join(tempDir('loci-distill-empty-'), 'empty.jsonl');
    writeFileSync(file, `${JSON.stringify({ role: 'system', content: 'You are an agent.' })}\n`);
    const [f] = (await t!.cli.call('transcript.import', { paths: [file] })).files;
    expect(f!.status).toBe('imported');
    expect(f!.model).toMatchObject({ windows: 0, turns_covered: 0, problems: [] });
    expect(model.requests).toHaveLength(0);
  });

  it('reports a model that is down and keeps the import', async () => {
    model = await startChatModel(() => '[]');
    const url = model.url;
    await model.close();
    model = null;
    const files = await open({ url, model: 'gone', timeout_ms: 2000 });
    const [f] = (await t!.cli.call('transcript.import', { paths: [files.generic] })).files;
    expect(f!.status).toBe('imported');
    expect(f!.model!.windows).toBe(0);
    expect(f!.model!.problems[0]).toMatch(/the language model failed \(cannot reach http:\/\/127/);
  });

  it('is asked again on demand (journal.distill), and not on import when the configuration says so', async () => {
    model = await startChatModel(() => JSON.stringify([GOOD]));
    const files = await open({ url: model.url, model: 'm' }, { model_on_import: false });
    const [f] = (await t!.cli.call('transcript.import', { paths: [files.codex] })).files;
    expect(f!.model).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    const d = await t!.cli.call('journal.distill', { id: f!.journal_id!, max_windows: 1 });
    expect(d).toMatchObject({ model: 'm', windows: 1 });
    expect(d.counts.proposed + d.counts.duplicate).toBe(1);
  });

  it('says how to configure one when none is', async () => {
    const files = await open(null);
    const [f] = (await t!.cli.call('transcript.import', { paths: [files.codex] })).files;
    expect(f!.model).toBeUndefined();
    await expect(t!.cli.call('journal.distill', { id: f!.journal_id! })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/No language model is configured: set llm\.url/),
    });
  });
});

describe('loci distill and loci import-transcript --no-model', () => {
  it('asks the model on demand, and not on an import told not to', async () => {
    model = await startChatModel(() => JSON.stringify([GOOD]));
    const home = tempDir('loci-distill-cli-');
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ llm: { url: model.url, model: 'm' } }),
    );
    const files = writeSessions(tempDir('loci-distill-cli-files-'));
    const imported = await cli(home, ['import-transcript', '--no-model', files.codex, '--json']);
    expect(imported.code).toBe(0);
    expect(model.requests).toHaveLength(0);
    const id = (JSON.parse(imported.stdout) as { files: { journal_id: string }[] }).files[0]!
      .journal_id;
    const r = await cli(home, ['distill', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /The model m read \d+ windows? of journal [0-9A-Z]{26} \(\d+ turns\): 1 proposed for review/,
    );
    const bad = await cli(home, ['distill', 'nope']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/a journal id is a 26-character ULID/);
  });
});

describe('journal.window', () => {
  it('cuts a journal into windows that say where the next one starts', async () => {
    const files = await open(null);
    const [f] = (await t!.cli.call('transcript.import', { paths: [files.codex] })).files;
    const first = await t!.cli.call('journal.window', { id: f!.journal_id!, limit: 3 });
    expect(first).toMatchObject({ offset: 0, last: 2, next_offset: 3 });
    expect(first.prompt.split('\n').filter((l) => /^\[\d+\] /.test(l))).toHaveLength(3);
    const agent = await t!.cli.call('journal.window', {
      id: f!.journal_id!,
      offset: first.total - 1,
      audience: 'agent',
    });
    expect(agent.next_offset).toBeNull();
    expect(agent.system).toMatch(/propose_memories/);
    expect(first.system).toMatch(/Answer with JSON only/);
  });
});

describe("reading a model's answer", () => {
  it('takes the first JSON in it, fenced or bare, an object of memories or a list', () => {
    expect(readReply(JSON.stringify({ memories: [GOOD] })).candidates).toHaveLength(1);
    expect(readReply(`Sure!\n${JSON.stringify([GOOD, GOOD])}\nDone.`).candidates).toHaveLength(2);
    expect(readReply('```json\n{"memories": []}\n```')).toEqual({ candidates: [], problems: [] });
    expect(
      readReply(`${JSON.stringify({ memories: [GOOD] })}\nNote: quotes are exact [1].`).candidates,
    ).toHaveLength(1);
  });

  it('names what it cannot read', () => {
    expect(readReply('I found nothing worth keeping.').problems[0]).toMatch(
      /holds no JSON list of memories \(it begins "I found nothing/,
    );
    expect(readReply('{"memories": [{"content": "x", "quotes": []}]}').problems[0]).toMatch(
      /^memory 1 of the answer: quotes/,
    );
    expect(readReply('{"facts": 1}').problems[0]).toMatch(/neither \{"memories"/);
  });
});
