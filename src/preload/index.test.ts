// The preload script itself, with Electron mocked at the boundary: it exposes exactly
// `window.loci = { call, on }` and listens for drops on the page's window.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const listeners: { type: string; capture: boolean }[] = [];

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => {
      exposed[key] = value;
    },
  },
  ipcRenderer: { invoke: vi.fn(), send: vi.fn(), on: vi.fn() },
  webUtils: { getPathForFile: vi.fn(() => '/dropped') },
}));

beforeEach(() => {
  (globalThis as Record<string, unknown>).addEventListener = (
    type: string,
    _l: unknown,
    capture: boolean,
  ) => listeners.push({ type, capture });
});

describe('preload', () => {
  it('exposes window.loci with call and on, and nothing else', async () => {
    await import('./index');
    expect(Object.keys(exposed)).toEqual(['loci']);
    const bridge = exposed.loci as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['call', 'on']);
    expect(typeof bridge.call).toBe('function');
    expect(typeof bridge.on).toBe('function');
    expect(listeners).toEqual([{ type: 'drop', capture: true }]);
  });
});
