import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestEngine, tempDir, type TestEngine } from '../../../test/helpers/engine';
import { acceptTrayDrops, checkDroppedPaths, createDropIngest } from './dragdrop';

let t: TestEngine;
let files: string;
beforeAll(async () => {
  t = await openTestEngine();
  files = tempDir('loci-drop-');
  mkdirSync(join(files, 'notes'));
  writeFileSync(
    join(files, 'notes', 'deploy.md'),
    '# Deploys\n\nWe deploy from main every Tuesday.\n',
  );
  writeFileSync(join(files, 'single.txt'), 'The staging database is rebuilt nightly.\n');
});
afterAll(() => t.close());

describe('drops', () => {
  it('keeps absolute paths that exist, each once', () => {
    const folder = join(files, 'notes');
    const r = checkDroppedPaths([
      folder,
      folder,
      'relative/path',
      join(files, 'missing.md'),
      `${folder}\0x`,
    ]);
    expect(r.paths).toEqual([folder]);
    expect(r.refused).toEqual(['relative/path', join(files, 'missing.md'), `${folder}\0x`]);
  });

  it('imports dropped files and folders by their real paths, then shows the Ingest view', async () => {
    const showIngest = vi.fn();
    const notify = vi.fn();
    const ingest = createDropIngest({ handlers: t.handlers, showIngest, notify });
    const report = await ingest([join(files, 'notes'), join(files, 'single.txt')], 'window');
    expect(showIngest).toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
    expect(report?.files.map((f) => f.status)).toEqual(['ingested', 'ingested']);
    const recalled = await t.cli.call('memory.recall', { query: 'When do we deploy from main?' });
    expect(recalled.results[0]?.content).toMatch(/every Tuesday/);
  });

  it('imports into the store the window shows', async () => {
    await t.cli.call('store.create', { name: 'work' });
    const ingest = createDropIngest({ handlers: t.handlers, showIngest: vi.fn(), notify: vi.fn() });
    const report = await ingest([join(files, 'single.txt')], 'window', 'work');
    expect(report?.store).toBe('work');
    const inWork = await t.cli.call('memory.list', { store: 'work', limit: 10 });
    expect(inWork.items.length).toBeGreaterThan(0);
  });

  it('says why nothing was imported, and never calls the engine for it', async () => {
    const showIngest = vi.fn();
    const notify = vi.fn();
    const dispatch = vi.fn();
    const ingest = createDropIngest({ handlers: { dispatch }, showIngest, notify });
    expect(await ingest(['not/absolute', join(files, 'gone')], 'window')).toBeNull();
    expect(notify).toHaveBeenCalledWith(expect.stringMatching(/Nothing to import/));
    expect(dispatch).not.toHaveBeenCalled();
    expect(showIngest).not.toHaveBeenCalled();
  });

  it('reports an engine error in words', async () => {
    const notify = vi.fn();
    const dispatch = vi.fn(async () => {
      throw new Error('An import is running already.');
    });
    const ingest = createDropIngest({ handlers: { dispatch }, showIngest: vi.fn(), notify });
    expect(await ingest([files], 'tray')).toBeNull();
    expect(dispatch).toHaveBeenCalledWith(
      'ingest.files',
      { paths: [files] },
      { actor: { kind: 'ui', transport: 'tray' } },
    );
    expect(notify).toHaveBeenCalledWith('The import failed: An import is running already.');
  });

  it('takes drops on the tray icon on macOS only', () => {
    const ingest = vi.fn(async () => null);
    const mac = { on: vi.fn() };
    expect(acceptTrayDrops(mac as never, ingest, 'darwin')).toBe(true);
    const [name, listener] = mac.on.mock.calls[0] as [string, (e: unknown, f: string[]) => void];
    expect(name).toBe('drop-files');
    listener({}, ['/Users/me/notes']);
    expect(ingest).toHaveBeenCalledWith(['/Users/me/notes'], 'tray');
    const linux = { on: vi.fn() };
    expect(acceptTrayDrops(linux as never, ingest, 'linux')).toBe(false);
    expect(linux.on).not.toHaveBeenCalled();
  });
});
