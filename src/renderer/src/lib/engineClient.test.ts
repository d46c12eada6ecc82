import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJsonFetch, eventBlock, waitFor } from '../testing/clientHelpers';
import { createFakeFetch, jsonResponse, textResponse } from '../testing/fakeFetch';
import {
  createBridgeClient,
  createHttpClient,
  EngineCallError,
  type StreamState,
} from './engineClient';

const fast = { backoff: { baseMs: 5, maxMs: 20 }, random: () => 0 };

describe('HTTP calls', () => {
  it('posts the arguments with the bearer token and returns the result', async () => {
    const fake = createJsonFetch({ result: { id: 'A', duplicate: false, quarantined: false } });
    const client = createHttpClient({
      baseUrl: 'http://loci.test',
      getToken: () => 'tok',
      fetch: fake.fetch,
    });
    const r = await client.call('memory.remember', { content: 'The deploy script lives in ops/' });
    expect(r).toEqual({ id: 'A', duplicate: false, quarantined: false });
    const [req] = fake.requests;
    expect(req?.url).toBe('http://loci.test/api/memory.remember');
    expect(req?.init.method).toBe('POST');
    expect(req?.headers).toMatchObject({
      authorization: 'Bearer tok',
      'content-type': 'application/json',
    });
    expect(req?.body).toEqual({ content: 'The deploy script lives in ops/' });
  });

  it('sends no Authorization header without a token', async () => {
    const fake = createJsonFetch({ result: { stores: [], data_dir: '/' } });
    const client = createHttpClient({ getToken: () => null, fetch: fake.fetch });
    await client.call('store.list', {});
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(fake.requests[0]?.url).toBe('/api/store.list');
  });

  it('turns the contract error into an EngineCallError with code, message and status', async () => {
    const fake = createFakeFetch(() =>
      jsonResponse(404, {
        error: { code: 'not-found', message: 'No memory 01J…', data: { id: 'x' } },
      }),
    );
    const client = createHttpClient({ getToken: () => 't', fetch: fake.fetch });
    const err = await client
      .call('memory.get', { id: '01JAAAAAAAAAAAAAAAAAAAAAAA' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineCallError);
    expect(err).toMatchObject({
      code: 'not-found',
      message: 'No memory 01J…',
      status: 404,
      data: { id: 'x' },
    });
    expect((err as EngineCallError).unauthorized).toBe(false);
  });

  it('marks 401 as unauthorized and moves the client to the unauthorized state', async () => {
    const fake = createFakeFetch(() =>
      jsonResponse(401, {
        error: { code: 'forbidden', message: 'Missing or wrong bearer token.' },
      }),
    );
    const client = createHttpClient({ getToken: () => 'old', fetch: fake.fetch });
    const states: StreamState[] = [];
    client.onState((s) => states.push(s));
    const err = (await client.call('store.list', {}).catch((e: unknown) => e)) as EngineCallError;
    expect(err.unauthorized).toBe(true);
    expect(err.code).toBe('forbidden');
    expect(states).toEqual(['unauthorized']);
  });

  it('maps an answer that is not the contract to `unavailable` with the status', async () => {
    const fake = createFakeFetch(() => textResponse(502, '<html>Bad gateway</html>'));
    const client = createHttpClient({ getToken: () => 't', fetch: fake.fetch });
    await expect(client.call('store.list', {})).rejects.toMatchObject({
      code: 'unavailable',
      status: 502,
      message: 'The Loci daemon answered HTTP 502.',
    });
  });

  it('maps a network failure to an offline `unavailable` error', async () => {
    const client = createHttpClient({
      getToken: () => 't',
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const err = (await client.call('store.list', {}).catch((e: unknown) => e)) as EngineCallError;
    expect(err).toMatchObject({ code: 'unavailable', offline: true, status: null });
    expect(err.message).toMatch(/loci serve/);
  });

  it('passes an abort through as the AbortError', async () => {
    const fake = createJsonFetch({ result: {} });
    const client = createHttpClient({ getToken: () => 't', fetch: fake.fetch });
    const controller = new AbortController();
    controller.abort();
    await expect(
      client.call('store.list', {}, { signal: controller.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('the event stream', () => {
  let close: (() => void) | null = null;
  afterEach(() => close?.());

  it('delivers typed events to their handlers, across chunk boundaries and split characters', async () => {
    const fake = createFakeFetch();
    const client = createHttpClient({ getToken: () => 'tok', fetch: fake.fetch, ...fast });
    close = () => client.close();
    const seen: unknown[] = [];
    client.on('memory.changed', (p) => seen.push(p));
    client.connect();
    await waitFor(() => client.state === 'open');
    expect(fake.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer tok',
      accept: 'text/event-stream',
    });
    const stream = fake.streams[0]!;
    const block = eventBlock('memory.changed', {
      store: 'default',
      ids: ['A'],
      change: 'created',
      actor: 'ui:é',
    });
    const bytes = new TextEncoder().encode(`: connected\n\n${block}`);
    // Cut inside the two-byte "é" and inside the "\n\n" that ends the block.
    const cut = bytes.indexOf(0xc3) + 1;
    stream.push(bytes.slice(0, cut));
    stream.push(bytes.slice(cut, bytes.length - 1));
    expect(seen).toEqual([]);
    stream.push(bytes.slice(bytes.length - 1));
    await waitFor(() => seen.length === 1);
    expect(seen[0]).toEqual({ store: 'default', ids: ['A'], change: 'created', actor: 'ui:é' });
  });

  it('ignores unknown events and bad JSON, and survives a throwing handler', async () => {
    const fake = createFakeFetch();
    const client = createHttpClient({ getToken: () => 't', fetch: fake.fetch, ...fast });
    close = () => client.close();
    const seen: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    client.on('store.created', () => {
      throw new Error('boom');
    });
    client.on('store.created', (p) => seen.push(p.store));
    client.connect();
    await waitFor(() => client.state === 'open');
    fake.streams[0]!.push('event: not.an.event\ndata: {}\n\nevent: store.created\ndata: {oops\n\n');
    fake.streams[0]!.push(eventBlock('store.created', { store: 'work' }));
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual(['work']);
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('reconnects with backoff when the stream ends or fails, with the current token', async () => {
    const fake = createFakeFetch();
    let token = 'one';
    const client = createHttpClient({ getToken: () => token, fetch: fake.fetch, ...fast });
    close = () => client.close();
    const states: StreamState[] = [];
    client.onState((s) => states.push(s));
    const seen: string[] = [];
    client.on('store.created', (p) => seen.push(p.store));
    client.connect();
    await waitFor(() => client.state === 'open');
    token = 'two';
    fake.streams[0]!.end();
    await waitFor(() => fake.streams.length === 2 && client.state === 'open');
    expect(fake.requests[1]?.headers.authorization).toBe('Bearer two');
    fake.streams[1]!.fail();
    await waitFor(() => fake.streams.length === 3 && client.state === 'open');
    fake.streams[2]!.push(eventBlock('store.created', { store: 'after' }));
    await waitFor(() => seen.length === 1);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting', 'open']);
  });

  it('stops for good on 401 (until connect() is called again)', async () => {
    const fake = createFakeFetch(undefined, (n) => (n === 0 ? 401 : 200));
    const client = createHttpClient({ getToken: () => 't', fetch: fake.fetch, ...fast });
    close = () => client.close();
    client.connect();
    await waitFor(() => client.state === 'unauthorized');
    await new Promise((r) => setTimeout(r, 40));
    expect(fake.streams).toHaveLength(1);
    client.connect();
    await waitFor(() => client.state === 'open');
    expect(fake.streams).toHaveLength(2);
  });

  it('treats a silent connection as dead and reconnects', async () => {
    const fake = createFakeFetch();
    const client = createHttpClient({
      getToken: () => 't',
      fetch: fake.fetch,
      idleTimeoutMs: 30,
      ...fast,
    });
    close = () => client.close();
    client.connect();
    await waitFor(() => fake.streams.length >= 2, 1000);
    expect(fake.streams[0]!.cancelled).toBe(true);
  });

  it('close() aborts the stream and does not reconnect', async () => {
    const fake = createFakeFetch();
    const client = createHttpClient({ getToken: () => 't', fetch: fake.fetch, ...fast });
    client.connect();
    await waitFor(() => client.state === 'open');
    client.close();
    expect(client.state).toBe('idle');
    expect(fake.streams[0]!.cancelled).toBe(true);
    await new Promise((r) => setTimeout(r, 40));
    expect(fake.streams).toHaveLength(1);
  });
});

describe('the preload bridge', () => {
  it('relays calls and events, and turns rejected error data into EngineCallError', async () => {
    const listeners: ((p: unknown) => void)[] = [];
    const client = createBridgeClient({
      call: (async (method: string) => {
        if (method === 'store.list') return { stores: [], data_dir: '/d' };
        throw { code: 'store-not-found', message: 'No store "x".' };
      }) as never,
      on: ((_event: string, cb: (p: unknown) => void) => {
        listeners.push(cb);
        return () => undefined;
      }) as never,
    });
    expect(client.transport).toBe('bridge');
    await expect(client.call('store.list', {})).resolves.toEqual({ stores: [], data_dir: '/d' });
    await expect(client.call('stats.get', { store: 'x' })).rejects.toMatchObject({
      code: 'store-not-found',
      message: 'No store "x".',
    });
    const seen: unknown[] = [];
    client.on('store.created', (p) => seen.push(p));
    listeners[0]?.({ store: 'x' });
    expect(seen).toEqual([{ store: 'x' }]);
    client.connect();
    expect(client.state).toBe('open');
  });
});
