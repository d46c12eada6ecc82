import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sseParser';

function parse(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((m) => out.push(m));
  for (const c of chunks) parser.push(c);
  return out;
}

const stream =
  'event: memory.changed\ndata: {"ids":["a"]}\n\n: keep-alive\n\nevent: store.created\ndata: {"store":"x"}\n\n';

describe('createSseParser', () => {
  it('parses events and skips comments', () => {
    expect(parse([stream])).toEqual([
      { event: 'memory.changed', data: '{"ids":["a"]}', id: null },
      { event: 'store.created', data: '{"store":"x"}', id: null },
    ]);
  });

  it('gives the same messages however the stream is cut into chunks', () => {
    const whole = parse([stream]);
    for (let cut = 1; cut < stream.length; cut++) {
      expect(parse([stream.slice(0, cut), stream.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
    expect(parse([...stream])).toEqual(whole);
  });

  it('accepts \\r\\n and \\r line ends, also when \\r\\n is split across chunks', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    const whole = parse([stream]);
    expect(parse([crlf])).toEqual(whole);
    expect(parse([stream.replace(/\n/g, '\r')])).toEqual(whole);
    for (let cut = 1; cut < crlf.length; cut++) {
      expect(parse([crlf.slice(0, cut), crlf.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('joins multi-line data, defaults the event name, keeps the last id', () => {
    expect(parse(['id: 7\ndata: one\ndata:two\n\ndata: three\n\n'])).toEqual([
      { event: 'message', data: 'one\ntwo', id: '7' },
      { event: 'message', data: 'three', id: '7' },
    ]);
  });

  it('does not dispatch a block without data, nor an unterminated one', () => {
    expect(parse(['event: x\n\nevent: y\ndata: 1\n'])).toEqual([]);
  });

  it('forgets a partial message on reset', () => {
    const out: SseMessage[] = [];
    const parser = createSseParser((m) => out.push(m));
    parser.push('event: a\ndata: half');
    parser.reset();
    parser.push('event: b\ndata: whole\n\n');
    expect(out).toEqual([{ event: 'b', data: 'whole', id: null }]);
  });
});
