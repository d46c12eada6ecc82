import type { Menu, MenuItemConstructorOptions, NativeImage } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';
import type { EventMap } from '../../shared/events';
import {
  BusyTracker,
  buildTrayMenu,
  statusLine,
  trayIconState,
  type TrayActions,
  type TrayStatus,
} from './tray';
import { TrayController, type TrayControllerActions } from './trayController';

const base: TrayStatus = {
  memories: 1234,
  clients: 2,
  mcpPaused: false,
  doctor: 'ok',
  busy: false,
  error: null,
  launchAtLogin: false,
  canDream: true,
  mcpUrl: 'http://127.0.0.1:4747/mcp',
};

const noActions = (): TrayActions => ({
  openObservatory: vi.fn(),
  setMcpPaused: vi.fn(),
  dreamNow: vi.fn(),
  copyMcpUrl: vi.fn(),
  openDataFolder: vi.fn(),
  setLaunchAtLogin: vi.fn(),
  quit: vi.fn(),
});

const item = (menu: MenuItemConstructorOptions[], id: string) => {
  const found = menu.find((i) => i.id === id);
  if (!found) throw new Error(`no menu item ${id}`);
  return found;
};
const click = (i: MenuItemConstructorOptions) => (i.click as unknown as () => void | undefined)?.();

const progress = (
  phase: EventMap['ingest.progressed']['phase'],
): EventMap['ingest.progressed'] => ({
  store: 'default',
  batch: 'b',
  phase,
  file: null,
  file_index: 0,
  files: 1,
  chunks_done: 0,
  chunks_total: null,
  bytes_done: 0,
  bytes_total: 0,
  status: null,
  totals: null,
});

describe('tray icon state and menu', () => {
  it('picks the icon: error and failing doctor first, then busy, then warnings', () => {
    expect(trayIconState({ error: null, doctor: 'ok', busy: false })).toBe('idle');
    expect(trayIconState({ error: null, doctor: null, busy: false })).toBe('idle');
    expect(trayIconState({ error: null, doctor: 'warn', busy: false })).toBe('warning');
    expect(trayIconState({ error: null, doctor: 'warn', busy: true })).toBe('busy');
    expect(trayIconState({ error: null, doctor: 'fail', busy: true })).toBe('error');
    expect(trayIconState({ error: 'x', doctor: 'ok', busy: false })).toBe('error');
  });

  it('has a status line with memories and clients, and every command', () => {
    const actions = noActions();
    const menu = buildTrayMenu(base, actions);
    expect(item(menu, 'status')).toMatchObject({
      label: 'Loci running · 1,234 memories · 2 clients',
      enabled: false,
    });
    expect(menu.filter((i) => i.type !== 'separator').map((i) => i.label)).toEqual([
      'Loci running · 1,234 memories · 2 clients',
      'Open observatory',
      'Pause MCP',
      'Dream now',
      'Copy MCP URL',
      'Open data folder',
      'Launch at login',
      'Quit Loci',
    ]);
    click(item(menu, 'open'));
    click(item(menu, 'mcp'));
    click(item(menu, 'dream'));
    click(item(menu, 'copy-url'));
    click(item(menu, 'data'));
    click(item(menu, 'login'));
    click(item(menu, 'quit'));
    expect(actions.openObservatory).toHaveBeenCalled();
    expect(actions.setMcpPaused).toHaveBeenCalledWith(true);
    expect(actions.dreamNow).toHaveBeenCalled();
    expect(actions.copyMcpUrl).toHaveBeenCalled();
    expect(actions.openDataFolder).toHaveBeenCalled();
    expect(actions.setLaunchAtLogin).toHaveBeenCalledWith(true);
    expect(actions.quit).toHaveBeenCalled();
  });

  it('follows the state: paused, one client, counting, no dreams, login on, an error', () => {
    const s: TrayStatus = {
      ...base,
      memories: null,
      clients: 1,
      mcpPaused: true,
      canDream: false,
      launchAtLogin: true,
      error: 'Loci cannot read its store: disk I/O error',
    };
    const actions = noActions();
    const menu = buildTrayMenu(s, actions);
    expect(item(menu, 'status').label).toBe('Loci error · counting memories · 1 client');
    expect(item(menu, 'error')).toMatchObject({ label: s.error, enabled: false });
    expect(item(menu, 'mcp').label).toBe('Resume MCP');
    click(item(menu, 'mcp'));
    expect(actions.setMcpPaused).toHaveBeenCalledWith(false);
    expect(item(menu, 'dream').enabled).toBe(false);
    expect(item(menu, 'login').checked).toBe(true);
    expect(statusLine({ ...base, memories: 1, doctor: 'warn' })).toBe(
      'Loci doctor: warnings · 1 memory · 2 clients',
    );
  });

  it('is busy from a progress event to its end, or until the job falls silent', () => {
    let now = 0;
    const busy = new BusyTracker(() => now, 1000);
    expect(busy.note('memory.changed', {} as never)).toBe(false);
    expect(busy.note('ingest.progressed', progress('file'))).toBe(true);
    expect(busy.busy()).toBe(true);
    expect(busy.note('audit.progressed', { store: 's', checked: 1, total: 9, done: false })).toBe(
      false,
    );
    expect(busy.note('ingest.progressed', progress('finished'))).toBe(false);
    expect(busy.note('audit.progressed', { store: 's', checked: 9, total: 9, done: true })).toBe(
      true,
    );
    expect(busy.busy()).toBe(false);
    const dream = { store: 's', cycle: 'c', dry_run: false, phase_index: 0, phases: 8 };
    expect(
      busy.note('dream.progressed', {
        ...dream,
        step: 'started',
        phase: null,
        done: null,
        total: null,
      }),
    ).toBe(true);
    expect(busy.note('dream.finished', {} as EventMap['dream.finished'])).toBe(true);
    busy.note('embedding.progressed', { store: 's', model: 'm', done: 1, total: 5 });
    now = 1500;
    expect(busy.busy()).toBe(false);
  });
});

