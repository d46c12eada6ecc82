// Every write method leaves an audit entry naming its actor (UI, CLI, each MCP client);
// every read leaves none, and MCP clients' reads land in the read log instead. A method
// added to the contract must be classified here, so a new write cannot slip by unaudited.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES, type Actor, type LociClient, type MethodName } from '../src/shared/api';
import type { AuditRow } from '../src/main/engine/audit/chain';
import { startChatModel, type ChatModel } from './helpers/chatModel';
import { openTestEngine, tempDir, type TestEngine } from './helpers/engine';

const ui: Actor = { kind: 'ui', transport: 'http' };
const cli: Actor = { kind: 'cli', transport: 'in-process' };
const cursor: Actor = { kind: 'mcp', client: 'cursor', transport: 'http' };
const zed: Actor = { kind: 'mcp', client: 'zed', transport: 'stdio' };

/** Methods that change nothing audited (reads, or settings kept outside the store). */
const READS: MethodName[] = [
  'memory.recall',
  'memory.get',
  'memory.list',
  'memory.history',
  'memory.timeline',
  'memory.map',
  'memory.bootstrap',
  'graph.neighbors',
  'graph.atlas',
  'procedure.find',
  'activity.list',
  'activity.get',
  'activity.stats',
  'memory.titles',
  'memory.complete',
  'stats.attention',
  'clients.list',
  'stats.get',
  'stats.overview',
  'system.info',
  'store.list',
  'store.backups',
  'store.export',
  'store.encryption',
  'clients.tokens',
  'setup.plan',
  'setup.check',
  'recall.calibrate',
  'models.list',
  'ingest.list',
  'ingest.folders',
  'audit.list',
  'audit.verify',
  'audit.anchor',
  'audit.export',
  'audit.access',
  'doctor.run',
  'dream.list',
  'dream.get',
  'review.list',
  'eval.cases',
  'eval.runs',
  'journal.list',
  'journal.get',
  'journal.window',
  'conflict.list',
  'memory.verify',
  'sync.status',
  'sync.devices',
];

/**
 * Methods outside a store's chain, with the reason: they touch files, settings or
 * derived data, not memories.
 */
const OUTSIDE_THE_CHAIN: Partial<Record<MethodName, string>> = {
  'store.create': 'creates an empty store (its chain starts empty)',
  'store.reset': 'clears the damaged-store marker; the moved file is kept',
  'store.backup': 'copies the database to a file; the store itself is unchanged',
  'token.rotate': 'the daemon token is a file in the data directory',
  'clients.add':
    "client tokens are a file in the data directory (clients.json); a client's refused calls are audited in the store as access.denied",
  'clients.revoke': 'client tokens are a file in the data directory (clients.json)',
  'clients.rotate': 'client tokens are a file in the data directory (clients.json)',
  'setup.write': 'writes an editor configuration file (with a backup)',
  'setup.hooks': "writes Claude Code's settings file (with a backup)",
  'embedding.backfill': 'vectors are derived data',
  'models.install': 'model files',
  'models.remove': 'model files',
  'models.use': 'configuration',
  'models.decline': 'configuration',
  'ingest.upload': 'stages file bytes; nothing is written to the store until ingest.files',
  'ingest.cancel': 'stops a running batch; what it wrote is audited by ingest.files',
  'ingest.setFolders': 'configuration',
  'doctor.fix': 'repairs derived data (indexes, vectors), lock and config files',
  'dream.run':
    'a cycle writes as actor `dream`, whoever started it (engine/dream/dream.test.ts checks its entries)',
  'dream.cancel': 'stops a running cycle; what it committed is audited by dream.run',
  'eval.mark': 'quality-lab bookkeeping (which memories a query should return), not memories',
  'eval.remove': 'quality-lab bookkeeping, not memories',
  'eval.run': 'replays marked queries without rehearsal and keeps the scores',
  'conflict.scan':
    'compares memories; each conflict it finds is audited as conflict.detect (engine/conflicts/conflicts.test.ts checks)',
  'sync.now':
    'sends and receives operations; each one applied from another device is audited as sync.apply (engine/sync/replica.test.ts checks)',
};

