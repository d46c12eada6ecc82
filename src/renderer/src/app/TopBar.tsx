// The bar above every view: which store is shown, the search (command palette) trigger,
// whether live updates are flowing, and the theme.
import { Icon, type IconName } from '../components/Icon';
import { Kbd } from '../components/Kbd';
import { useEngineClient } from '../lib/engineContext';
import { useConnectionStore, type ConnectionStatus } from '../stores/connectionStore';
import { useUiStore, type Theme } from '../stores/uiStore';

function StoreSwitcher() {
  const stores = useUiStore((s) => s.stores);
  const store = useUiStore((s) => s.store);
  const setStore = useUiStore((s) => s.setStore);
  return (
    <label className="store-switcher" title="The store every view shows">
      <Icon name="database" />
      <span className="visually-hidden">Store</span>
      <select value={store ?? ''} onChange={(e) => setStore(e.target.value)}>
        {stores.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
            {s.is_default && s.name !== 'default' ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  ready: 'Live',
  connecting: 'Connecting…',
  offline: 'Reconnecting…',
  unauthorized: 'Not connected',
};

function ConnectionBadge() {
  const status = useConnectionStore((s) => s.status);
  const client = useEngineClient();
  const title =
    status === 'ready'
      ? `Connected ${client.transport === 'bridge' ? 'to the desktop engine' : 'to the daemon'}: views update as memories change.`
      : status === 'offline'
        ? 'The daemon stopped answering; retrying. What you see may be out of date.'
        : undefined;
  return (
    <span className={`conn conn-${status}`} role="status" aria-label="Connection" title={title}>
      <span className="conn-dot" aria-hidden />
      {STATUS_TEXT[status]}
    </span>
  );
}

const NEXT_THEME: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_ICON: Record<Theme, IconName> = { system: 'monitor', light: 'sun', dark: 'moon' };

function ThemeToggle() {
  const theme = useUiStore((s) => s.theme);
  const setTheme = useUiStore((s) => s.setTheme);
  return (
    <button
      type="button"
      className="icon-btn"
      onClick={() => setTheme(NEXT_THEME[theme])}
      aria-label={`Theme: ${theme}. Switch to ${NEXT_THEME[theme]}`}
      title={`Theme: ${theme}`}
    >
      <Icon name={THEME_ICON[theme]} />
    </button>
  );
}

export function TopBar() {
  const openPalette = useUiStore((s) => s.setPaletteOpen);
  return (
    <header className="topbar">
      <StoreSwitcher />
      <button
        type="button"
        className="search-trigger"
        onClick={() => openPalette(true)}
        aria-keyshortcuts="Control+K Meta+K"
      >
        <Icon name="search" />
        <span className="search-trigger-text">Search memories and views…</span>
        <Kbd keys={['mod', 'K']} />
      </button>
      <div className="topbar-end">
        <ConnectionBadge />
        <ThemeToggle />
      </div>
    </header>
  );
}
