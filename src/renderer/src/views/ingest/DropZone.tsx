// Where files and folders are dropped, or chosen with the keyboard ("Choose files…",
// "Choose a folder…"). A drop here is handled here (and goes no further); a drop anywhere
// else on the window reaches the app shell's handler. Both end in the drop store.
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { importedByApp } from '../../lib/desktopDrop';
import { dragHasFiles, pickedFromDrop, pickedFromInput } from '../../lib/droppedFiles';
import { formatBytes } from '../../lib/format';
import { useDropStore } from '../../stores/dropStore';
import { UPLOAD_FILE_MAX_BYTES } from './importModel';

export const FORMATS_LINE =
  'Markdown, plain text, source code, JSON and JSONL, CSV, HTML, PDF and DOCX.';

export function DropZone({ busy, compact }: { busy: boolean; compact: boolean }) {
  const [over, setOver] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const onDragOver = (event: DragEvent) => {
    if (!dragHasFiles(event.dataTransfer)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    setOver(false);
    if (!dragHasFiles(event.dataTransfer)) return;
    event.preventDefault();
    // Handled here: the window's handler would hand the same files over a second time.
    event.stopPropagation();
    // The desktop app's preload already sent these files' real paths to the engine.
    if (importedByApp(event.nativeEvent)) return;
    useDropStore.getState().put(pickedFromDrop(event.dataTransfer));
  };
  const onChosen = (input: HTMLInputElement | null) => {
    if (!input?.files?.length) return;
    useDropStore.getState().put(Promise.resolve(pickedFromInput(input.files)));
    // The same file chosen again must fire `change` again.
    input.value = '';
  };

  return (
    <section
      className={`ig-drop${over ? ' ig-drop-over' : ''}${compact ? ' ig-drop-compact' : ''}`}
      aria-labelledby={`${hintId}-title`}
      aria-describedby={hintId}
      data-testid="ingest-dropzone"
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <span className="ig-drop-icon" aria-hidden>
        <Icon name="ingest" size={compact ? 18 : 26} />
      </span>
      <div className="ig-drop-text">
        <h2 id={`${hintId}-title`} className="ig-drop-title">
          {busy ? 'An import is running' : 'Drop files or folders here'}
        </h2>
        <p id={hintId} className="ig-drop-hint">
          {busy
            ? 'Drop more when it is done, or cancel it below.'
            : `Or anywhere on this window. ${FORMATS_LINE} Up to ${formatBytes(UPLOAD_FILE_MAX_BYTES)} a file; folders are read through, hidden files, binaries and what .gitignore lists are skipped.`}
        </p>
      </div>
      <div className="ig-drop-actions">
        <Button icon="file" disabled={busy} onClick={() => files.current?.click()}>
          Choose files…
        </Button>
        <Button icon="folder" disabled={busy} onClick={() => folder.current?.click()}>
          Choose a folder…
        </Button>
        <input
          ref={files}
          type="file"
          multiple
          hidden
          aria-label="Files to import"
          data-testid="ingest-file-input"
          onChange={(e) => onChosen(e.currentTarget)}
        />
        <input
          ref={folder}
          type="file"
          hidden
          aria-label="A folder to import"
          data-testid="ingest-folder-input"
          // React has no typed prop for it; the attribute makes the chooser pick folders.
          {...{ webkitdirectory: '', directory: '' }}
          onChange={(e) => onChosen(e.currentTarget)}
        />
      </div>
    </section>
  );
}
