// The parser worker thread: parses one file at a time and answers with its chunks.
// It holds no database and no state between files; the host terminates it when a file
// goes past its time budget, and V8 stops it past its heap budget (resourceLimits).
import { parentPort } from 'node:worker_threads';
import { parseFile } from './parse';
import type { ParseRequest, ParseResponse } from './types';
import { ParseRefusal } from './types';

const port = parentPort;
if (port) {
  port.on('message', (req: ParseRequest) => {
    const { id, ...job } = req;
    parseFile(job).then(
      ({ info, chunks }) =>
        port.postMessage({ id, ok: true, info, chunks } satisfies ParseResponse),
      (err: unknown) => {
        const reason =
          err instanceof ParseRefusal
            ? err.message
            : err instanceof RangeError
              ? `the parser ran out of room (${err.message})`
              : `the parser failed: ${(err as Error)?.message ?? String(err)}`;
        port.postMessage({ id, ok: false, reason } satisfies ParseResponse);
      },
    );
  });
}
