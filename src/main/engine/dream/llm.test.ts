// The optional language model, against a tiny local server that speaks the
// chat-completions shape on 127.0.0.1: its summaries and refinements reach the review
// inbox only; a slow or broken endpoint is reported and the dream carries on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatModel, type ChatModel } from '../../../../test/helpers/chatModel';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import type { DreamPhaseName } from '../../../shared/api';

const DAY = 86_400_000;
let t: TestEngine | null = null;
let model: ChatModel | null = null;
let requests: ChatModel['requests'] = [];

afterEach(async () => {
  await t?.close();
  t = null;
  await model?.close();
  model = null;
  requests = [];
});

async function startModel(
  reply: (body: Record<string, unknown>) => string | null,
): Promise<string> {
  model = await startChatModel(reply);
  requests = model.requests;
  return model.url;
}

async function open(llm: Record<string, unknown>): Promise<void> {
  const dir = tempDir('loci-dream-llm-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ llm }));
  t = await openTestEngine({ dataDir: dir, env: { TEST_LLM_KEY: 'sk-test-123' } });
}

async function cluster(): Promise<string[]> {
  const { results } = await t!.cli.call('memory.rememberMany', {
    items: [
      { content: 'Redis caches sessions for the web tier' },
      { content: 'Redis session keys expire after twelve hours' },
      { content: 'The web tier reads sessions from Redis first' },
    ],
  });
  const ids = results.map((r) => r.id);
  await t!.cli.call('link.createMany', {
    links: [
      { from: ids[0]!, to: ids[1]! },
      { from: ids[1]!, to: ids[2]! },
    ],
  });
  return ids;
}

const run = (phases: DreamPhaseName[]) => t!.cli.call('dream.run', { phases });

describe('dreams with a language model', () => {
  it('writes schema summaries with the model, into the inbox only', async () => {
    const url = await startModel(
      () => 'Redis sessions\nThe web tier keeps sessions in Redis for twelve hours.',
    );
    await open({ url, model: 'test-model', api_key_env: 'TEST_LLM_KEY', timeout_ms: 5000 });
    await cluster();
    await run(['cluster', 'schema']);
    t!.advance(DAY);
    const r = await run(['cluster', 'schema']);
    expect(r.phases[1]!.proposals).toBe(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('/v1/chat/completions');
    expect(requests[0]!.auth).toBe('Bearer sk-test-123');
    expect(requests[0]!.body).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'system' }, { role: 'user' }],
    });
    const { items } = await t!.cli.call('review.list', {});
    expect(items[0]).toMatchObject({
      kind: 'schema',
      source: 'llm:test-model',
      proposal: {
        title: 'Redis sessions',
        content: 'The web tier keeps sessions in Redis for twelve hours.',
      },
    });
    expect((await t!.cli.call('stats.get', {})).memories.by_kind.schematic).toBe(0);
    const list = await t!.cli.call('dream.list', {});
    expect(list.schedule.llm).toEqual({ configured: true, model: 'test-model' });
  });

  it('says so and falls back to an extractive summary when the model does not answer in time', async () => {
    const url = await startModel(() => null);
    await open({ url, model: 'slow-model', timeout_ms: 500 });
    await cluster();
    await run(['cluster', 'schema']);
    t!.advance(DAY);
    const r = await run(['cluster', 'schema']);
    expect(r.status).toBe('done');
    expect(r.phases[1]!.notes.join(' ')).toMatch(
      /language model failed \(no answer from .* within 500 ms\)/,
    );
    const { items } = await t!.cli.call('review.list', {});
    expect(items[0]).toMatchObject({ source: 'dream:schema' });
  });

  it('proposes a refined text for a losing procedure; accepting it writes a new version', async () => {
    const url = await startModel(
      () => 'Deploy: run make release, then watch the canary dashboard for ten minutes',
    );
    await open({ url, model: 'test-model' });
    const [good, bad] = (
      await t!.cli.call('memory.rememberMany', {
        items: [
          { content: 'Deploy: run make release and watch the canary', kind: 'procedural' },
          { content: 'Deploy: push to main and hope', kind: 'procedural' },
        ],
      })
    ).results.map((x) => x.id);
    for (let i = 0; i < 4; i++) {
      await t!.cli.call('procedure.recordOutcome', { id: good!, success: true });
      await t!.cli.call('procedure.recordOutcome', { id: bad!, success: false });
    }
    await run(['compete']);
    const { items } = await t!.cli.call('review.list', { kind: 'refine' });
    expect(items).toHaveLength(1);
    expect(items[0]!.diff).toContain('+ Deploy: run make release, then watch the canary dashboard');
    await t!.cli.call('review.accept', { ids: [items[0]!.id] });
    const m = await t!.cli.call('memory.get', { id: bad! });
    expect(m.content).toBe(
      'Deploy: run make release, then watch the canary dashboard for ten minutes',
    );
    expect(m.version).toBe(2);
    // Not proposed again for the same record.
    await run(['compete']);
    expect((await t!.cli.call('review.list', { state: 'all', kind: 'refine' })).items).toHaveLength(
      1,
    );
  });

  it('reads an older configuration that named the model under dream.llm', async () => {
    const url = await startModel(() => 'Redis sessions\nSessions live in Redis.');
    const dir = tempDir('loci-dream-llm-');
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ dream: { llm: { url, model: 'old' } } }),
    );
    t = await openTestEngine({ dataDir: dir });
    expect((await t.cli.call('dream.list', {})).schedule.llm).toEqual({
      configured: true,
      model: 'old',
    });
  });
});

describe('the language model endpoint', () => {
  it('must be on this machine unless llm.allow_remote says otherwise', async () => {
    const dir = tempDir('loci-llm-remote-');
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ llm: { url: 'https://api.example.com/v1', model: 'm' } }),
    );
    await expect(openTestEngine({ dataDir: dir })).rejects.toThrow(
      /llm\.url: https:\/\/api\.example\.com\/v1 is not on this machine; set llm\.allow_remote/,
    );
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        llm: { url: 'https://api.example.com/v1', model: 'm', allow_remote: true },
      }),
    );
    t = await openTestEngine({ dataDir: dir });
    expect((await t.cli.call('dream.list', {})).schedule.llm.configured).toBe(true);
  });
});
