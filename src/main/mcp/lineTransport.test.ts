import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { BoundedStdioTransport, idOfOversized, isJsonRpcMessage } from './lineTransport';

function harness(maxBytes: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: unknown[] = [];
  stdout.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line) out.push(JSON.parse(line));
  });
  const t = new BoundedStdioTransport(stdin, stdout, maxBytes);
  const received: unknown[] = [];
  t.onmessage = (m) => received.push(m);
  return { stdin, out, received, t };
}

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('BoundedStdioTransport', () => {
  it('finds the id of an oversized message at its start or its end (as the SDK writes it)', () => {
    expect(idOfOversized('{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"', '')).toBe(7);
    expect(
      idOfOversized(
        '{"method":"tools/call","params":{"id":1,',
        'xx"}},"jsonrpc":"2.0","id":"r-9"}',
      ),
    ).toBe('r-9');
    expect(idOfOversized('{"method":"x","params":{"content":"', 'aaaa"}}')).toBeNull();
  });

  it('answers an oversized message, a line that is not JSON and one that is not JSON-RPC, and goes on', async () => {
    const h = harness(1024);
    await h.t.start();
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { x: 'y'.repeat(5000) },
    });
    h.stdin.write(big.slice(0, 2000));
    h.stdin.write(`${big.slice(2000)}\nnot json\n{"hello":1,"id":4}\n`);
    h.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' })}\n`);
    await tick();
    expect(h.out).toEqual([
      {
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32600, message: expect.stringMatching(/limit for one message is 1 KB/) },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/Parse error/) },
      },
      {
        jsonrpc: '2.0',
        id: 4,
        error: { code: -32600, message: expect.stringMatching(/not a JSON-RPC/) },
      },
    ]);
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
    await h.t.close();
  });
});

describe('the JSON-RPC envelope check', () => {
  it('takes and refuses what the MCP SDK schema takes and refuses, on the envelope', () => {
    const samples: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', arguments: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: { content: [] } },
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'bad', data: { x: 1 } } },
      { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } },
      // Refused:
      null,
      [],
      'text',
      { jsonrpc: '1.0', id: 1, method: 'x' },
      { id: 1, method: 'x' },
      { jsonrpc: '2.0', id: 1.5, method: 'x' },
      { jsonrpc: '2.0', id: null, method: 'x' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: 1, method: 'x', params: [1, 2] },
      { jsonrpc: '2.0', id: 1, method: 'x', extra: true },
      { jsonrpc: '2.0', id: 1, result: [] },
      { jsonrpc: '2.0', result: {} },
      { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
      { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'm' } },
      { jsonrpc: '2.0', id: 1, error: { code: 1 } },
      { jsonrpc: '2.0', id: 1 },
    ];
    for (const v of samples) {
      expect(isJsonRpcMessage(v), JSON.stringify(v)).toBe(
        JSONRPCMessageSchema.safeParse(v).success,
      );
    }
  });
});
