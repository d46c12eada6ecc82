// The tray icon and its menu: a colour for what the engine is doing (idle, busy, warning,
// error — from engine activity and the doctor's verdict), a status line (memories,
// connected clients) and the app's commands. The menu only calls back into the app.
import type { MenuItemConstructorOptions } from 'electron';
import type { EventMap, EventName } from '../../shared/events';

export type TrayIconState = 'idle' | 'busy' | 'warning' | 'error';
export const TRAY_STATES: TrayIconState[] = ['idle', 'busy', 'warning', 'error'];

export interface TrayStatus {
  /** Live memories in the default store (null until counted). */
  memories: number | null;
  /** Connected MCP sessions. */
  clients: number;
  mcpPaused: boolean;
  /** The doctor's last verdict (null before it ran). */
  doctor: 'ok' | 'warn' | 'fail' | null;
  /** Background work running now (imports, embedding, dreams, verification, downloads). */
  busy: boolean;
  /** A failure the person must see (the engine could not start a step). */
  error: string | null;
  launchAtLogin: boolean;
  /** `dream.run` exists in this build. */
  canDream: boolean;
  mcpUrl: string;
}

/** An error or a failing doctor wins; then work in progress; then the doctor's warning. */
export function trayIconState(s: Pick<TrayStatus, 'error' | 'doctor' | 'busy'>): TrayIconState {
  if (s.error || s.doctor === 'fail') return 'error';
  if (s.busy) return 'busy';
  if (s.doctor === 'warn') return 'warning';
  return 'idle';
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function statusLine(s: TrayStatus): string {
  const memories =
    s.memories === null ? 'counting memories' : plural(s.memories, 'memory', 'memories');
  const clients = plural(s.clients, 'client', 'clients');
  const state =
    s.error !== null
      ? 'error'
      : s.mcpPaused
        ? 'MCP paused'
        : s.doctor === 'fail'
          ? 'doctor: failing'
          : s.busy
            ? 'busy'
            : s.doctor === 'warn'
              ? 'doctor: warnings'
              : 'running';
  return `Loci ${state} · ${memories} · ${clients}`;
}

export interface TrayActions {
  openObservatory(): void;
  setMcpPaused(paused: boolean): void;
  dreamNow(): void;
  copyMcpUrl(): void;
  openDataFolder(): void;
  setLaunchAtLogin(enabled: boolean): void;
  quit(): void;
}

export function trayTooltip(s: TrayStatus): string {
  return s.error ? `Loci — ${s.error}` : statusLine(s);
}

export function buildTrayMenu(s: TrayStatus, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'status', label: statusLine(s), enabled: false },
    ...(s.error ? [{ id: 'error', label: s.error, enabled: false }] : []),
    { type: 'separator' },
    { id: 'open', label: 'Open observatory', click: () => actions.openObservatory() },
    {
      id: 'mcp',
      label: s.mcpPaused ? 'Resume MCP' : 'Pause MCP',
      click: () => actions.setMcpPaused(!s.mcpPaused),
    },
    {
      id: 'dream',
      label: 'Dream now',
      enabled: s.canDream,
      ...(s.canDream ? {} : { sublabel: 'not in this build' }),
      click: () => actions.dreamNow(),
    },
    { id: 'copy-url', label: 'Copy MCP URL', click: () => actions.copyMcpUrl() },
    { id: 'data', label: 'Open data folder', click: () => actions.openDataFolder() },
    { type: 'separator' },
    {
      id: 'login',
      label: 'Launch at login',
      type: 'checkbox',
      checked: s.launchAtLogin,
      click: () => actions.setLaunchAtLogin(!s.launchAtLogin),
    },
    { type: 'separator' },
    { id: 'quit', label: 'Quit Loci', role: undefined, click: () => actions.quit() },
  ];
}

/** The events that mean background work is running (which kind), and whether it ended. */
export function activityOf<E extends EventName>(
  event: E,
  payload: EventMap[E],
): { kind: string; step: 'start' | 'end' } | null {
  const is = (ended: boolean, kind: string) => ({ kind, step: ended ? 'end' : 'start' }) as const;
  switch (event) {
    case 'ingest.progressed':
      return is((payload as EventMap['ingest.progressed']).phase === 'finished', 'ingest');
    case 'embedding.progressed': {
      const p = payload as EventMap['embedding.progressed'];
      return is(p.done >= p.total, 'embedding');
    }
    case 'dream.progressed':
      return is(false, 'dream');
    case 'dream.finished':
      return is(true, 'dream');
    case 'audit.progressed':
      return is((payload as EventMap['audit.progressed']).done, 'audit');
    case 'models.progressed': {
      const p = payload as EventMap['models.progressed'];
      return is(p.index + 1 >= p.files && p.total !== null && p.received >= p.total, 'models');
    }
    default:
      return null;
  }
}

/**
 * Which kinds of work are running: each kind is busy from a progress event until its end
 * event, or until it has been silent for `staleMs` (a crashed job must not leave the
 * icon busy for ever).
 */
export class BusyTracker {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly staleMs = 15_000,
  ) {}

  note<E extends EventName>(event: E, payload: EventMap[E]): boolean {
    const activity = activityOf(event, payload);
    if (activity === null) return false;
    const before = this.busy();
    if (activity.step === 'start') this.running.set(activity.kind, this.now());
    else this.running.delete(activity.kind);
    return before !== this.busy();
  }

  busy(): boolean {
    const now = this.now();
    for (const [kind, at] of this.running) if (now - at > this.staleMs) this.running.delete(kind);
    return this.running.size > 0;
  }
}
