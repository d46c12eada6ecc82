import { describe, expect, it, vi } from 'vitest';
import { IPC_CALL, IPC_DROP, IPC_EVENT, type BridgeReply } from '../shared/bridge';
import { createBridge, listenForDrops, type DropEventLike, type IpcLike } from './bridge';

function fakeIpc(reply: (method: string, args: unknown) => BridgeReply | undefined) {
  let onEvent: ((e: unknown, ...a: unknown[]) => void) | null = null;
  const invoke = vi.fn(async (_ch: string, method: unknown, args: unknown) =>
    reply(method as string, args),
  );
  const ipc = {
    invoke,
    send: vi.fn(),
    on: (_ch: string, listener: (e: unknown, ...a: unknown[]) => void) => {
      onEvent = listener;
    },
  } satisfies IpcLike;
  return { ipc, emit: (name: unknown, payload: unknown) => onEvent?.({}, name, payload) };
}

describe('the preload bridge', () => {
  it('calls the engine over IPC and returns the result', async () => {
    const { ipc } = fakeIpc(() => ({ ok: true, result: { id: 'm1' } }));
    const bridge = createBridge(ipc);
    await expect(bridge.call('memory.get', { id: 'm1' })).resolves.toEqual({ id: 'm1' });
    expect(ipc.invoke).toHaveBeenCalledWith(IPC_CALL, 'memory.get', { id: 'm1' });
  });

  it('rejects with the contract error data, never an opaque error', async () => {
    const { ipc } = fakeIpc(() => ({
      ok: false,
      error: { code: 'not-found', message: 'No memory m9.', data: { id: 'm9' } },
    }));
    await expect(createBridge(ipc).call('memory.get', { id: 'm9' })).rejects.toEqual({
      code: 'not-found',
      message: 'No memory m9.',
      data: { id: 'm9' },
    });
    const broken = fakeIpc(() => ({ ok: false, error: { code: 'bogus', message: 'x' } }) as never);
    await expect(createBridge(broken.ipc).call('stats.get', {})).rejects.toMatchObject({
      code: 'internal',
    });
    const silent = fakeIpc(() => undefined);
    await expect(createBridge(silent.ipc).call('stats.get', {})).rejects.toMatchObject({
      code: 'internal',
    });
  });

  it('delivers engine events to listeners of that event until they unsubscribe', () => {
    const { ipc, emit } = fakeIpc(() => undefined);
    const bridge = createBridge(ipc);
    const clients = vi.fn();
    const other = vi.fn();
    const off = bridge.on('clients.changed', clients);
    bridge.on('memory.changed', other);
    emit('clients.changed', { connected: 2 });
    emit('unknown.event', { connected: 3 });
    emit(7, {});
    expect(clients).toHaveBeenCalledWith({ connected: 2 });
    expect(other).not.toHaveBeenCalled();
    off();
    emit('clients.changed', { connected: 4 });
    expect(clients).toHaveBeenCalledTimes(1);
    expect(() => bridge.on('no.such' as never, vi.fn())).toThrow(/no event/);
    expect(() => bridge.on('clients.changed', 'x' as never)).toThrow(/function/);
    expect(IPC_EVENT).toBe('loci:event');
  });
});

describe('drops in the preload', () => {
  function setUp(pathOf: (f: { name: string }) => string, store: string | null = null) {
    let listener: ((e: DropEventLike) => void) | null = null;
    let capture = false;
    const target = {
      addEventListener: (_t: 'drop', l: (e: DropEventLike) => void, c: boolean) => {
        listener = l;
        capture = c;
      },
    };
    const ipc = { send: vi.fn() };
    listenForDrops(
      target,
      ipc,
      (f) => pathOf(f as { name: string }),
      () => store,
    );
    const drop = (names: string[], prevented = false) => {
      const event = {
        dataTransfer: { files: names.map((name) => ({ name })) },
        defaultPrevented: prevented,
        preventDefault: vi.fn(),
      };
      listener?.(event);
      return event;
    };
    return { drop, ipc, capture: () => capture };
  }

  it('sends the real paths of dropped files to main and marks the drop handled', () => {
    const { drop, ipc, capture } = setUp((f) => `/home/me/${f.name}`);
    expect(capture()).toBe(true);
    const event = drop(['notes', 'a.md']);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(ipc.send).toHaveBeenCalledWith(IPC_DROP, ['/home/me/notes', '/home/me/a.md'], null);
  });

  it('sends the store the window shows along with the paths', () => {
    const { drop, ipc } = setUp((f) => `/home/me/${f.name}`, 'work');
    drop(['notes']);
    expect(ipc.send).toHaveBeenCalledWith(IPC_DROP, ['/home/me/notes'], 'work');
  });

  it('leaves to the page a drop with a file that is not on disk, or nothing at all', () => {
    const { drop, ipc } = setUp((f) => {
      if (f.name === 'throws') throw new Error('not a File');
      return f.name === 'from-web.png' ? '' : `/home/me/${f.name}`;
    });
    expect(drop(['a.md', 'from-web.png']).preventDefault).not.toHaveBeenCalled();
    expect(drop(['throws']).preventDefault).not.toHaveBeenCalled();
    expect(drop([]).preventDefault).not.toHaveBeenCalled();
    expect(drop(['a.md'], true).preventDefault).not.toHaveBeenCalled();
    expect(ipc.send).not.toHaveBeenCalled();
  });
});
