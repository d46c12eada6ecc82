// The recall pipeline (DESIGN.md §6): recognise → lexical and vector candidates → fusion
// with the conversation signals → spreading activation over links → ranking with
// activation, retrievability and salience → confidence and abstention → diversity →
// token budget → rehearsal. Each stage is a function in stages.ts that returns its value
// and its trace entry; the run (run.ts) times them and keeps the trace. Every answer
// says how it was found, how sure it is, what was degraded and how long each stage took;
// `explain` adds the stage trace.
import type { RecallResult } from '../../../shared/api';
import type { MemoryRow } from '../memory/model';
import { applyBudget } from './budget';
import { tokenCounter } from './tokenCounter';
import { answerConfidence, round, toHit } from './present';
import { RecallRun, type ParsedRecall, type RecallContext } from './run';
import {
  abstain,
  budget,
  diversify,
  fuse,
  lexical,
  nearMisses,
  rank,
  recognise,
  RECOGNISED_CONFIDENCE,
  rehearse,
  spread,
  vector,
} from './stages';

export { notEmbeddedNote, type ParsedRecall, type RecallContext, type RecallVectors } from './run';

const NAMED_CONFIDENCE: RecallResult['confidence'] = {
  value: RECOGNISED_CONFIDENCE,
  level: 'high',
  basis: 'the query names a memory (the recogniser cleared its bar and its margin)',
};

export async function recall(ctx: RecallContext, args: ParsedRecall): Promise<RecallResult> {
  const count = tokenCounter();
  const run = new RecallRun(ctx, args);
  const tokens = (used: number) => ({ used, max: args.max_tokens ?? null });

  // The query's embedding runs in the worker meanwhile (recognising and the lexical search
  // are this thread's).
  run.prefetchQuery();
  const recognized = run.stage('recognise', () => recognise(run));
  // A query that names one memory: that memory answers. Asked for one result, it is the
  // whole answer; asked for more, it leads and the words of the query find the rest (it
  // waits for no query embedding: the fast path stays fast).
  const named = recognized.hit;
  const namedWhy = named
    ? `named by the query (recognised, ${named.score.toFixed(2)} vs ${named.runnerUp.toFixed(2)} for the next)`
    : '';
  if (named && (args.limit === 1 || run.units.length === 0)) {
    const row = run.rowsOf([named.rid]).get(named.rid) as MemoryRow;
    const hit = toHit(row, args, {
      score: round(named.score, 4),
      confidence: RECOGNISED_CONFIDENCE,
      why: namedWhy,
      breakdown: null,
    });
    const kept = await applyBudget([hit], args.max_tokens ?? null, count);
    rehearse(run, kept.kept.length > 0 ? [row.rid] : []);
    return run.finish({
      how: 'fastpath',
      abstained: false,
      confidence: NAMED_CONFIDENCE,
      results: kept.kept,
      omitted: kept.omitted,
      tokens: tokens(kept.used),
    });
  }
  const how = ctx.vectors ? 'hybrid' : 'lexical';
  if (run.units.length === 0) {
    // Nothing to match by word, and a vector of no words would be noise.
    return run.finish(
      {
        how,
        abstained: true,
        confidence: { value: 0, level: 'low', basis: 'the query has no searchable words' },
        results: [],
        omitted: 0,
        tokens: tokens(0),
      },
      ['the query has no searchable words'],
    );
  }

  const words = run.stage('lexical', () => lexical(run));
  const vectors = await run.stageAsync('vector', () => vector(run, named));
  const byRid = run.stage('fusion', () => fuse(run, words, vectors));
  run.stage('spreading', () => spread(run, byRid));
  const ranked = run.stage('ranking', () => rank(run, byRid));
  const { evidence, abstained } = run.stage('abstention', () =>
    abstain(run, ranked, words, vectors, named),
  );
  if (abstained) {
    const misses =
      args.format === 'verbose' ? nearMisses(run, ranked, byRid, vectors, words.units) : undefined;
    return run.finish({
      how,
      abstained: true,
      confidence: answerConfidence(evidence),
      results: [],
      ...(misses ? { near_misses: misses } : {}),
      omitted: 0,
      tokens: tokens(0),
    });
  }
  const chosen = run.stage('diversity', () => diversify(run, ranked, byRid, named));
  const kept = await run.stageAsync('budget', () =>
    budget(run, chosen, named, namedWhy, words.units, count),
  );
  if (kept.omitted > 0) {
    run.degraded.push(
      `${kept.omitted} more result${kept.omitted === 1 ? '' : 's'} left out to stay within max_tokens`,
    );
  }
  rehearse(
    run,
    kept.kept.map((h) => h.rid),
  );
  return run.finish({
    how: named ? 'fastpath' : how,
    abstained: false,
    confidence:
      named && NAMED_CONFIDENCE.value > evidence.confidence
        ? NAMED_CONFIDENCE
        : answerConfidence(evidence),
    results: kept.kept.map(({ rid: _rid, ...hit }) => hit),
    omitted: kept.omitted,
    tokens: tokens(kept.used),
  });
}
