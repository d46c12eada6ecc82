// In the desktop app, the preload takes a drop of files that are on disk before the page
// sees it: it sends their real paths to the engine (which imports them; nothing is
// uploaded) and marks the drop handled. This capture listener, registered when the page
// loads and so right after the preload's, remembers those drops; the page's own drop
// handlers then only tidy up (overlay, Ingest view) instead of uploading the files again.
// In a browser no drop is ever marked, and nothing changes.
const takenByApp = new WeakSet<Event>();

if (typeof window !== 'undefined')
  window.addEventListener(
    'drop',
    (event) => {
      if (event.defaultPrevented) takenByApp.add(event);
    },
    true,
  );

/** True when the desktop app imported this drop by its paths already. */
export function importedByApp(event: Event): boolean {
  return takenByApp.has(event);
}