let t: TestEngine;
let seq = 0;
let model: ChatModel;
beforeAll(async () => {
  model = await startChatModel(() => '{"memories": []}');
});
afterAll(() => model.close());
beforeEach(async () => {
  // A language model that finds nothing, so that journal.distill has one to ask.
  const dir = tempDir('loci-coverage-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ llm: { url: model.url, model: 'm' } }));
  t = await openTestEngine({ dataDir: dir });
  seq = 0;
});
afterEach(async () => {
  await t.close();
});

async function newEntries(): Promise<AuditRow[]> {
  const rows = (await t.engine.store(undefined)).db
    .prepare('SELECT * FROM audit WHERE seq > ? ORDER BY seq')
    .all(seq) as AuditRow[];
  seq = rows.at(-1)?.seq ?? seq;
  return rows;
}

const as = (actor: Actor): LociClient => t.client(actor);

describe('audit coverage', () => {
  it('classifies every method of the contract', () => {
    const writes = new Set(Object.keys(WRITES));
    const unclassified = METHOD_NAMES.filter(
      (m) => !READS.includes(m) && !writes.has(m) && !(m in OUTSIDE_THE_CHAIN),
    );
    expect(unclassified).toEqual([]);
  });

  // One test per method (each within the suite's time limit on a busy machine), every
  // actor in turn on the same engine.
  for (const [method, scenario] of Object.entries(WRITES)) {
    it(`${method} leaves one entry with the right actor and action`, async () => {
      for (const actor of scenario.actors ?? [ui, cli, cursor, zed]) {
        await scenario.prepare?.(actor);
        await newEntries();
        await scenario.run(as(actor), actor);
        const entries = await newEntries();
        const name = actor.kind === 'mcp' ? `mcp:${actor.client}` : actor.kind;
        expect(entries.length, `${method} as ${name}`).toBeGreaterThan(0);
        for (const e of entries) expect(e.actor, `${method} as ${name}`).toBe(name);
        expect(
          entries.map((e) => e.action),
          `${method} as ${name}`,
        ).toEqual(expect.arrayContaining(scenario.actions));
      }
    });
  }

  it('leaves no entry for a read, and logs MCP reads in the read log only', async () => {
    const { id } = await t.cli.call('memory.remember', { content: 'Reads are logged lightly' });
    await newEntries();
    await as(cursor).call('memory.recall', { query: 'reads logged lightly' });
    await as(cursor).call('memory.get', { id });
    await as(zed).call('memory.timeline', {});
    await as(zed).call('memory.map', {});
    await as(ui).call('memory.get', { id });
    await t.cli.call('memory.recall', { query: 'reads logged' });
    expect(await newEntries()).toEqual([]);
    const access = await t.cli.call('audit.access', {});
    const by = Object.fromEntries(access.groups.map((g) => [g.client, g]));
    expect(Object.keys(by).sort()).toEqual(['mcp:cursor', 'mcp:zed']);
    expect(by['mcp:cursor']).toMatchObject({ reads: 2, memories: 1 });
    expect(by['mcp:cursor']!.methods).toEqual(['memory.get', 'memory.recall']);
    expect(by['mcp:zed']!.methods).toEqual(['memory.map', 'memory.timeline']);
    const day = access.groups[0]!.day;
    const list = await t.cli.call('audit.access', { client: 'mcp:cursor', day });
    expect(list.memories).toEqual([
      expect.objectContaining({ id, title: 'Reads are logged lightly', reads: 2, erased: false }),
    ]);
    // A simulated recall (a person looking through a client's eyes) is not the client's read.
    await t.cli.call('memory.recall', { query: 'reads', as_client: 'cursor' });
    expect((await t.cli.call('audit.access', { client: 'mcp:cursor', day })).memories).toHaveLength(
      1,
    );
  });

  it('keeps the read log bounded by age', async () => {
    const { id } = await t.cli.call('memory.remember', { content: 'Old reads fade from the log' });
    await as(cursor).call('memory.get', { id });
    t.engine.audit.reads.flush();
    t.advance(91 * 86_400_000);
    const store = await t.engine.store(undefined);
    expect(t.engine.audit.reads.prune(store, true)).toBe(1);
    expect((await t.cli.call('audit.access', { days: 90 })).groups).toEqual([]);
  });
});

interface Scenario {
  actions: string[];
  actors?: Actor[];
  prepare?: (actor: Actor) => Promise<void>;
  run: (client: LociClient, actor: Actor) => Promise<unknown>;
}

let n = 0;
/** Two near-duplicates and a dream that proposes to merge them (one pending review item). */
async function proposeMerge(): Promise<void> {
  const text = `The staging database ${++n} restarts every Sunday at 02:00 UTC for patches`;
  await t.cli.call('memory.rememberMany', { items: [{ content: text }, { content: `${text}.` }] });
  await t.cli.call('dream.run', { phases: ['merge'] });
}
const fresh = async () =>
  (await t.cli.call('memory.remember', { content: `Coverage memory ${++n} ${Math.random()}` })).id;

/** Two memories that contradict each other, written by the person; the conflict's id. */
const conflicting = async () => {
  const port = 1000 + ++n;
  await t.cli.call('memory.remember', {
    content: `Coverage service ${n}x listens on port ${port}.`,
  });
  const r = await t.cli.call('memory.remember', {
    content: `Coverage service ${n}x listens on port ${port + 1}.`,
  });
  return r.conflicts![0]!.conflict;
};

const WRITES: Partial<Record<MethodName, Scenario>> = {
  'sync.connect': {
    actions: ['sync.connect'],
    actors: [ui, cli],
    prepare: async () => {
      await t.cli.call('sync.leave', {});
    },
    run: (c) => c.call('sync.connect', { folder: tempDir('loci-coverage-sync-') }),
  },
  'sync.leave': {
    actions: ['sync.leave'],
    actors: [ui, cli],
    prepare: async () => {
      await t.cli.call('sync.leave', {});
      await t.cli.call('sync.connect', { folder: tempDir('loci-coverage-sync-') });
    },
    run: (c) => c.call('sync.leave', {}),
  },
  'conflict.resolve': {
    actions: ['conflict.resolve', 'memory.update'],
    run: async (c) => {
      const id = await conflicting();
      await newEntries();
      return c.call('conflict.resolve', { ids: [id], resolution: 'supersede' });
    },
  },
  'conflict.reopen': {
    actions: ['conflict.reopen'],
    run: async (c) => {
      const id = await conflicting();
      await t.cli.call('conflict.resolve', { ids: [id], resolution: 'dismiss' });
      await newEntries();
      return c.call('conflict.reopen', { id });
    },
  },
  'memory.remember': {
    actions: ['memory.create'],
    run: (c) => c.call('memory.remember', { content: `Remembered ${++n} for coverage` }),
  },
  'memory.rememberMany': {
    actions: ['memory.create'],
    run: (c) =>
      c.call('memory.rememberMany', {
        items: [{ content: `Many one ${++n}` }, { content: `Many two ${n}` }],
      }),
  },
  'memory.update': {
    actions: ['memory.update'],
    run: async (c) => {
      const id = await fresh();
      await newEntries();
      return c.call('memory.update', { id, content: `Updated text ${++n}` });
    },
  },
  'memory.revert': {
    actions: ['memory.update'],
    actors: [ui, cli],
    run: async (c) => {
      const id = await fresh();
      await t.cli.call('memory.update', { id, content: `Second version ${++n}` });
      await newEntries();
      return c.call('memory.revert', { id, version: 1 });
    },
  },
  'memory.tag': {
    actions: ['memory.update'],
    run: async (c) => {
      const id = await fresh();
      await newEntries();
      return c.call('memory.tag', { id, add: ['coverage'] });
    },
  },
  'memory.forget': {
    actions: ['memory.forget'],
    run: async (c) => {
      const id = await fresh();
      await newEntries();
      return c.call('memory.forget', { id });
    },
  },
  'memory.restore': {
    actions: ['memory.restore'],
    run: async (c) => {
      const id = await fresh();
      await t.cli.call('memory.forget', { id });
      await newEntries();
      return c.call('memory.restore', { id });
    },
  },
  'memory.erase': {
    actions: ['memory.erase'],
    run: async (c) => {
      const id = await fresh();
      await newEntries();
      return c.call('memory.erase', { id });
    },
  },
  'memory.promote': {
    actions: ['memory.promote'],
    // Only a person may promote out of quarantine.
    actors: [ui, cli],
    run: async (c) => {
      const { id } = await t.cli.call('memory.remember', {
        content: `token ghp_${'aB3'.repeat(12)} number ${++n}`,
      });
      await newEntries();
      return c.call('memory.promote', { id });
    },
  },
  'memory.redact': {
    actions: ['memory.redact'],
    // Only a person may redact (and so release) a quarantined memory.
    actors: [ui, cli],
    run: async (c) => {
      const { id } = await t.cli.call('memory.remember', {
        content: `token ghp_${'cD4'.repeat(12)} number ${++n}`,
      });
      await newEntries();
      return c.call('memory.redact', { id });
    },
  },
  'link.create': {
    actions: ['link.create'],
    run: async (c) => {
      const [a, b] = [await fresh(), await fresh()];
      await newEntries();
      return c.call('link.create', { from: a, to: b });
    },
  },
  'link.createMany': {
    actions: ['link.create'],
    run: async (c) => {
      const [a, b, d] = [await fresh(), await fresh(), await fresh()];
      await newEntries();
      return c.call('link.createMany', {
        links: [
          { from: a, to: b },
          { from: b, to: d },
        ],
      });
    },
  },
  'link.remove': {
    actions: ['link.remove'],
    run: async (c) => {
      const [a, b] = [await fresh(), await fresh()];
      await t.cli.call('link.create', { from: a, to: b });
      await newEntries();
      return c.call('link.remove', { from: a, to: b });
    },
  },
  'procedure.recordOutcome': {
    actions: ['procedure.outcome'],
    run: async (c) => {
      const { id } = await t.cli.call('memory.remember', {
        content: `To deploy ${++n}: run the pipeline, then check the dashboard`,
        kind: 'procedural',
      });
      await newEntries();
      return c.call('procedure.recordOutcome', { id, success: true });
    },
  },
  'store.rename': {
    // The entry lands in the renamed store's own chain, checked here; the marker write
    // after it gives the generic check an entry in the default store.
    actions: ['memory.create'],
    actors: [ui, cli],
    run: async (c, actor) => {
      const name = `s${++n}`;
      await t.cli.call('store.create', { name });
      await c.call('store.rename', { name, to: `${name}x` });
      const rows = (await t.engine.store(`${name}x`)).db
        .prepare('SELECT actor, action FROM audit')
        .all() as { actor: string; action: string }[];
      expect(rows).toEqual([{ actor: actor.kind, action: 'store.rename' }]);
      return c.call('memory.remember', { content: `renamed store ${name} marker` });
    },
  },
  'store.encrypt': {
    actions: ['store.encrypt'],
    actors: [ui, cli],
    prepare: async () => {
      const [d] = (await t.cli.call('store.encryption', {})).stores;
      if (d?.encrypted) await t.cli.call('store.decrypt', {});
    },
    run: (c) => c.call('store.encrypt', { source: 'keyfile' }),
  },
  'store.rekey': {
    actions: ['store.rekey'],
    actors: [ui, cli],
    prepare: async () => {
      const [d] = (await t.cli.call('store.encryption', {})).stores;
      if (!d?.encrypted) await t.cli.call('store.encrypt', { source: 'keyfile' });
    },
    run: (c) => c.call('store.rekey', { source: 'keyfile' }),
  },
  'store.decrypt': {
    actions: ['store.decrypt'],
    actors: [ui, cli],
    prepare: async () => {
      const [d] = (await t.cli.call('store.encryption', {})).stores;
      if (!d?.encrypted) await t.cli.call('store.encrypt', { source: 'keyfile' });
    },
    run: (c) => c.call('store.decrypt', {}),
  },
  'store.unlock': {
    actions: ['store.unlock'],
    actors: [ui, cli],
    prepare: async () => {
      const [d] = (await t.cli.call('store.encryption', {})).stores;
      if (!d?.encrypted) await t.cli.call('store.encrypt', { source: 'keyfile' });
      await t.cli.call('store.rekey', { source: 'passphrase', passphrase: 'coverage passphrase' });
    },
    run: (c) => c.call('store.unlock', { passphrase: 'coverage passphrase' }),
  },
  'store.import': {
    // Like store.rename: the entry lands in the new store's chain, checked here.
    actions: ['memory.create'],
    actors: [ui, cli],
    run: async (c, actor) => {
      const name = `imp${++n}`;
      await t.cli.call('store.create', { name });
      const bundle = await t.cli.call('store.export', {});
      await c.call('store.import', { store: name, bundle: bundle as never });
      const rows = (await t.engine.store(name)).db
        .prepare('SELECT actor, action FROM audit')
        .all() as { actor: string; action: string }[];
      expect(rows).toEqual([{ actor: actor.kind, action: 'store.import' }]);
      return c.call('memory.remember', { content: `imported store ${name} marker` });
    },
  },
  'audit.rotateKey': {
    actions: ['audit.key_rotated'],
    actors: [ui, cli],
    run: (c) => c.call('audit.rotateKey', {}),
  },
  'ingest.files': {
    actions: ['memory.create'],
    actors: [ui, cli],
    run: (c) => {
      const dir = tempDir('loci-coverage-ingest-');
      const file = join(dir, `notes-${++n}.md`);
      writeFileSync(file, `# Imported notes ${n}\n\nThe release train leaves on Thursdays ${n}.\n`);
      return c.call('ingest.files', { paths: [file] });
    },
  },
  'transcript.import': {
    actions: ['memory.create', 'transcript.import'],
    actors: [ui, cli],
    run: (c) => {
      const dir = tempDir('loci-coverage-transcript-');
      const file = join(dir, `session-${++n}.jsonl`);
      writeFileSync(
        file,
        [
          { role: 'user', content: `Rename the build script ${n}`, ts: '2026-03-01T09:00:00Z' },
          { role: 'assistant', content: 'Done.', ts: '2026-03-01T09:01:00Z' },
        ]
          .map((l) => JSON.stringify(l))
          .join('\n'),
      );
      return c.call('transcript.import', { paths: [file] });
    },
  },
  'journal.propose': {
    actions: ['review.propose'],
    actors: [ui, cli],
    run: async (c) => {
      const dir = tempDir('loci-coverage-transcript-');
      const file = join(dir, `propose-${++n}.jsonl`);
      writeFileSync(
        file,
        `${JSON.stringify({ role: 'user', content: `The staging port is now ${n}00 for the billing service.` })}\n`,
      );
      const r = await t.cli.call('transcript.import', { paths: [file] });
      await newEntries();
      return c.call('journal.propose', {
        journal_id: r.files[0]!.journal_id!,
        candidates: [
          {
            content: `Billing on staging listens on port ${n}00.`,
            quotes: [`The staging port is now ${n}00 for the billing service.`],
          },
        ],
      });
    },
  },
  'journal.distill': {
    actions: ['journal.distilled'],
    actors: [ui, cli],
    run: async (c) => {
      const dir = tempDir('loci-coverage-transcript-');
      const file = join(dir, `distill-${++n}.jsonl`);
      writeFileSync(file, `${JSON.stringify({ role: 'user', content: `Session ${n}.` })}\n`);
      const r = await t.cli.call('transcript.import', { paths: [file] });
      await newEntries();
      return c.call('journal.distill', { id: r.files[0]!.journal_id! });
    },
  },
  'ingest.undo': {
    actions: ['memory.forget'],
    actors: [ui, cli],
    prepare: async () => undefined,
    run: async (c) => {
      const dir = tempDir('loci-coverage-ingest-');
      const file = join(dir, `undo-${++n}.md`);
      writeFileSync(file, `# Undo me ${n}\n\nA note that will be undone ${n}.\n`);
      const r = await t.cli.call('ingest.files', { paths: [file] });
      await newEntries();
      return c.call('ingest.undo', { batch: r.batch });
    },
  },
  'review.accept': {
    actions: ['review.accept', 'memory.update', 'memory.forget'],
    actors: [ui, cli],
    prepare: proposeMerge,
    run: async (c) => {
      const { items } = await t.cli.call('review.list', {});
      return c.call('review.accept', { ids: [items[0]!.id] });
    },
  },
  'review.reject': {
    actions: ['review.reject'],
    actors: [ui, cli],
    prepare: proposeMerge,
    run: async (c) => {
      const { items } = await t.cli.call('review.list', {});
      return c.call('review.reject', { ids: items.map((i) => i.id) });
    },
  },
  'ingest.redo': {
    actions: ['memory.restore'],
    actors: [ui, cli],
    run: async (c) => {
      const dir = tempDir('loci-coverage-ingest-');
      const file = join(dir, `redo-${++n}.md`);
      writeFileSync(file, `# Redo me ${n}\n\nA note that comes back ${n}.\n`);
      const r = await t.cli.call('ingest.files', { paths: [file] });
      await t.cli.call('ingest.undo', { batch: r.batch });
      await newEntries();
      return c.call('ingest.redo', { batch: r.batch });
    },
  },
};
