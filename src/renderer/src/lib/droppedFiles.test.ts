import { describe, expect, it } from 'vitest';
import { dirEntry, dropData, fileEntry } from '../views/ingest/ingestFixtures';
import { pickedFromDrop, pickedFromInput } from './droppedFiles';

describe('dropped and chosen files', () => {
  it('walks dropped folders in every batch the reader gives, keeping relative paths', async () => {
    const names = ['1.md', '2.md', '3.md', '4.md', '5.md'];
    const data = dropData([
      dirEntry('root', [
        ...names.map((n) => fileEntry(new File(['x'], n))),
        dirEntry('sub', [fileEntry(new File(['y'], 'deep.txt'))]),
        dirEntry('.cache', [fileEntry(new File(['z'], 'junk'))]),
      ]),
      fileEntry(new File(['w'], 'loose.csv')),
    ]);
    const picked = await pickedFromDrop(data);
    expect(picked.files.map((f) => f.path)).toEqual([
      ...names.map((n) => `root/${n}`),
      'root/sub/deep.txt',
      'loose.csv',
    ]);
    expect(picked.left).toEqual([{ path: 'root/.cache/', reason: 'hidden folder, not read' }]);
  });

  it('falls back to the files when the browser gives no entries', async () => {
    const f = new File(['a'], 'a.md');
    const data = {
      types: ['Files'],
      items: [{ kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => f }],
      files: [f],
    } as unknown as DataTransfer;
    expect((await pickedFromDrop(data)).files).toEqual([{ path: 'a.md', file: f }]);
  });

  it('keeps a chosen folder’s relative paths and leaves its hidden folders out', () => {
    const files = [
      ['notes/a.md', 'a.md'],
      ['notes/.git/HEAD', 'HEAD'],
      ['notes/.git/config', 'config'],
      ['notes/.gitignore', '.gitignore'],
    ].map(([rel, name]) => {
      const f = new File(['x'], name as string);
      Object.defineProperty(f, 'webkitRelativePath', { value: rel });
      return f;
    });
    const picked = pickedFromInput(files as unknown as FileList);
    expect(picked.files.map((f) => f.path)).toEqual(['notes/a.md', 'notes/.gitignore']);
    expect(picked.left).toEqual([{ path: 'notes/.git/', reason: 'hidden folder, not read' }]);
  });
});
