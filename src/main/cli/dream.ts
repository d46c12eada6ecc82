// `loci dream [--dry-run] [--phases …]` (a consolidation cycle, with progress; Ctrl+C
// cancels it), `loci dream list|show`, and `loci review [list|accept|reject]` for the
// inbox. Calls through the same client as every other command, in-process or forwarded.
import { InvalidArgumentError, type Command } from 'commander';
import { monotonicFactory } from 'ulidx';
import type { DreamPhaseName, DreamReport, ReviewItemView } from '../../shared/api';
import { DREAM_PHASES, REVIEW_KINDS } from '../../shared/schemas';
import { clip, table } from './format';
import { progressBar, type Colors } from './io';
import type { EventedCommandContext } from './context';

export type DreamCliContext = EventedCommandContext;

const newCycleId = monotonicFactory();

function phasesArg(value: string): DreamPhaseName[] {
  const names = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!(DREAM_PHASES as readonly string[]).includes(n)) {
      throw new InvalidArgumentError(`"${n}" is not a phase (phases: ${DREAM_PHASES.join(', ')})`);
    }
  }
  if (names.length === 0) throw new InvalidArgumentError('name at least one phase');
  return names as DreamPhaseName[];
}

const show = (v: unknown) => (v === null || v === undefined ? '—' : clip(JSON.stringify(v), 50));

export function formatDreamReport(c: Colors, r: DreamReport, verbose = false): string {
  const rows = r.phases.map((p) => [
    p.phase,
    p.status === 'done'
      ? c.green(p.status)
      : p.status === 'failed'
        ? c.red(p.status)
        : c.yellow(p.status),
    String(p.examined),
    String(p.changes_total),
    String(p.proposals),
    `${p.duration_ms} ms`,
  ]);
  const lines = [
    `${r.dry_run ? 'Dry run' : 'Dream'} ${r.id} (${r.store}): ${r.status}${r.error ? ` — ${r.error}` : ''}`,
    table(c, ['phase', 'status', 'examined', 'changes', 'proposals', 'took'], rows).trimEnd(),
  ];
  for (const p of r.phases) {
    for (const note of p.notes) lines.push(c.dim(`${p.phase}: ${note}`));
    if (verbose) {
      for (const ch of p.changes)
        lines.push(
          `  ${p.phase} ${ch.kind} ${ch.target}: ${show(ch.before)} → ${show(ch.after)}${ch.note ? c.dim(` (${ch.note})`) : ''}`,
        );
      if (p.changes_total > p.changes.length)
        lines.push(c.dim(`  … ${p.changes_total - p.changes.length} more`));
    }
  }
  const t = r.totals;
  lines.push(
    `${t.changes} changes${r.dry_run ? ' would be made' : ''}, ${t.proposals} proposals ${r.dry_run ? 'would go' : 'went'} to the review inbox${t.proposals ? ' (loci review)' : ''}, ${t.duration_ms} ms.`,
  );
  return `${lines.join('\n')}\n`;
}

function formatReviews(c: Colors, items: ReviewItemView[], counts: Record<string, number>): string {
  if (items.length === 0)
    return `The review inbox is empty (${counts.accepted ?? 0} accepted, ${counts.rejected ?? 0} rejected so far).\n`;
  const rows = items.map((i) => [i.id, i.kind, i.state, clip(i.title, 70), i.source]);
  return `${table(c, ['id', 'kind', 'state', 'proposal', 'from'], rows)}${counts.pending ?? 0} pending. Accept: loci review accept <id…>  Reject: loci review reject <id…>\n`;
}

