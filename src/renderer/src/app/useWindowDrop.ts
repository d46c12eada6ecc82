// Dropping files anywhere on the window imports them: the handler takes what the drop
// carries, opens the Ingest view and hands the files over (stores/dropStore). A drop of
// files never lets the browser navigate to the file. Drags of text or links are left to
// the page (a text field still takes dropped text).
import { useEffect, useState } from 'react';
import { importedByApp } from '../lib/desktopDrop';
import { dragHasFiles, pickedFromDrop } from '../lib/droppedFiles';
import { navigate, parseRoute } from '../lib/router';
import { useDropStore } from '../stores/dropStore';

const INGEST = 'ingest';

/**
 * Before the shell is up (the connect screen), a dropped file must not replace the page
 * either: the drop is refused instead of opening the file in the tab.
 */
export function useNoFileNavigation(): void {
  useEffect(() => {
    const refuse = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer) || event.defaultPrevented) return;
      event.preventDefault();
      if (event.type === 'dragover' && event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
}

/** Whether files are being dragged over the window now (for the overlay). */
export function useWindowDrop(): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    // dragenter/dragleave fire for every child crossed: count them.
    let depth = 0;
    const onEnter = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      event.preventDefault();
      depth++;
      setDragging(true);
    };
    const onLeave = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (event: DragEvent) => {
      if (!dragHasFiles(event.dataTransfer)) return;
      // Without this the browser refuses the drop, or opens the file in the tab.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (!dragHasFiles(event.dataTransfer) || !event.dataTransfer) return;
      event.preventDefault();
      // The desktop app's preload already sent these files' real paths to the engine.
      if (importedByApp(event)) {
        if (parseRoute(window.location.hash).segments[0] !== INGEST) navigate(`/${INGEST}`);
        return;
      }
      // A drop zone that handled the drop itself stopped it before it got here.
      useDropStore.getState().put(pickedFromDrop(event.dataTransfer));
      if (parseRoute(window.location.hash).segments[0] !== INGEST) navigate(`/${INGEST}`);
    };
    const onEnd = () => {
      depth = 0;
      setDragging(false);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    window.addEventListener('dragend', onEnd);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
      window.removeEventListener('dragend', onEnd);
    };
  }, []);
  return dragging;
}
