import { describe, expect, it } from 'vitest';
import { ClientRegistry } from './clients';

describe('ClientRegistry', () => {
  it('says when the list changes: a session opens or closes, or its client says its name', () => {
    const changes: number[] = [];
    const clients = new ClientRegistry((n) => changes.push(n));
    clients.connect({ id: 's1', client: 'unknown', transport: 'http' });
    clients.touch('s1', { call: true });
    expect(changes).toEqual([1]);
    clients.touch('s1', { client: 'cursor' });
    clients.touch('s1', { client: 'cursor', call: true });
    expect(changes).toEqual([1, 1]);
    clients.connect({ id: 's2', client: 'zed', transport: 'stdio' });
    clients.disconnect('s1');
    clients.disconnect('s1');
    expect(changes).toEqual([1, 1, 2, 1]);
    expect(clients.list()).toEqual([expect.objectContaining({ id: 's2', calls: 0 })]);
  });
});
