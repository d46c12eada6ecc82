// Keeps the tray icon, tooltip and menu in step with the engine: memory count (on
// memory changes), connected clients, background work, the doctor's verdict, MCP paused
// or not. It runs the doctor once at start so the icon has a verdict to show.
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { StatsResult } from '../../shared/api';
import { EVENT_NAMES } from '../../shared/events';
import { UI_CONTEXT, type Dispatcher, type EventSource } from './ipc';
import {
  BusyTracker,
  buildTrayMenu,
  trayIconState,
  trayTooltip,
  type TrayIconState,
  type TrayStatus,
} from './tray';

export interface TrayControllerActions {
  openObservatory(): void;
  setMcpPaused(paused: boolean): void;
  mcpPaused(): boolean;
  dreamNow(): Promise<unknown>;
  copyMcpUrl(): void;
  openDataFolder(): void;
  setLaunchAtLogin(enabled: boolean): void;
  quit(): void;
}

export interface TrayControllerOptions {
  tray: Pick<Tray, 'setImage' | 'setToolTip' | 'setContextMenu'>;
  icon: (state: TrayIconState) => NativeImage;
  menu: (template: MenuItemConstructorOptions[]) => Menu;
  handlers: Dispatcher;
  events: EventSource;
  mcpUrl: string;
  canDream: boolean;
  launchAtLogin: () => boolean;
  actions: TrayControllerActions;
  now?: () => number;
  /** How often the busy state is looked at again (a silent job ends being busy). */
  tickMs?: number;
}

export class TrayController {
  private status: TrayStatus;
  private readonly busy: BusyTracker;
  private readonly offs: (() => void)[] = [];
  private shownState: TrayIconState | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private countTimer: ReturnType<typeof setTimeout> | null = null;
  private countFailed = false;

  constructor(private readonly o: TrayControllerOptions) {
    this.busy = new BusyTracker(o.now ?? Date.now);
    this.status = {
      memories: null,
      clients: 0,
      mcpPaused: o.actions.mcpPaused(),
      doctor: null,
      busy: false,
      error: null,
      launchAtLogin: o.launchAtLogin(),
      canDream: o.canDream,
      mcpUrl: o.mcpUrl,
    };
  }

  get current(): Readonly<TrayStatus> {
    return this.status;
  }

  start(): void {
    const { events } = this.o;
    this.offs.push(
      events.on('clients.changed', (p) => this.update({ clients: p.connected })),
      events.on('doctor.finished', (p) => this.update({ doctor: p.status })),
      events.on('memory.changed', () => this.countSoon()),
    );
    for (const name of EVENT_NAMES)
      this.offs.push(
        events.on(name, (payload) => {
          if (this.busy.note(name, payload)) this.update({ busy: this.busy.busy() });
        }),
      );
    this.timer = setInterval(() => {
      const busy = this.busy.busy();
      if (busy !== this.status.busy) this.update({ busy });
    }, this.o.tickMs ?? 5_000);
    this.timer.unref?.();
    this.render();
    void this.count();
    void this.o.handlers.dispatch('doctor.run', {}, UI_CONTEXT).catch((err: unknown) => {
      this.update({ error: `The doctor could not run: ${(err as Error).message}` });
    });
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
    if (this.timer) clearInterval(this.timer);
    if (this.countTimer) clearTimeout(this.countTimer);
    this.timer = this.countTimer = null;
  }

  update(patch: Partial<TrayStatus>): void {
    this.status = { ...this.status, ...patch };
    this.render();
  }

  /** Counts memories again at most every half second while writes stream in. */
  private countSoon(): void {
    if (this.countTimer) return;
    this.countTimer = setTimeout(() => {
      this.countTimer = null;
      void this.count();
    }, 500);
    this.countTimer.unref?.();
  }

  private async count(): Promise<void> {
    try {
      const stats = (await this.o.handlers.dispatch('stats.get', {}, UI_CONTEXT)) as StatsResult;
      // A count that works again clears its own error, never another one's.
      this.update({ memories: stats.memories.live, ...(this.countFailed ? { error: null } : {}) });
      this.countFailed = false;
    } catch (err) {
      this.countFailed = true;
      this.update({ error: `Loci cannot read its store: ${(err as Error).message}` });
    }
  }

  private render(): void {
    const { tray, icon, menu, actions } = this.o;
    const state = trayIconState(this.status);
    if (state !== this.shownState) {
      tray.setImage(icon(state));
      this.shownState = state;
    }
    tray.setToolTip(trayTooltip(this.status));
    tray.setContextMenu(
      menu(
        buildTrayMenu(this.status, {
          openObservatory: () => actions.openObservatory(),
          setMcpPaused: (paused) => {
            actions.setMcpPaused(paused);
            this.update({ mcpPaused: actions.mcpPaused() });
          },
          dreamNow: () => {
            if (!this.status.canDream) return;
            actions
              .dreamNow()
              .catch((err: unknown) =>
                this.update({ error: `The dream failed: ${(err as Error).message}` }),
              );
          },
          copyMcpUrl: () => actions.copyMcpUrl(),
          openDataFolder: () => actions.openDataFolder(),
          setLaunchAtLogin: (enabled) => {
            actions.setLaunchAtLogin(enabled);
            this.update({ launchAtLogin: enabled });
          },
          quit: () => actions.quit(),
        }),
      ),
    );
  }
}
