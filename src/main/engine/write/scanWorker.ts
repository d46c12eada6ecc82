// The credential-scan worker thread: scans the texts it is sent and answers with rule
// ids only. It holds no state between requests; the host (scanHost.ts) terminates it
// when a request goes past its time budget. A write's request may also carry a share of
// its batch to draft (memory/draftText.ts) once the scan is done, so that this thread
// and the writer's draft the batch together.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { draftText, type TextDraft, type TextDraftInput } from '../memory/draftText';
import { scanTexts, type SecretScan } from './secrets';

export interface ScanRequest {
  id: number;
  texts: string[];
  drafts?: TextDraftInput[];
  /**
   * Where the drafts go when they travel apart from the scans (scanHost.ts DraftHandoff):
   * the scans are answered first, the drafts follow on `port`, and `signal` (one Int32)
   * is set to 1 and notified, so that a writer can wait for them without its event loop.
   */
  handoff?: { port: MessagePort; signal: SharedArrayBuffer };
}

export type ScanResponse =
  | { op: 'ready' }
  | { op: 'done'; id: number; scans: SecretScan[]; drafts?: TextDraft[] }
  | { op: 'failed'; id: number; reason: string };

/** The drafts asked for, or none when one fails (the writer then drafts them itself). */
function draftAll(inputs: TextDraftInput[] | undefined): TextDraft[] | undefined {
  if (!inputs || inputs.length === 0) return undefined;
  try {
    return inputs.map(draftText);
  } catch {
    return undefined;
  }
}

/** Sends the drafts (null: the writer drafts them itself) and wakes a writer waiting for them. */
function handOver(handoff: NonNullable<ScanRequest['handoff']>, drafts: TextDraft[] | undefined) {
  handoff.port.postMessage(drafts ?? null);
  handoff.port.close();
  const flag = new Int32Array(handoff.signal);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

const port = parentPort;
if (port) {
  port.on('message', (req: ScanRequest) => {
    scanTexts(req.texts).then(
      (scans) => {
        if (req.handoff) {
          port.postMessage({ op: 'done', id: req.id, scans } satisfies ScanResponse);
          handOver(req.handoff, draftAll(req.drafts));
          return;
        }
        const drafts = draftAll(req.drafts);
        port.postMessage({
          op: 'done',
          id: req.id,
          scans,
          ...(drafts ? { drafts } : {}),
        } satisfies ScanResponse);
      },
      (err: unknown) => {
        port.postMessage({
          op: 'failed',
          id: req.id,
          reason: (err as Error)?.message ?? String(err),
        } satisfies ScanResponse);
        if (req.handoff) handOver(req.handoff, undefined);
      },
    );
  });
  port.postMessage({ op: 'ready' } satisfies ScanResponse);
}
