// The credential-scan worker thread: scans the texts it is sent and answers with rule
// ids only. It holds no state between requests; the host (scanHost.ts) terminates it
// when a request goes past its time budget.
import { parentPort } from 'node:worker_threads';
import { scanTexts, type SecretScan } from './secrets';

export interface ScanRequest {
  id: number;
  texts: string[];
}

export type ScanResponse =
  | { op: 'ready' }
  | { op: 'done'; id: number; scans: SecretScan[] }
  | { op: 'failed'; id: number; reason: string };

const port = parentPort;
if (port) {
  port.on('message', (req: ScanRequest) => {
    scanTexts(req.texts).then(
      (scans) => port.postMessage({ op: 'done', id: req.id, scans } satisfies ScanResponse),
      (err: unknown) =>
        port.postMessage({
          op: 'failed',
          id: req.id,
          reason: (err as Error)?.message ?? String(err),
        } satisfies ScanResponse),
    );
  });
  port.postMessage({ op: 'ready' } satisfies ScanResponse);
}
