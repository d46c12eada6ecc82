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
   * the scans are answered first, the drafts follow on `port` in chunks, and `signal`
   * (one Int32) counts the chunks sent and is notified at each, so that a writer can wait
   * for them without its event loop.
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

/**
 * Drafts handed over apart from the scans go in chunks of this many: the writer takes
 * the first while the later ones are made (a batch of 1,000 shares hundreds).
 */
export const HANDOFF_CHUNK = 32;

/**
 * Drafts the share chunk by chunk, sending each as it is made and counting it in the
 * flag a writer waits on; a draft that fails sends null (the writer drafts the rest).
 */
function handOver(handoff: NonNullable<ScanRequest['handoff']>, inputs: TextDraftInput[] = []) {
  const flag = new Int32Array(handoff.signal);
  const send = (chunk: TextDraft[] | null) => {
    handoff.port.postMessage(chunk);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  try {
    for (let i = 0; i < inputs.length; i += HANDOFF_CHUNK) {
      send(inputs.slice(i, i + HANDOFF_CHUNK).map(draftText));
    }
    if (inputs.length === 0) send(null);
  } catch {
    send(null);
  }
  handoff.port.close();
}

const port = parentPort;
if (port) {
  port.on('message', (req: ScanRequest) => {
    scanTexts(req.texts).then(
      (scans) => {
        if (req.handoff) {
          port.postMessage({ op: 'done', id: req.id, scans } satisfies ScanResponse);
          handOver(req.handoff, req.drafts);
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
        if (req.handoff) handOver(req.handoff);
      },
    );
  });
  port.postMessage({ op: 'ready' } satisfies ScanResponse);
}
