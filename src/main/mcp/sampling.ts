// Distillation by the client's own model (MCP sampling): the engine hands out a journal
// window as text (journal.window), the client's model answers, and the answer goes back
// to the engine (journal.propose with `reply`), which reads it and gates every candidate
// as it gates an agent's. Nothing here judges a candidate; this only carries the text.
import type {
  DistillCounts,
  JournalWindowResult,
  LociClient,
  ModelDistillReport,
} from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { ToolSession } from './toolKit';

export async function sampleJournal(
  client: LociClient,
  sample: NonNullable<ToolSession['sample']>,
  journalId: string,
  store: string | undefined,
  maxWindows?: number,
  /** The call's progress (turns handed over, of the journal's) and its cancel, between windows. */
  watch: Pick<ToolSession, 'progress' | 'signal'> = {},
): Promise<ModelDistillReport> {
  const counts: DistillCounts = { written: 0, proposed: 0, duplicate: 0, rejected: 0 };
  const problems: string[] = [];
  let model = 'unknown';
  let offset: number | null = 0;
  let windows = 0;
  let covered = 0;
  const at = store ? { store } : {};
  for (;;) {
    const w: JournalWindowResult = await client.call('journal.window', {
      ...at,
      id: journalId,
      offset: offset ?? 0,
      audience: 'model',
    });
    if (w.total === 0) break; // a journal with no turns: nothing to ask about
    if (watch.signal?.aborted) {
      throw new LociError(
        'cancelled',
        'The distillation was cancelled; what was proposed before is kept.',
      );
    }
    watch.progress?.({ done: covered, total: w.total, message: `turns ${w.offset}–${w.last}` });
    const most = maxWindows ?? w.max_windows;
    if (windows >= most) {
      problems.push(
        `turns from ${w.offset} on were not handed to the model (at most ${most} windows)`,
      );
      break;
    }
    let answer: { text: string; model: string };
    try {
      answer = await sample({ system: w.system, prompt: w.prompt, maxTokens: w.max_tokens });
    } catch (err) {
      problems.push(
        `turns ${w.offset}–${w.last}: the client's model did not answer (${(err as Error).message})`,
      );
      break;
    }
    model = answer.model;
    windows++;
    if (answer.text.trim() === '') {
      problems.push(`turns ${w.offset}–${w.last}: the client's model answered nothing`);
      covered += w.last - w.offset + 1;
      offset = w.next_offset;
      if (offset === null) break;
      continue;
    }
    covered += w.last - w.offset + 1;
    const r = await client.call('journal.propose', {
      ...at,
      journal_id: journalId,
      reply: answer.text,
      source: 'sampling',
      model: answer.model,
    });
    for (const x of r.results) counts[x.status]++;
    problems.push(...r.problems.map((p) => `turns ${w.offset}–${w.last}: ${p}`));
    offset = w.next_offset;
    if (offset === null) break;
  }
  return { model, windows, turns_covered: covered, counts, problems };
}
