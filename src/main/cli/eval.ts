// `loci eval [run|cases|runs|mark|remove]`: the quality lab from the command line — runs
// the cases marked in the observatory (optionally two ranking configurations, paired),
// through the same client as every other command. No scoring happens here.
import { existsSync, readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { LociError } from '../../shared/errors';
import {
  EvalConfigSchema,
  type EvalConfig,
  type EvalEstimate,
  type EvalRunResult,
  type EvalRunView,
} from '../../shared/eval';
import { describeIssues } from '../../shared/validation';
import type { EventedCommandContext } from './context';
import { table } from './format';

type EvalCliContext = EventedCommandContext;

/** A configuration file: the knobs themselves, or a config.json with a `recall` section. */
export function readEvalConfig(file: string): EvalConfig {
  if (!existsSync(file)) throw new LociError('invalid-args', `${file}: no such file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new LociError('invalid-args', `${file} is not valid JSON`);
  }
  const knobs =
    raw !== null && typeof raw === 'object' && 'recall' in raw
      ? (raw as { recall: unknown }).recall
      : raw;
  const parsed = EvalConfigSchema.safeParse(knobs);
  if (!parsed.success)
    throw new LociError('invalid-args', `${file}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

const f3 = (x: number) => x.toFixed(3);
const ci = (e: EvalEstimate) => (e.n === 0 ? '—' : `${f3(e.mean)} [${f3(e.low)}, ${f3(e.high)}]`);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${f3(x)}`;

function runRow(r: EvalRunView): string[] {
  const s = r.summary;
  return [r.label, String(r.cases), ci(s.recall10), ci(s.mrr), ci(s.ndcg10), ci(s.wrong10)];
}

function formatRun(ctx: EvalCliContext, r: EvalRunResult): string {
  const head = [
    'configuration',
    'cases',
    'recall@10',
    'MRR',
    'nDCG@10',
    'wrong@10 (lower is better)',
  ];
  const rows = [runRow(r.run), ...(r.against ? [runRow(r.against)] : [])];
  let out = `Quality lab on store ${r.store}, ${r.run.at.slice(0, 19).replace('T', ' ')} UTC (95 % bootstrap intervals)\n`;
  out += table(ctx.c, head, rows);
  if (r.run.summary.skipped > 0)
    out += `${r.run.summary.skipped} case(s) skipped: every memory they name was forgotten or erased.\n`;
  if (r.difference && r.against) {
    out += `\nPaired difference, ${r.against.label} − ${r.run.label}:\n`;
    out += table(
      ctx.c,
      ['metric', 'Δ', '95 % interval', 'MDE (80 % power)', 'cases'],
      (['recall10', 'mrr', 'ndcg10', 'wrong10'] as const).map((k) => {
        const d = r.difference![k];
        return [
          { recall10: 'recall@10', mrr: 'MRR', ndcg10: 'nDCG@10', wrong10: 'wrong@10' }[k],
          d.n === 0 ? '—' : signed(d.mean),
          d.n === 0 ? '—' : `[${signed(d.low)}, ${signed(d.high)}]`,
          d.mde === null ? '—' : f3(d.mde),
          String(d.n),
        ];
      }),
    );
  }
  out += r.run.id ? `Saved as run ${r.run.id}.\n` : 'Not saved (--no-save).\n';
  return out;
}

export function registerEvalCommands(program: Command, ctx: EvalCliContext): void {
  const { call, withStore, print, c } = ctx;
  const evalCmd = program
    .command('eval')
    .description(
      'the quality lab: run the recalls you marked in the observatory (Activity → "missed" / "wrong")',
    );

  evalCmd
    .command('run', { isDefault: true })
    .description('run the marked cases; with --against, two configurations and their difference')
    .option('--config <file>', 'ranking changes for this run (JSON: use_vectors, weights, …)')
    .option('--against <file>', 'a second configuration to compare with, paired case by case')
    .option('--label <text>', 'a name for the run (default: what the configuration changes)')
    .option('--against-label <text>', 'a name for the second run')
    .option('--no-save', 'do not keep the run in the history')
    .action(async (o, cmd: Command) => {
      const args = {
        ...(o.config ? { config: readEvalConfig(o.config as string) } : {}),
        ...(o.against ? { against: readEvalConfig(o.against as string) } : {}),
        ...(o.label ? { label: o.label as string } : {}),
        ...(o.againstLabel ? { against_label: o.againstLabel as string } : {}),
        save: o.save !== false,
      };
      const r = await call(cmd, 'eval.run', withStore(cmd, args));
      print(cmd, r, (v) => formatRun(ctx, v));
    });

  evalCmd
    .command('cases')
    .description('the marked cases: each query with the memories it should and should not return')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'eval.cases', withStore(cmd, {}));
      print(cmd, r, (v) =>
        v.cases.length === 0
          ? 'No cases yet: in the observatory, open a recall in Activity and mark what it missed or got wrong.\n'
          : table(
              c,
              ['id', 'query', 'expected', 'wrong'],
              v.cases.map((k) => [
                k.id,
                k.query.length > 50 ? `${k.query.slice(0, 49)}…` : k.query,
                k.expected.map((m) => (m.gone ? `${m.id} (gone)` : m.id)).join(' '),
                k.wrong.map((m) => (m.gone ? `${m.id} (gone)` : m.id)).join(' '),
              ]),
            ),
      );
    });

  evalCmd
    .command('runs')
    .description('past runs, oldest first: the trend')
    .option('--limit <n>', 'the newest n runs', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1)
        throw new InvalidArgumentError('--limit must be a whole number ≥ 1');
      return n;
    })
    .action(async (o, cmd: Command) => {
      const r = await call(
        cmd,
        'eval.runs',
        withStore(cmd, o.limit ? { limit: o.limit as number } : {}),
      );
      print(cmd, r, (v) =>
        v.runs.length === 0
          ? 'No runs yet: `loci eval` runs the marked cases.\n'
          : table(
              c,
              ['at (UTC)', 'configuration', 'cases', 'recall@10', 'MRR', 'nDCG@10', 'wrong@10'],
              v.runs.map((run) => [run.at.slice(0, 16).replace('T', ' '), ...runRow(run)]),
            ),
      );
    });

  evalCmd
    .command('mark')
    .description('mark a query by hand: memories it missed (--missed) or got wrong (--wrong)')
    .requiredOption('--query <text>', 'the query, as the agent asked it')
    .option('--missed <id...>', 'memories it should have returned')
    .option('--wrong <id...>', 'memories it returned but should not have')
    .action(async (o, cmd: Command) => {
      const r = await call(
        cmd,
        'eval.mark',
        withStore(cmd, {
          query: o.query as string,
          missed: (o.missed as string[] | undefined) ?? [],
          wrong: (o.wrong as string[] | undefined) ?? [],
        }),
      );
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Marked')} case ${v.id}: ${v.expected.length} expected, ${v.wrong.length} wrong\n`,
      );
    });

  evalCmd
    .command('remove')
    .description('remove a marked case')
    .argument('<id>', 'the case id (`loci eval cases`)')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await call(cmd, 'eval.remove', withStore(cmd, { id }));
      print(cmd, r, (v) => `${c.green('Removed')} case ${v.id}\n`);
    });
}
