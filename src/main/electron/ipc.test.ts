import type { IpcMain, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';
import { IPC_CALL, IPC_DROP, IPC_EVENT, type BridgeReply } from '../../shared/bridge';
import { isTrustedSender, registerIpc } from './ipc';

type Invoke = (event: unknown, ...args: unknown[]) => Promise<BridgeReply>;
type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpcMain() {
  const handles = new Map<string, Invoke>();
  const listeners = new Map<string, Listener>();
  const ipc = {
    handle: (ch: string, fn: Invoke) => handles.set(ch, fn),
    removeHandler: (ch: string) => handles.delete(ch),
    on: (ch: string, fn: Listener) => listeners.set(ch, fn),
    removeListener: (ch: string) => listeners.delete(ch),
  };
  return { ipc: ipc as unknown as IpcMain, handles, listeners };
}

function fakeWindow(url = 'app://loci/index.html') {
  const mainFrame = { url };
  const contents = { mainFrame, isDestroyed: () => false, send: vi.fn() };
  return contents;
}

let t: TestEngine;
beforeAll(async () => {
  t = await openTestEngine();
});
afterAll(() => t.close());

describe('IPC', () => {
  it('answers only the app window, its main frame, on app://loci', () => {
    const win = fakeWindow();
    const current = () => win as unknown as WebContents;
    const ok = { sender: win, senderFrame: win.mainFrame };
    expect(isTrustedSender(ok as never, current)).toBe(true);
    // A subframe of the window.
    expect(
      isTrustedSender({ sender: win, senderFrame: { url: 'app://loci/x' } } as never, current),
    ).toBe(false);
    // Another window (or a devtools extension page).
    const other = fakeWindow();
    expect(isTrustedSender({ sender: other, senderFrame: other.mainFrame } as never, current)).toBe(
      false,
    );
    // The frame was navigated elsewhere, or is gone.
    const away = fakeWindow('https://evil.example/');
    expect(
      isTrustedSender({ sender: away, senderFrame: away.mainFrame } as never, () => away as never),
    ).toBe(false);
    expect(isTrustedSender({ sender: win, senderFrame: null } as never, current)).toBe(false);
    expect(isTrustedSender(ok as never, () => null)).toBe(false);
  });

  it('runs calls through the handler registry: validated, errors as data', async () => {
    const { ipc, handles } = fakeIpcMain();
    const win = fakeWindow();
    const off = registerIpc({
      ipcMain: ipc,
      handlers: t.handlers,
      events: t.engine.events,
      window: () => win as unknown as WebContents,
      onDrop: vi.fn(),
    });
    const call = handles.get(IPC_CALL);
    if (!call) throw new Error('no call handler');
    const event = { sender: win, senderFrame: win.mainFrame };

    const saved = await call(event, 'memory.remember', { content: 'The deploy runs from main.' });
    expect(saved.ok).toBe(true);
    const id = saved.ok ? (saved.result as { id: string }).id : '';
    const read = await call(event, 'memory.get', { id });
    expect(read).toMatchObject({ ok: true, result: { id, content: 'The deploy runs from main.' } });

    // The shared schema refuses what does not fit; the reply carries the contract's code.
    const bad = await call(event, 'memory.remember', { content: 42 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-args' } });
    const extra = await call(event, 'memory.get', { id, sneaky: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid-args' } });
    expect(await call(event, 'nope.never', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown-method' },
    });
    expect(await call(event, 42, {})).toMatchObject({ ok: false, error: { code: 'invalid-args' } });
    // The audit names the person at the window as the actor.
    const audit = await t.cli.call('audit.list', {});
    expect(audit.entries.some((e) => e.actor === 'ui' && e.target === id)).toBe(true);

    // A frame that is not the app's gets nothing, and nothing runs.
    const sub = { sender: win, senderFrame: { url: 'app://loci/frame' } };
    const refused = await call(sub, 'memory.remember', { content: 'Injected by a subframe.' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const list = await t.cli.call('memory.list', {});
    expect(list.items.some((m) => m.title.includes('Injected'))).toBe(false);
    expect(list.items.some((m) => m.title.includes('deploy'))).toBe(true);

    off();
    expect(handles.has(IPC_CALL)).toBe(false);
  });

  it('relays engine events to the window, and stops when removed', async () => {
    const { ipc } = fakeIpcMain();
    const win = fakeWindow();
    const off = registerIpc({
      ipcMain: ipc,
      handlers: t.handlers,
      events: t.engine.events,
      window: () => win as unknown as WebContents,
      onDrop: vi.fn(),
    });
    const { id } = await t.cli.call('memory.remember', { content: 'Relayed to the window.' });
    expect(win.send).toHaveBeenCalledWith(
      IPC_EVENT,
      'memory.changed',
      expect.objectContaining({ ids: [id], change: 'created' }),
    );
    off();
    win.send.mockClear();
    await t.cli.call('memory.remember', { content: 'Not relayed any more.' });
    expect(win.send).not.toHaveBeenCalled();
  });

  it('passes dropped paths on only from the app window, and only a list of paths', () => {
    const { ipc, listeners } = fakeIpcMain();
    const win = fakeWindow();
    const onDrop = vi.fn();
    registerIpc({
      ipcMain: ipc,
      handlers: t.handlers,
      events: t.engine.events,
      window: () => win as unknown as WebContents,
      onDrop,
    });
    const drop = listeners.get(IPC_DROP);
    if (!drop) throw new Error('no drop listener');
    const event = { sender: win, senderFrame: win.mainFrame };
    drop(event, ['/home/me/notes']);
    drop({ sender: win, senderFrame: { url: 'app://loci/x' } }, ['/etc']);
    drop(event, '/etc/passwd');
    drop(event, []);
    drop(event, ['/ok', 7]);
    drop(event, ['']);
    // The store the window shows goes along; a name that is not a store name does not.
    drop(event, ['/home/me/work'], 'work');
    drop(event, ['/home/me/x'], '../etc');
    expect(onDrop.mock.calls).toEqual([
      [['/home/me/notes'], undefined],
      [['/home/me/work'], 'work'],
      [['/home/me/x'], undefined],
    ]);
  });
});
