// Files a person dropped or chose, with the path each had under what was dropped: folders
// are walked through the File and Directory Entries API (webkitGetAsEntry), keeping
// relative paths ("notes/2024/a.md"). Hidden folders (.git, .cache…) are not walked:
// their files would only be skipped by the engine after being sent to it.
// What it does not do: read file contents, or decide what the engine will accept.

export interface PickedFile {
  /** "/"-separated, relative to what was dropped or chosen. */
  path: string;
  file: File;
}

export interface PickedFiles {
  files: PickedFile[];
  /** Hidden folders left out, and entries that could not be read, with why. */
  left: { path: string; reason: string }[];
}

const isHidden = (name: string) => name.startsWith('.') && name !== '.' && name !== '..';

/** True while a drag carries files (not text or a link). */
export function dragHasFiles(data: DataTransfer | null): boolean {
  return !!data && Array.from(data.types).includes('Files');
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFiles): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    try {
      out.files.push({ path, file: await entryFile(entry as FileSystemFileEntry) });
    } catch (err) {
      out.left.push({ path, reason: `could not be read (${(err as Error)?.name ?? 'error'})` });
    }
    return;
  }
  if (!entry.isDirectory) return;
  if (prefix && isHidden(entry.name)) {
    out.left.push({ path: `${path}/`, reason: 'hidden folder, not read' });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 at a time in Chromium) until it answers [].
  for (;;) {
    let batch: FileSystemEntry[];
    try {
      batch = await readEntries(reader);
    } catch (err) {
      out.left.push({
        path: `${path}/`,
        reason: `folder could not be read (${(err as Error)?.name ?? 'error'})`,
      });
      return;
    }
    if (batch.length === 0) return;
    for (const child of batch) await walk(child, path, out);
  }
}

/**
 * What a drop carries. Call it during the drop event: the browser empties the
 * DataTransfer once the event returns, so its entries are taken at once and only
 * the walk of folders runs later.
 */
export function pickedFromDrop(data: DataTransfer): Promise<PickedFiles> {
  const roots: (FileSystemEntry | File)[] = [];
  const items = Array.from(data.items ?? []).filter((item) => item.kind === 'file');
  if (items.length > 0) {
    for (const item of items) {
      const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
      const file = entry ? null : item.getAsFile();
      if (entry) roots.push(entry);
      else if (file) roots.push(file);
    }
  } else {
    roots.push(...Array.from(data.files ?? []));
  }
  return (async () => {
    const out: PickedFiles = { files: [], left: [] };
    for (const root of roots) {
      if (root instanceof File) out.files.push({ path: root.name, file: root });
      else await walk(root, '', out);
    }
    return out;
  })();
}

/** What an <input type="file"> holds; with `webkitdirectory`, paths under the chosen folder. */
export function pickedFromInput(list: FileList | null): PickedFiles {
  const out: PickedFiles = { files: [], left: [] };
  for (const file of Array.from(list ?? [])) {
    const path = file.webkitRelativePath || file.name;
    const parts = path.split('/');
    // Inside a hidden folder below the chosen one: the browser listed it, we skip it.
    const hidden = parts.slice(1, -1).findIndex(isHidden);
    if (hidden >= 0) {
      const folder = `${parts.slice(0, hidden + 2).join('/')}/`;
      if (!out.left.some((l) => l.path === folder))
        out.left.push({ path: folder, reason: 'hidden folder, not read' });
      continue;
    }
    out.files.push({ path, file });
  }
  return out;
}
