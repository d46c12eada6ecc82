import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useConnectionStore } from '../stores/connectionStore';
import { useDropStore } from '../stores/dropStore';
import { createFakeClient } from '../testing/fakeClient';
import { statsFixture, storeListFixture } from '../testing/fixtures';
import { useImportStore } from '../views/ingest/importStore';
import { dirEntry, dropData, fileEntry, report } from '../views/ingest/ingestFixtures';
import { App } from './App';

function dragEvent(type: string, data: DataTransfer): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: data });
  return event;
}

beforeEach(() => {
  useImportStore.getState().reset();
  useDropStore.setState({ offer: null });
});

describe('dropping files anywhere on the window', () => {
  it('opens the Ingest view and imports what was dropped, without the browser opening it', async () => {
    useConnectionStore.getState().setToken('a-token-for-the-window-drop-test');
    const client = createFakeClient({
      'store.list': () => storeListFixture(['default']),
      'stats.get': () => statsFixture(),
      'ingest.list': () => ({ store: 'default', batches: [] }),
      'ingest.upload': (a) => ({ upload: a.upload, path: a.path, bytes: 1, files: 1 }),
      'ingest.files': (a) => report(a.batch ?? '', []),
    });
    render(<App client={client} />);
    await screen.findByRole('heading', { name: 'Overview', level: 1 });

    const data = dropData([dirEntry('docs', [fileEntry(new File(['# Hi'], 'hi.md'))])]);
    const over = dragEvent('dragover', data);
    act(() => void window.dispatchEvent(dragEvent('dragenter', data)));
    expect(document.querySelector('.drop-overlay')?.textContent).toBe(
      'Drop files or folders to import them',
    );
    window.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    const drop = dragEvent('drop', data);
    act(() => void document.getElementById('main')?.dispatchEvent(drop));
    expect(drop.defaultPrevented).toBe(true);
    expect(document.querySelector('.drop-overlay')).toBeNull();

    await waitFor(() => expect(window.location.hash).toBe('#/ingest'));
    expect(await screen.findByRole('heading', { name: 'Ingest', level: 1 })).toBeTruthy();
    await waitFor(() => expect(client.callsOf('ingest.files')).toHaveLength(1));
    expect(client.callsOf('ingest.upload')).toEqual([
      expect.objectContaining({ path: 'docs/hi.md', content_base64: btoa('# Hi') }),
    ]);
  });

  it('in the desktop app, a drop its preload already imported by path is not uploaded again', async () => {
    useConnectionStore.getState().setToken('a-token-for-the-window-drop-test');
    const client = createFakeClient({
      'store.list': () => storeListFixture(['default']),
      'stats.get': () => statsFixture(),
      'ingest.list': () => ({ store: 'default', batches: [] }),
    });
    render(<App client={client} />);
    await screen.findByRole('heading', { name: 'Overview', level: 1 });
    const data = dropData([fileEntry(new File(['# Hi'], 'hi.md'))]);
    act(() => void window.dispatchEvent(dragEvent('dragenter', data)));
    expect(document.querySelector('.drop-overlay')).not.toBeNull();
    // The preload's listener runs before any of the page's and marks the drop handled.
    const drop = dragEvent('drop', data);
    drop.preventDefault();
    act(() => void document.getElementById('main')?.dispatchEvent(drop));
    expect(document.querySelector('.drop-overlay')).toBeNull();
    await waitFor(() => expect(window.location.hash).toBe('#/ingest'));
    expect(await screen.findByRole('heading', { name: 'Ingest', level: 1 })).toBeTruthy();
    expect(useDropStore.getState().offer).toBeNull();
    expect(client.callsOf('ingest.upload')).toEqual([]);
    expect(client.callsOf('ingest.files')).toEqual([]);
  });

  it('leaves drags of text alone', async () => {
    useConnectionStore.getState().setToken('a-token-for-the-window-drop-test');
    render(
      <App
        client={createFakeClient({
          'store.list': () => storeListFixture(['default']),
          'stats.get': () => statsFixture(),
        })}
      />,
    );
    await screen.findByRole('heading', { name: 'Overview', level: 1 });
    const text = { types: ['text/plain'], items: [], files: [] } as unknown as DataTransfer;
    const drop = dragEvent('drop', text);
    window.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(false);
    expect(useDropStore.getState().offer).toBeNull();
    expect(window.location.hash).toBe('#/overview');
  });

  it('never lets a dropped file replace the page, even on the connect screen', async () => {
    render(<App client={createFakeClient({})} />);
    await screen.findByRole('heading', { name: 'Connect to Loci' });
    const data = dropData([fileEntry(new File(['x'], 'x.md'))]);
    const drop = dragEvent('drop', data);
    window.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(useDropStore.getState().offer).toBeNull();
  });
});
