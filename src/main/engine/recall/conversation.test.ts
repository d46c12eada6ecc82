import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import type { RememberArgs } from '../../../shared/schemas';
import { namedSpeakers } from './conversation';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

type Turn = [speaker: string, text: string];

/** Stores a session's turns in order, as an agent would, and returns their ids. */
async function session(id: string, at: string, turns: Turn[]): Promise<string[]> {
  const items: Omit<RememberArgs, 'store'>[] = turns.map(([speaker, text]) => ({
    content: `${speaker}: ${text}`,
    session: id,
    speaker,
    occurred_at: at,
  }));
  const { results } = await t.agent('chat').call('memory.rememberMany', { items });
  return results.map((r) => r.id);
}

describe('memories of conversations', () => {
  it('finds the reply next to the question that holds the words of the query', async () => {
    const [, ask, reply] = await session('s1', '2026-01-20T09:30:00Z', [
      ['Priya', 'morning all'],
      ['Aiko', 'is billing still listening on 8080 in the compose file?'],
      ['Tomasz', 'nope, moved it to 8081 this morning'],
      ['Dev', 'coffee machine is broken again'],
    ]);
    await session('s2', '2026-01-21T09:30:00Z', [
      ['Dev', 'the staging cluster is slow today'],
      ['Aiko', 'the docs site build is green again'],
    ]);
    const r = await t.agent('chat').call('memory.recall', {
      query: 'which port is billing listening on',
      format: 'verbose',
    });
    const ids = r.results.map((h) => h.id);
    expect(ids[0]).toBe(ask);
    expect(ids.slice(0, 3)).toContain(reply);
    const hit = r.results.find((h) => h.id === reply)!;
    expect(hit.why).toMatch(/said next to a match in its session/);
    expect(hit.breakdown!.neighbour).toBeGreaterThan(0);
    expect(hit).toMatchObject({
      session: 's1',
      speaker: 'Tomasz',
      occurred_at: '2026-01-20T09:30:00.000Z',
    });
  });

  it('ranks the turns of a speaker the query names first, without filtering the others', async () => {
    const [mel] = await session('s1', '2023-05-08T13:56:00Z', [
      ['Melanie', 'I painted a sunrise over the lake last weekend'],
      ['Caroline', 'I painted a sunrise too, for my art class'],
    ]);
    const r = await t.agent('chat').call('memory.recall', {
      query: 'What did Melanie paint?',
      format: 'verbose',
    });
    expect(r.results[0]!.id).toBe(mel);
    expect(r.results[0]!.why).toMatch(/said by Melanie, whom the query names/);
    expect(r.results).toHaveLength(2);
  });

  it('ranks memories from a time the query names first', async () => {
    await session('jan', '2026-01-13T09:00:00Z', [
      ['Tomasz', 'we talked about the postgres upgrade plan'],
    ]);
    const [march] = await session('mar', '2026-03-10T09:00:00Z', [
      ['Tomasz', 'we talked about the postgres upgrade again'],
    ]);
    const r = await t.agent('chat').call('memory.recall', {
      query: 'what did we say about the postgres upgrade in March 2026',
      explain: true,
    });
    expect(r.results[0]!.id).toBe(march);
    const fusion = r.trace!.stages.find((s) => s.name === 'fusion')!;
    expect(fusion.detail.times).toEqual(['March 2026']);
  });

  it('prefers newer memories when the query says "recently"', async () => {
    await session('a', '2026-01-05T09:00:00Z', [['Aiko', 'the band played a gig at The Lantern']]);
    const [later] = await session('b', '2026-04-22T09:00:00Z', [
      ['Aiko', 'the band played a gig at The Lantern again'],
    ]);
    const r = await t
      .agent('chat')
      .call('memory.recall', { query: 'where did the band play a gig recently' });
    expect(r.results[0]!.id).toBe(later);
  });

  it('filters by session, speaker and when things happened, in recall and list', async () => {
    const [a1, a2] = await session('a', '2026-02-01T10:00:00Z', [
      ['Lena', 'the Berlin half marathon is in April'],
      ['Dev', 'good luck with the marathon training'],
    ]);
    const [b1] = await session('b', '2026-04-07T10:00:00Z', [
      ['Lena', 'finished the marathon in 1:58:40'],
    ]);
    const agent = t.agent('chat');
    const ids = async (args: Record<string, unknown>) =>
      (await agent.call('memory.recall', { query: 'marathon', ...args })).results
        .map((h) => h.id)
        .sort();
    expect(await ids({ session: 'a' })).toEqual([a1, a2].sort());
    expect(await ids({ speaker: 'lena' })).toEqual([a1, b1].sort());
    expect(await ids({ occurred_after: '2026-03-01T00:00:00Z' })).toEqual([b1]);
    expect(await ids({ occurred_before: '2026-03-01T00:00:00Z' })).toEqual([a1, a2].sort());
    const listed = await t.cli.call('memory.list', {
      speaker: 'Lena',
      occurred_after: '2026-03-01T00:00:00Z',
    });
    expect(listed.items.map((m) => m.id)).toEqual([b1]);
    expect(listed.items[0]).toMatchObject({
      session: 'b',
      speaker: 'Lena',
      occurred_at: '2026-04-07T10:00:00.000Z',
    });
    const bad = await t.cli
      .call('memory.list', {
        occurred_after: '2026-03-01T00:00:00Z',
        occurred_before: '2026-02-01T00:00:00Z',
      })
      .catch((e: unknown) => e as { code: string; message: string });
    expect(bad).toMatchObject({ code: 'invalid-args' });
  });

  it('keeps the same words said in two sessions as two turns, and one re-sent turn as one', async () => {
    const [first] = await session('s1', '2026-01-01T10:00:00Z', [['Mel', 'Yes!']]);
    const [second] = await session('s2', '2026-01-02T10:00:00Z', [['Mel', 'Yes!']]);
    expect(second).not.toBe(first);
    const again = await t.agent('chat').call('memory.remember', {
      content: 'Mel: Yes!',
      session: 's1',
      speaker: 'Mel',
      occurred_at: '2026-01-01T10:00:00Z',
    });
    expect(again).toMatchObject({ id: first, duplicate: true });
  });

  it('edits and clears the conversation fields, and versions the change', async () => {
    const [id] = await session('s1', '2026-01-01T10:00:00Z', [['Mel', 'see you at the lake']]);
    await t.cli.call('memory.update', { id: id!, speaker: 'Melanie', session: null });
    const m = await t.cli.call('memory.get', { id: id! });
    expect(m).toMatchObject({
      speaker: 'Melanie',
      session: null,
      occurred_at: '2026-01-01T10:00:00.000Z',
      version: 2,
    });
    await t.cli.call('memory.update', { id: id!, occurred_at: null });
    expect((await t.cli.call('memory.get', { id: id! })).occurred_at).toBeNull();
    const r = await t
      .agent('chat')
      .call('memory.recall', { query: 'What did Melanie say about the lake?', format: 'verbose' });
    expect(r.results[0]!.why).toMatch(/said by Melanie/);
  });

  it('refuses a speaker or session that is empty, too long or holds control characters', async () => {
    for (const bad of [{ speaker: '  ' }, { session: 'x'.repeat(201) }, { speaker: 'a\u0007b' }]) {
      const err = await t.cli
        .call('memory.remember', { content: 'hello there', ...bad })
        .catch((e: unknown) => e as { code: string; message: string });
      expect(err).toMatchObject({ code: 'invalid-args' });
      expect((err as { message: string }).message).toMatch(/speaker|session/);
    }
  });
});

describe('namedSpeakers', () => {
  it('matches a name, its first word and a possessive, without case or accents', () => {
    const speakers = ['Caroline', 'Mélanie', 'Dr Ada Lovelace', 'Jo'];
    expect([...namedSpeakers("What is Caroline's identity?", speakers)]).toEqual(['Caroline']);
    expect([...namedSpeakers('what did melanie paint', speakers)]).toEqual(['Mélanie']);
    expect([...namedSpeakers('what did dr ada lovelace say', speakers)]).toEqual([
      'Dr Ada Lovelace',
    ]);
    // Two letters are too few for a first-word match: "jo" must be the whole name.
    expect([...namedSpeakers('what did jo say', speakers)]).toEqual(['Jo']);
    expect([...namedSpeakers('a job for someone', speakers)]).toEqual([]);
  });
});