describe('TrayController', () => {
  let t: TestEngine;
  beforeAll(async () => {
    t = await openTestEngine();
  });
  afterAll(() => t.close());

  function setUp() {
    const images: string[] = [];
    const menus: MenuItemConstructorOptions[][] = [];
    const tray = {
      setImage: vi.fn((img: NativeImage) => images.push(img as unknown as string)),
      setToolTip: vi.fn(),
      setContextMenu: vi.fn(),
    };
    let paused = false;
    let doctorDone: (() => void) | null = null;
    const actions: TrayControllerActions = {
      openObservatory: vi.fn(),
      setMcpPaused: vi.fn((p: boolean) => {
        paused = p;
      }),
      mcpPaused: () => paused,
      dreamNow: vi.fn(async () => {
        throw new Error('dream exploded');
      }),
      copyMcpUrl: vi.fn(),
      openDataFolder: vi.fn(),
      setLaunchAtLogin: vi.fn(),
      quit: vi.fn(),
    };
    const controller = new TrayController({
      tray,
      icon: (state) => state as unknown as NativeImage,
      menu: (template) => {
        menus.push(template);
        return template as unknown as Menu;
      },
      // The doctor's verdict arrives by event (tests send it); the rest is the real engine.
      handlers: {
        dispatch: (method, args, ctx) =>
          method === 'doctor.run'
            ? new Promise((resolve) => (doctorDone = () => resolve({})))
            : t.handlers.dispatch(method, args, ctx),
      },
      events: t.engine.events,
      mcpUrl: 'http://127.0.0.1:1/mcp',
      canDream: true,
      launchAtLogin: () => false,
      actions,
      tickMs: 60_000,
    });
    const last = () => menus[menus.length - 1] ?? [];
    return { controller, images, last, actions, tray, doctor: () => doctorDone?.() };
  }

  it('shows the memory count, clients, doctor verdicts and work in progress', async () => {
    const { controller, images, last, tray, doctor } = setUp();
    controller.start();
    expect(images).toEqual(['idle']);
    await vi.waitFor(() => expect(controller.current.memories).toBe(0));
    expect(item(last(), 'status').label).toBe('Loci running · 0 memories · 0 clients');

    await t.cli.call('memory.remember', { content: 'The tray counts this memory.' });
    await vi.waitFor(() => expect(controller.current.memories).toBe(1), { timeout: 3000 });

    t.engine.events.emit('clients.changed', { connected: 3 });
    expect(item(last(), 'status').label).toBe('Loci running · 1 memory · 3 clients');

    // The write itself was background work (its embedding): busy, then idle again.
    expect(images).toEqual(['idle', 'busy', 'idle']);
    images.length = 0;
    t.engine.events.emit('doctor.finished', { store: 'default', status: 'warn' });
    t.engine.events.emit('ingest.progressed', progress('file'));
    t.engine.events.emit('ingest.progressed', progress('finished'));
    t.engine.events.emit('doctor.finished', { store: 'default', status: 'fail' });
    t.engine.events.emit('doctor.finished', { store: 'default', status: 'ok' });
    expect(images).toEqual(['warning', 'busy', 'warning', 'error', 'idle']);
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Loci running · 1 memory · 3 clients');
    doctor();
    controller.stop();
    t.engine.events.emit('clients.changed', { connected: 9 });
    expect(controller.current.clients).toBe(3);
  });

  it('pauses and resumes MCP, remembers launch at login, shows a failed dream', async () => {
    const { controller, last, actions, images } = setUp();
    controller.start();
    click(item(last(), 'mcp'));
    expect(actions.setMcpPaused).toHaveBeenCalledWith(true);
    expect(item(last(), 'mcp').label).toBe('Resume MCP');
    expect(item(last(), 'status').label).toMatch(/^Loci MCP paused/);
    click(item(last(), 'mcp'));
    expect(item(last(), 'mcp').label).toBe('Pause MCP');

    click(item(last(), 'login'));
    expect(actions.setLaunchAtLogin).toHaveBeenCalledWith(true);
    expect(item(last(), 'login').checked).toBe(true);

    click(item(last(), 'dream'));
    await vi.waitFor(() =>
      expect(controller.current.error).toBe('The dream failed: dream exploded'),
    );
    expect(images[images.length - 1]).toBe('error');
    controller.stop();
  });
});
