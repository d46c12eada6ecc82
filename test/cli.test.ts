import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/main/cli/program';
import { Engine } from '../src/main/engine/engine';
import { cli, spawnCli } from './helpers/cli';
import { tempDir } from './helpers/engine';

let home: string;
beforeEach(() => {
  home = tempDir('loci-cli-');
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const json = async (args: string[], stdin = '') => {
  const r = await cli(home, [...args, '--json'], stdin);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('loci (in-process)', () => {
  it('rotates the token through the contract (token.rotate) and shows the new one', async () => {
    const before = await json(['token', 'show']);
    const rotated = await json(['token', 'rotate']);
    expect(rotated.token).not.toBe(before.token);
    expect(rotated.path).toBe(before.path);
    expect((await json(['token', 'show'])).token).toBe(rotated.token);
  });

  it('remembers from arguments and from standard input, then recalls', async () => {
    const a = await json(['remember', 'Deploys', 'go', 'out', 'on', 'Tuesdays', '-t', 'ops']);
    expect(a).toMatchObject({ duplicate: false, quarantined: false });
    const b = await json(['remember'], 'The on-call phone is in the drawer.\n');
    expect(b.duplicate).toBe(false);
    const r = await json(['recall', 'deploys', 'tuesdays']);
    expect(r.results.map((h: { id: string }) => h.id)).toEqual([a.id]);
    const human = await cli(home, ['recall', 'on-call', 'phone']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('The on-call phone is in the drawer.');
    expect(human.stdout).toContain('how: fastpath');
    expect(human.stdout).toContain('note: semantic: off');
  });

  it('carries when, who and which session through remember, recall, list, get and update', async () => {
    const a = await json([
      'remember',
      '--session',
      'standup-2026-03-02',
      '--speaker',
      'Priya',
      '--occurred-at',
      '2026-03-02T09:05:00Z',
      'Marco starts today; Aiko is his buddy.',
    ]);
    const y = await json([
      'remember',
      '--session',
      'standup-2026-03-02',
      '--speaker',
      'Aiko',
      'Yes!',
    ]);
    const r = await json(['recall', '--speaker', 'priya', 'who', 'is', 'the', 'buddy']);
    expect(r.results[0]).toMatchObject({
      id: a.id,
      session: 'standup-2026-03-02',
      speaker: 'Priya',
      occurred_at: '2026-03-02T09:05:00.000Z',
    });
    expect(r.confidence).toMatchObject({ level: expect.stringMatching(/high|medium|low/) });
    const inSession = await json([
      'list',
      '--session',
      'standup-2026-03-02',
      '--before',
      '2026-03-03',
    ]);
    expect(inSession.items.map((m: { id: string }) => m.id)).toEqual([a.id]);
    const human = await cli(home, ['recall', 'who', 'is', 'the', 'buddy']);
    expect(human.stdout).toContain(
      'said by Priya, 2026-03-02T09:05:00.000Z, session standup-2026-03-02',
    );
    expect(human.stdout).toMatch(/confidence (high|medium|low) \(0\.\d\d\)/);
    await json(['update', y.id, '--speaker', 'none', '--occurred-at', '2026-03-02']);
    expect(await json(['get', y.id])).toMatchObject({
      speaker: null,
      session: 'standup-2026-03-02',
      occurred_at: '2026-03-02T00:00:00.000Z',
      content: 'Yes!',
    });
    const bad = await cli(home, ['remember', '--occurred-at', 'last tuesday', 'text']);
    expect(bad.code).toBe(EXIT_CODES.usage);
    expect(bad.stderr).toMatch(/"last tuesday" is not a date or time/);
  });

  it('shows, lists, updates, tags, forgets, restores and erases', async () => {
    const { id } = await json([
      'remember',
      '--title',
      'VPN',
      '--kind',
      'procedural',
      'Connect the VPN with the ops profile.',
    ]);
    expect((await cli(home, ['get', id])).stdout).toMatch(/title +VPN/);
    const list = await cli(home, ['list']);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('1 shown of 1');
    expect(
      (await json(['update', id, '--content', 'Connect the VPN with the ops-2 profile.'])).version,
    ).toBe(2);
    expect((await json(['history', id])).versions[0].content).toBe(
      'Connect the VPN with the ops profile.',
    );
    expect((await json(['tag', id, '--add', 'network'])).change).toBe('tagged');
    expect((await cli(home, ['forget', id])).stdout).toMatch(/Forgot .*loci restore/);
    expect((await json(['list'])).total).toBe(0);
    expect((await json(['restore', id])).change).toBe('restored');
    const refused = await cli(home, ['erase', id]);
    expect(refused.code).toBe(EXIT_CODES['invalid-args']);
    expect(refused.stderr).toMatch(/^loci: not erased: erasing is permanent/);
    expect((await json(['erase', id, '--yes'])).change).toBe('erased');
    expect((await cli(home, ['get', id])).code).toBe(EXIT_CODES['not-found']);
  });

  it('shows conflicts side by side, resolves and undoes them, verifies claims, and lists what holds', async () => {
    await json(['remember', 'The billing service listens on port 8080.']);
    const said = await cli(home, ['remember', 'The billing service listens on port 9090.']);
    expect(said.stdout).toMatch(/Seems to contradict [0-9A-Z]{26}: `loci conflicts`/);
    const list = await json(['conflicts']);
    expect(list.open).toBe(1);
    const id = list.conflicts[0].id as string;
    const human = await cli(home, ['conflicts']);
    expect(human.stdout).toMatch(/contradiction, confidence 0\.\d+, open {2}differs: 8080 → 9090/);
    expect(human.stdout).toMatch(/newer [0-9A-Z]{26} \(current\)/);

    const wrong = await cli(home, ['resolve', id]);
    expect(wrong.code).toBe(EXIT_CODES['invalid-args']);
    expect(wrong.stderr).toMatch(/exactly one of --supersede, --scope, --dismiss or --undo/);
    const badScope = await cli(home, ['resolve', id, '--scope', 'staging']);
    expect(badScope.stderr).toMatch(/older=<context>,newer=<context>/);

    const done = await json(['resolve', id, '--supersede', '--reason', 'moved']);
    expect(done.resolved[0]).toMatchObject({
      state: 'superseded',
      resolution: { reason: 'moved' },
    });
    expect((await json(['list', '--as-of', 'now'])).items).toHaveLength(1);
    expect((await json(['list'])).items).toHaveLength(2);
    const history = await cli(home, ['history', done.resolved[0].older.id]);
    expect(history.stdout).toMatch(/superseded by [0-9A-Z]{26}/);
    expect(history.stdout).toMatch(/resolved/);

    const verdict = await cli(home, ['verify', 'The billing service listens on port 8080']);
    expect(verdict.stdout).toMatch(/^contradicted confidence 0\.\d+/);
    expect((await json(['verify', 'Billing listens on port 9090'])).verdict).toBe('supported');

    const undone = await cli(home, ['resolve', id, '--undo']);
    expect(undone.stdout).toMatch(/Undone: conflict [0-9A-Z]{26} is open again/);
    const scoped = await json(['resolve', id, '--scope', 'older=staging,newer=production']);
    expect(scoped.resolved[0].resolution.contexts).toEqual({
      older: 'staging',
      newer: 'production',
    });
    expect((await json(['conflicts', '--all'])).conflicts[0].state).toBe('scoped');
    const scan = await cli(home, ['conflicts', '--scan']);
    expect(scan.stdout).toMatch(/memories compared, 0 new conflicts/);
  });

  it('links memories and walks neighbours', async () => {
    const a = (await json(['remember', 'First linked memory text'])).id;
    const b = (await json(['remember', 'Second linked memory text'])).id;
    expect((await json(['link', a, b, '--type', 'causes', '--weight', '0.8'])).change).toBe(
      'created',
    );
    expect((await json(['neighbors', a])).nodes[0].id).toBe(b);
    expect((await json(['unlink', a, b])).count).toBe(1);
  });

  it('manages stores and never falls back to the default one', async () => {
    expect((await cli(home, ['stores', 'create', 'work'])).stdout).toMatch(/Created store "work"/);
    await json(['remember', '--store', 'work', 'Only in the work store']);
    expect((await json(['stats', '--store', 'work'])).memories.live).toBe(1);
    expect((await json(['stats'])).memories.live).toBe(0);
    const unknown = await cli(home, ['list', '--store', 'nope']);
    expect(unknown.code).toBe(EXIT_CODES['store-not-found']);
    expect(unknown.stderr).toBe(
      'loci: No store named "nope". Known stores: default, work. Create it with `loci stores create nope`.\n',
    );
    expect((await json(['stores'])).stores.map((s: { name: string }) => s.name)).toEqual([
      'default',
      'work',
    ]);
    expect((await cli(home, ['stores', 'create', 'Bad Name'])).code).toBe(
      EXIT_CODES['invalid-args'],
    );
    const renamed = await cli(home, ['stores', 'rename', 'work', 'job']);
    expect(renamed.stdout).toMatch(/^Renamed store "work" to "job" \(.*job.loci\.db\)\.\n$/);
    expect((await json(['stats', '--store', 'job'])).memories.live).toBe(1);
    expect((await cli(home, ['stores', 'rename', 'default', 'home'])).code).toBe(
      EXIT_CODES['invalid-args'],
    );
  });

  it('gives one-line errors with distinct exit codes', async () => {
    const short = await cli(home, ['remember', ' ']);
    expect(short.code).toBe(2);
    expect(short.stderr).toBe('loci: content is empty: give at least one visible character\n');
    const usage = await cli(home, ['recall']);
    expect(usage.code).toBe(EXIT_CODES.usage);
    expect(usage.stderr).toMatch(/^loci: missing required argument 'query'/);
    const badKind = await cli(home, ['remember', '--kind', 'dream', 'some text here']);
    expect(badKind.code).toBe(EXIT_CODES.usage);
    expect(badKind.stderr).toMatch(/argument 'dream' is invalid/);
    const badDate = await cli(home, ['recall', 'x', '--as-of', 'last tuesday']);
    expect(badDate.stderr).toMatch(/"last tuesday" is not a date or time/);
    const unknown = await cli(home, ['teleport']);
    expect(unknown.code).toBe(EXIT_CODES.usage);
    expect(unknown.stderr).toMatch(/unknown command 'teleport'/);
  });

  it('prints help for every command', async () => {
    const top = await cli(home, ['--help']);
    expect(top.code).toBe(0);
    for (const command of [
      'remember',
      'recall',
      'get',
      'list',
      'forget',
      'restore',
      'erase',
      'link',
      'stores',
      'stats',
    ]) {
      expect(top.stdout).toContain(command);
      const help = await cli(home, [command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/^Usage: loci /);
    }
  });

  it('refuses to run while another process owns the data directory, naming it', async () => {
    const owner = await Engine.open({ dataDir: home, owner: 'serve' });
    owner.updateLock({ port: 4711 });
    try {
      const r = await cli(home, ['stats']);
      expect(r.code).toBe(EXIT_CODES['store-locked']);
      expect(r.stderr).toMatch(/in use by `loci serve` \(pid \d+, port 4711/);
    } finally {
      await owner.close();
    }
  });
});

describe('loci (as a process)', () => {
  it('reads standard input, prints JSON, and exits non-zero with one line on errors', async () => {
    const ok = await spawnCli(
      home,
      ['remember', '--json'],
      'Remembered through a real process pipe.',
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ duplicate: false });
    const bad = await spawnCli(home, ['get', '01HZZZZZZZZZZZZZZZZZZZZZZZ']);
    expect(bad.code).toBe(EXIT_CODES['not-found']);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^loci: No memory 01HZZZZZZZZZZZZZZZZZZZZZZZ in store "default"\./);
  });
});

describe('usage errors', () => {
  it('are a single line', async () => {
    for (const args of [['recall'], ['teleport'], ['remember', '--kind', 'dream', 'x']]) {
      const r = await cli(home, args);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/\(see --help\)\n$/);
    }
  });
});
