// The observatory's frame once connected: navigation on the left, the top bar (store,
// search, connection, theme), the current view in <main>, and the command palette on
// Ctrl/⌘-K from anywhere.
import { useEffect } from 'react';
import { useRoute } from '../lib/router';
import { useUiStore } from '../stores/uiStore';
import { CommandPalette } from './CommandPalette';
import { RouteOutlet } from './RouteOutlet';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useWindowDrop } from './useWindowDrop';

function usePaletteShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== 'k') return;
      // The browser's own Ctrl-K (search from the address bar) would steal the chord.
      event.preventDefault();
      const ui = useUiStore.getState();
      ui.setPaletteOpen(!ui.paletteOpen);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function Shell() {
  const route = useRoute();
  usePaletteShortcut();
  const dragging = useWindowDrop();
  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // A plain #main would become a route: move focus ourselves.
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <Sidebar route={route} />
      <div className="shell-body">
        <TopBar />
        <main id="main" className="content" tabIndex={-1}>
          <RouteOutlet route={route} />
        </main>
      </div>
      <CommandPalette />
      {dragging ? (
        <div className="drop-overlay" aria-hidden>
          <div className="drop-overlay-card">Drop files or folders to import them</div>
        </div>
      ) : null}
    </div>
  );
}
