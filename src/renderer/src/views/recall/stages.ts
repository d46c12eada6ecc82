// The recall pipeline's stages as the Recall lab names and explains them (after
// docs/heuristics.md, "Recall pipeline"), and the facts each stage's trace detail holds.
// Unknown detail keys are still shown, so a newer engine never hides what it reports.
import type { TraceStage } from '../../../../shared/api';

export type StageName = TraceStage['name'];

export interface StageInfo {
  name: StageName;
  label: string;
  /** What the stage does, in one sentence. */
  blurb: string;
  /** A gate decides (answer or fall through); it carries no ranked list of its own. */
  gate: boolean;
}

/** Every stage, in the order the pipeline runs them. */
export const STAGES: readonly StageInfo[] = [
  {
    name: 'recognise',
    label: 'Recognition',
    blurb:
      'Does the query name one memory? It answers alone only above 0.72 and 0.15 ahead of the next.',
    gate: true,
  },
  {
    name: 'lexical',
    label: 'Lexical',
    blurb: 'BM25 over title, content, tags and identifier parts, strictest tier of terms first.',
    gate: false,
  },
  {
    name: 'vector',
    label: 'Vector',
    blurb: 'Nearest neighbours by cosine similarity; those under the floor are noise and dropped.',
    gate: false,
  },
  {
    name: 'fusion',
    label: 'Fusion',
    blurb: 'Reciprocal rank fusion of the two branches: rank 1 in both gives 1.',
    gate: false,
  },
  {
    name: 'spreading',
    label: 'Spreading',
    blurb: 'Activation flows over links from the best ten; a memory reached only by links joins.',
    gate: false,
  },
  {
    name: 'ranking',
    label: 'Ranking',
    blurb: 'Relevance blended with activation, retrievability, salience and pins.',
    gate: false,
  },
  {
    name: 'abstention',
    label: 'Abstention',
    blurb:
      'Is there evidence — every term matched, or a similarity above the bar? If not, say nothing.',
    gate: true,
  },
  {
    name: 'diversity',
    label: 'Diversity',
    blurb: 'Maximal marginal relevance picks varied results from the best 2 × limit.',
    gate: false,
  },
  {
    name: 'budget',
    label: 'Budget',
    blurb: 'Results kept in rank order while they fit in max_tokens.',
    gate: false,
  },
];

export function stageInfo(name: string): StageInfo {
  return (
    STAGES.find((s) => s.name === name) ?? {
      name: name as StageName,
      label: name,
      blurb: '',
      gate: false,
    }
  );
}

const num = (v: unknown, digits = 2): string | null =>
  typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : null;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Short facts from a stage's trace detail, e.g. ["k = 60"] for fusion. */
export function stageFacts(stage: Pick<TraceStage, 'name' | 'detail'>): string[] {
  const d = stage.detail ?? {};
  const facts: string[] = [];
  const known = new Set<string>();
  const take = (key: string) => {
    known.add(key);
    return d[key];
  };
  switch (stage.name) {
    case 'recognise': {
      const answered = take('answered');
      const best = num(take('best'));
      const runner = num(take('runner_up'));
      facts.push(answered ? 'named one memory' : 'fell through');
      if (best !== null) facts.push(`best ${best}${runner !== null ? ` vs ${runner}` : ''}`);
      break;
    }
    case 'lexical': {
      const terms = take('terms');
      const tiers = take('tiers_run');
      if (typeof terms === 'number') facts.push(plural(terms, 'term'));
      if (typeof tiers === 'number') facts.push(`${plural(tiers, 'tier')} run`);
      break;
    }
    case 'vector': {
      const used = take('used');
      if (used === false) {
        facts.push('not used');
        break;
      }
      const model = take('model');
      if (typeof model === 'string') facts.push(model);
      const exact = take('exact');
      if (typeof exact === 'boolean') facts.push(exact ? 'exact scan' : 'quantised + rescored');
      const rescored = take('rescored');
      if (typeof rescored === 'number') facts.push(`${rescored} compared`);
      const floor = num(take('floor'));
      if (floor !== null) facts.push(`floor ${floor}`);
      const best = num(take('best'));
      facts.push(best !== null ? `best ${best}` : 'no neighbour');
      break;
    }
    case 'fusion': {
      const k = take('k');
      if (typeof k === 'number') facts.push(`k = ${k}`);
      break;
    }
    case 'spreading': {
      const hops = take('hops');
      const decay = num(take('decay'));
      const reached = take('reached');
      if (typeof hops === 'number') facts.push(hops === 0 ? 'off' : plural(hops, 'hop'));
      if (decay !== null) facts.push(`× ${decay} per hop`);
      if (typeof reached === 'number') facts.push(`${reached} reached`);
      break;
    }
    case 'ranking': {
      const w = take('weights');
      if (w && typeof w === 'object') {
        for (const [key, value] of Object.entries(w as Record<string, unknown>)) {
          const v = num(value);
          if (v !== null) facts.push(`${key} ${v}`);
        }
      }
      break;
    }
    case 'abstention': {
      const abstained = take('abstained');
      facts.push(abstained ? 'abstained' : 'answered');
      const best = num(take('best_similarity'));
      const bar = num(take('threshold'));
      if (bar !== null) facts.push(`best ${best ?? '—'} vs bar ${bar}`);
      const source = take('threshold_source');
      if (typeof source === 'string')
        facts.push(source === 'calibrated' ? 'calibrated' : 'default bar');
      const all = take('all_terms_matched');
      if (typeof all === 'boolean')
        facts.push(all ? 'all terms matched' : 'not every term matched');
      take('floor');
      break;
    }
    case 'diversity': {
      const lambda = num(take('lambda'));
      if (lambda !== null) facts.push(`λ = ${lambda}`);
      break;
    }
    case 'budget': {
      const max = take('max_tokens');
      const used = take('used');
      const omitted = take('omitted');
      facts.push(typeof max === 'number' ? `max ${max} tokens` : 'no token limit');
      if (typeof used === 'number') facts.push(`${used} used`);
      if (typeof omitted === 'number' && omitted > 0) facts.push(`${omitted} left out`);
      break;
    }
  }
  for (const [key, value] of Object.entries(d)) {
    if (known.has(key)) continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
      facts.push(`${key.replace(/_/g, ' ')}: ${String(value)}`);
  }
  return facts;
}