export function registerDreamCommands(program: Command, x: DreamCliContext): void {
  const { io, c } = x;
  const dream = program
    .command('dream')
    .description(
      'consolidate memories: replay, cluster, schema, affect, decay, recombine, merge, compete, retention',
    )
    .option('--dry-run', 'report what each phase would change, and change nothing')
    .option('--phases <list>', `comma-separated subset (${DREAM_PHASES.join(', ')})`, phasesArg)
    .option('-v, --verbose', 'list every change (ids, before → after)')
    .action(
      async (
        o: { dryRun?: boolean; phases?: DreamPhaseName[]; verbose?: boolean },
        cmd: Command,
      ) => {
        await x.connect(cmd);
        const id = newCycleId();
        const bar = progressBar(io, 'dream [{bar}] {value}/{total} phases  {phase}');
        const off = x.follow('dream.progressed', (p) => {
          if (p.cycle !== id) return;
          bar.update(p.step === 'phase-done' ? p.phase_index + 1 : p.phase_index, p.phases, {
            phase: p.phase ?? '',
          });
        });
        const onInterrupt = () => void x.call(cmd, 'dream.cancel', { id }).catch(() => undefined);
        process.on('SIGINT', onInterrupt);
        try {
          const r = await x.call(
            cmd,
            'dream.run',
            x.withStore(cmd, {
              id,
              dry_run: o.dryRun === true,
              ...(o.phases ? { phases: o.phases } : {}),
            }),
          );
          bar.stop();
          x.print(cmd, r, (rr) => formatDreamReport(c, rr, o.verbose === true));
        } finally {
          off();
          bar.stop();
          process.off('SIGINT', onInterrupt);
        }
      },
    );
  dream
    .command('list')
    .description('the last cycles of a store')
    .option('--limit <n>', 'how many', (v) => Number(v), 30)
    .action(async (o: { limit: number }, cmd: Command) => {
      const r = await x.call(cmd, 'dream.list', x.withStore(cmd, { limit: o.limit }));
      x.print(cmd, r, (rr) => {
        const rows = rr.cycles.map((d) => [
          d.id,
          d.started_at.slice(0, 16).replace('T', ' '),
          d.dry_run ? 'dry run' : d.trigger,
          d.status,
          String(d.totals.changes),
          String(d.totals.proposals),
        ]);
        const s = rr.schedule;
        const sched = s.enabled
          ? `Scheduled after ${s.idle_minutes} idle minutes, at most every ${s.interval_hours} h${s.next_eligible_at ? ` (next from ${s.next_eligible_at.slice(0, 16).replace('T', ' ')})` : ''}.`
          : 'Scheduled dreams are off (dream.schedule in config.json).';
        const llm = s.llm.configured
          ? `Language model: ${s.llm.model}.`
          : 'No language model configured (llm.url).';
        return `${rows.length ? table(c, ['id', 'started', 'trigger', 'status', 'changes', 'proposals'], rows) : 'No dream yet: run `loci dream`.\n'}${sched} ${llm} ${rr.pending_reviews} review items pending.\n`;
      });
    });
  dream
    .command('show')
    .description('one cycle, phase by phase, with every change')
    .argument('<id>', 'the cycle id (loci dream list)')
    .action(async (id: string, _o, cmd: Command) => {
      const r = await x.call(cmd, 'dream.get', x.withStore(cmd, { id }));
      x.print(cmd, r, (rr) => formatDreamReport(c, rr, true));
    });

  const review = program
    .command('review')
    .description('the review inbox: what dreams propose to write');
  review
    .command('list', { isDefault: true })
    .description('proposals waiting for a decision (or --state accepted|rejected|all)')
    .option('--state <state>', 'pending, accepted, rejected or all', 'pending')
    .option('--kind <kind>', `only one kind (${REVIEW_KINDS.join(', ')})`)
    .action(async (o: { state: string; kind?: string }, cmd: Command) => {
      const r = await x.call(
        cmd,
        'review.list',
        x.withStore(cmd, {
          state: o.state as 'pending',
          ...(o.kind ? { kind: o.kind as 'schema' } : {}),
        }),
      );
      x.print(cmd, r, (rr) => formatReviews(c, rr.items, rr.counts));
    });
  review
    .command('accept')
    .description('accept proposals (one may be edited first: --title, --content)')
    .argument('<ids...>', 'review item ids')
    .option('--title <title>', 'write this title instead of the proposal’s (one item)')
    .option('--content <text>', 'write this text instead of the proposal’s (one item)')
    .action(async (ids: string[], o: { title?: string; content?: string }, cmd: Command) => {
      const edit =
        o.title !== undefined || o.content !== undefined
          ? {
              ...(o.title !== undefined ? { title: o.title } : {}),
              ...(o.content !== undefined ? { content: o.content } : {}),
            }
          : undefined;
      const r = await x.call(
        cmd,
        'review.accept',
        x.withStore(cmd, { ids, ...(edit ? { edit } : {}) }),
      );
      x.print(
        cmd,
        r,
        (rr) =>
          rr.results
            .map(
              (i) =>
                `Accepted ${i.id}${i.result_ids.length ? ` → ${i.result_ids.join(', ')}` : ''}`,
            )
            .join('\n') + '\n',
      );
    });
  review
    .command('reject')
    .description('reject proposals (they are not proposed again)')
    .argument('<ids...>', 'review item ids')
    .option('--reason <text>', 'why, for the record')
    .action(async (ids: string[], o: { reason?: string }, cmd: Command) => {
      const r = await x.call(
        cmd,
        'review.reject',
        x.withStore(cmd, { ids, ...(o.reason ? { reason: o.reason } : {}) }),
      );
      x.print(cmd, r, (rr) => `Rejected ${rr.results.map((i) => i.id).join(', ')}\n`);
    });
}
