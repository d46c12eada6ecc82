// Thought mode's script: a recall's trace as steps to replay on the map — the seeds (the
// best candidates of the words and the meaning, fused), then each hop of spreading
// activation over the links, then the final ranking. Each step lists the memories it adds;
// the map shows every memory reached so far.
import type { RecallResult } from '../../../../shared/api';
import { plural } from '../overview/chartFormat';

export interface ThoughtStep {
  kind: 'seeds' | 'hop' | 'final';
  /** "Seeds", "Hop 1", "Answer". */
  title: string;
  /** One line on what happened in it. */
  text: string;
  /** The memories this step adds (best first). */
  ids: string[];
  /** The memories shown at this step: everything reached up to it (for the final step, the answer). */
  shown: string[];
}

export function thoughtSteps(result: RecallResult): ThoughtStep[] {
  const stages = result.trace?.stages ?? [];
  const fusion = stages.find((s) => s.name === 'fusion');
  const spreading = stages.find((s) => s.name === 'spreading');
  const seedCount =
    typeof spreading?.detail.seeds === 'number'
      ? spreading.detail.seeds
      : (fusion?.items.length ?? 0);
  const seeds = (fusion?.items ?? []).slice(0, seedCount).map((i) => i.id);
  const steps: ThoughtStep[] = [];
  const shown: string[] = [];
  if (seeds.length) {
    shown.push(...seeds);
    steps.push({
      kind: 'seeds',
      title: 'Seeds',
      text: `${plural(seeds.length, 'memory', 'memories')} matched the words or the meaning of “${result.trace?.query ?? ''}” best: activation starts there.`,
      ids: seeds,
      shown: [...shown],
    });
  }
  const hops = new Map<number, string[]>();
  for (const item of spreading?.items ?? []) {
    const hop = Number(/^hop (\d+)$/.exec(item.note ?? '')?.[1] ?? 1);
    if (seeds.includes(item.id)) continue;
    const list = hops.get(hop);
    if (list) list.push(item.id);
    else hops.set(hop, [item.id]);
  }
  for (const hop of [...hops.keys()].sort((a, b) => a - b)) {
    const ids = hops.get(hop) as string[];
    shown.push(...ids);
    steps.push({
      kind: 'hop',
      title: `Hop ${hop}`,
      text: `Activation spread over the links to ${plural(ids.length, 'more memory', 'more memories')}${hop > 1 ? `, ${hop} links from a seed` : ''}.`,
      ids,
      shown: [...shown],
    });
  }
  const answer = result.results.map((r) => r.id);
  steps.push({
    kind: 'final',
    title: 'Answer',
    text: result.abstained
      ? 'Nothing was relevant enough: recall abstained.'
      : `The ranking kept ${plural(answer.length, 'memory', 'memories')}, best first${
          answer.some((id) => !seeds.includes(id))
            ? ', some of them reached only through links'
            : ''
        }.`,
    ids: answer,
    shown: answer,
  });
  return steps;
}
