// Distillation by a language model: the configured endpoint (`llm`) is handed a journal
// window by window (prompt.ts) and its answers go through the same gate as every other
// candidate (distill.ts keepProposed). A model that is down or answers nonsense is a
// problem reported, never a failed import.
import type {
  Actor,
  DistillCounts,
  JournalWindowResult,
  ModelDistillReport,
  ParsedArgs,
} from '../../../shared/api';
import type { Config } from '../config';
import type { EngineEvents } from '../events';
import type { LlmClient } from '../llm';
import { actorName } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { keepProposed, type ProposeHost } from './distill';
import { getJournal, type JournalRow } from './journals';
import { readReply, windowText } from './prompt';

export function journalWindow(
  store: OpenStore,
  args: ParsedArgs<'journal.window'>,
  cfg: Config['distill'],
  actor: Actor,
): JournalWindowResult {
  const limit = args.limit ?? cfg.window_turns;
  const view = getJournal(store, { id: args.id, offset: args.offset, limit, reveal: false }, actor);
  const { system, prompt } = windowText(view, args.offset, args.audience);
  const last = view.turns.at(-1)?.seq ?? args.offset;
  const next = args.offset + view.turns.length;
  return {
    store: store.name,
    journal_id: view.journal.id,
    offset: args.offset,
    last,
    total: view.total,
    next_offset: next < view.total ? next : null,
    system,
    prompt,
    max_tokens: cfg.max_tokens,
    max_windows: cfg.max_windows,
  };
}

export interface ModelDistillHost extends ProposeHost {
  readonly events: EngineEvents;
  distillConfig(): Config['distill'];
}

export async function distillWithModel(
  host: ModelDistillHost,
  store: OpenStore,
  row: JournalRow,
  llm: LlmClient,
  actor: Actor,
  maxWindows?: number,
): Promise<ModelDistillReport> {
  const cfg = host.distillConfig();
  const counts: DistillCounts = { written: 0, proposed: 0, duplicate: 0, rejected: 0 };
  const problems: string[] = [];
  const most = maxWindows ?? cfg.max_windows;
  let offset: number | null = 0;
  let windows = 0;
  let covered = 0;
  let planned = most;
  const progress = (done: boolean) =>
    host.events.emit('journal.distill.progressed', {
      store: store.name,
      journal_id: row.id,
      model: llm.model,
      windows,
      total: planned,
      done,
    });
  while (offset !== null && windows < most) {
    const w = journalWindow(
      store,
      { id: row.id, offset, audience: 'model', store: store.name },
      cfg,
      actor,
    );
    if (w.total === 0) break; // a journal with no turns: nothing to ask about
    planned = Math.min(most, Math.ceil(w.total / cfg.window_turns));
    progress(false);
    let reply: string;
    try {
      reply = await llm.complete(w.system, w.prompt, { maxTokens: w.max_tokens });
    } catch (err) {
      problems.push(
        `turns ${w.offset}–${w.last}: the language model failed (${(err as Error).message})`,
      );
      break;
    }
    windows++;
    covered += w.last - w.offset + 1;
    const read = readReply(reply);
    problems.push(...read.problems.map((p) => `turns ${w.offset}–${w.last}: ${p}`));
    const kept = await keepProposed(host, store, row, read.candidates, 'llm', actor);
    for (const k of kept) counts[k.status]++;
    offset = w.next_offset;
  }
  if (offset !== null && windows >= most) {
    problems.push(
      `turns from ${offset} on were not handed to the model (distill.max_windows is ${most})`,
    );
  }
  progress(true);
  store.audit.append(
    {
      actor: actorName(actor),
      action: 'journal.distilled',
      target: row.id,
      data: {
        model: llm.model,
        windows,
        turns: covered,
        distilled: counts,
        problems: problems.length,
      },
    },
    host.now(),
  );
  return { model: llm.model, windows, turns_covered: covered, counts, problems };
}
