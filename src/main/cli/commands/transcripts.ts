// `loci import-transcript <file|dir…>` (agent sessions into journals and episode
// memories, with a progress bar per file) and `loci journals [id]` (the journals, or one
// journal's classed turns). The same client as every command, in-process or the daemon's.
import { resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import type {
  JournalView,
  ModelDistillReport,
  TranscriptFileReport,
  TranscriptImportResult,
} from '../../../shared/api';
import { TRANSCRIPT_FORMATS, type TurnClass } from '../../../shared/constants';
import { formatBytes } from '../../../shared/format';
import { nonNegativeIntArg, positiveIntArg } from '../args';
import type { CommandContext } from '../context';
import { clip, table } from '../format';
import { HOOK_EVENTS, runHook } from '../hook';
import { progressBar, readStdin, type Colors } from '../io';

function statusColor(c: Colors, s: TranscriptFileReport['status']): string {
  return s === 'failed' ? c.red(s) : s === 'unchanged' ? c.dim(s) : c.green(s);
}

export function formatImport(c: Colors, r: TranscriptImportResult): string {
  const rows = r.files.map((f) => {
    const a = f.accounting;
    return [
      statusColor(c, f.status),
      f.format ?? '—',
      a ? String(a.turns) : '—',
      a ? `${a.skipped_total}${a.not_kept ? ` (+${a.not_kept} past the budget)` : ''}` : '—',
      a?.quarantined ? c.yellow(String(a.quarantined)) : '0',
      clip(f.path, 60),
      clip(f.reason ?? (f.episode_id ? `episode ${f.episode_id}` : ''), 60),
    ];
  });
  const t = r.totals;
  const d = r.files.reduce(
    (acc, f) => ({
      written: acc.written + (f.distilled?.written ?? 0),
      proposed: acc.proposed + (f.distilled?.proposed ?? 0),
      rejected: acc.rejected + (f.distilled?.rejected ?? 0),
    }),
    { written: 0, proposed: 0, rejected: 0 },
  );
  const head = rows.length
    ? table(c, ['status', 'format', 'turns', 'skipped lines', 'quarantined', 'file', ''], rows)
    : '';
  const skipped = r.files.flatMap((f) =>
    (f.accounting?.skipped ?? [])
      .slice(0, 5)
      .map((s) => `  ${clip(f.path, 50)}:${s.line}: ${s.reason}`),
  );
  const distilled =
    d.written + d.proposed + d.rejected
      ? `Distilled: ${d.written} written, ${d.proposed} waiting in the review inbox (\`loci review\`), ${d.rejected} refused by the gate (\`loci journals <id>\` says why).\n`
      : '';
  const models = r.files.flatMap((f) => (f.model ? [formatModel(c, f.model, f.path)] : []));
  return `${head}${t.imported} imported, ${t.replaced} replaced (the session grew), ${t.unchanged} unchanged, ${t.failed} failed.\n${distilled}${models.join('')}${
    skipped.length ? `${c.dim('Lines not read:')}\n${skipped.join('\n')}\n` : ''
  }`;
}

/** What a language model added to a journal. */
export function formatModel(c: Colors, m: ModelDistillReport, what: string): string {
  const problems = m.problems.map((p) => `  ${c.yellow('!')} ${p}\n`).join('');
  return `The model ${m.model} read ${m.windows} window${m.windows === 1 ? '' : 's'} of ${clip(what, 60)} (${m.turns_covered} turns): ${m.counts.proposed} proposed for review, ${m.counts.rejected} refused by the gate, ${m.counts.duplicate} already known.\n${problems}`;
}

const CLASS_COLOR: Record<TurnClass, 'green' | 'dim' | 'yellow' | 'bold'> = {
  USER: 'green',
  TOOL: 'dim',
  ACT: 'yellow',
  SELF: 'bold',
};

export function formatJournal(c: Colors, v: JournalView): string {
  const j = v.journal;
  const head = `${c.bold(j.id)}  ${j.format}  ${j.session ?? ''}\n${j.cwd ?? ''}  ${j.started_at ?? ''} → ${j.ended_at ?? ''}\n${j.lines} lines: ${j.accounting.used} read, ${j.accounting.skipped_total} not readable, ${j.accounting.not_kept} past the budget; ${j.accounting.turns} turns (${j.accounting.quarantined} quarantined)\n\n`;
  const turns = v.turns.map((t) => {
    const color = c[CLASS_COLOR[t.class]];
    const exit = t.exit === null ? '' : ` exit ${t.exit}`;
    return `${color(t.class.padEnd(4))} ${c.dim(`#${t.seq} line ${t.line}${t.tool ? ` ${t.tool}` : ''}${exit}`)}\n${clip(t.text, 600)}`;
  });
  const candidates = v.candidates.map(
    (k) =>
      `${k.status === 'rejected' ? c.red(k.status) : c.green(k.status)} ${c.dim(k.extractor)} ${clip(k.content, 160)}${k.reasons.length ? `\n    ${c.dim(k.reasons.join('; '))}` : ''}`,
  );
  const distilled = candidates.length ? `\n${c.bold('Distilled')}\n${candidates.join('\n')}\n` : '';
  return `${head}${turns.join('\n')}\n${distilled}${v.total > v.turns.length ? c.dim(`(${v.turns.length} of ${v.total} turns; --offset for more)\n`) : ''}`;
}

/** The bar follows a language model going through a journal's windows. */
function followModel(x: CommandContext, bar: ReturnType<typeof progressBar>): () => void {
  return x.follow('journal.distill.progressed', (p) => {
    if (p.done) return;
    bar.update(p.windows, p.total, { file: `${p.model}: journal ${p.journal_id}`, size: '' });
  });
}

export function registerTranscriptCommands(program: Command, x: CommandContext): void {
  const { io, c } = x;
  // bin/loci.js runs `loci hook` from its own small entry (src/main/hook.ts); this is the
  // same command for `loci` run from the sources.
  program
    .command('hook')
    .description(
      `answer an editor's hook (${HOOK_EVENTS.join(', ')}): reads its JSON on standard input, asks the running daemon, prints the answer; always exits 0`,
    )
    .argument('<event>', HOOK_EVENTS.join(' | '))
    .action(async (event: string) => {
      const stdin = io.stdin.isTTY ? '' : await readStdin(io).catch(() => '');
      const r = await runHook(event, stdin, io.env);
      if (r.stdout) io.stdout.write(`${r.stdout}\n`);
    });

  program
    .command('import-transcript')
    .description(
      "read agent sessions (Claude Code, Codex CLI, generic JSONL) into journals and episode memories; a folder's *.jsonl files are read recursively",
    )
    .argument('<paths...>', 'transcript files or folders')
    .option('--format <format>', `auto (default), ${TRANSCRIPT_FORMATS.join(', ')}`, 'auto')
    .option('--no-model', 'do not ask the configured language model (llm.url) for candidates')
    .action(async (paths: string[], o: { format: string; model: boolean }, cmd: Command) => {
      await x.connect(cmd);
      const bar = progressBar(io, 'transcript [{bar}] {size}  {file}');
      const off = x.follow('transcript.progressed', (p) => {
        if (p.done) return;
        bar.update(p.bytes, p.total, {
          file: clip(p.path, 50),
          size: `${formatBytes(p.bytes)} of ${formatBytes(p.total)}`,
        });
      });
      const offModel = followModel(x, bar);
      try {
        const r = await x.call(
          cmd,
          'transcript.import',
          x.withStore(cmd, {
            paths: paths.map((p) => resolvePath(p)),
            format: o.format as 'auto',
            model: o.model ? 'auto' : 'off',
          }),
        );
        bar.stop();
        x.print(cmd, r, (v) => formatImport(c, v));
        if (r.totals.failed > 0) x.foundProblems();
      } finally {
        off();
        offModel();
        bar.stop();
      }
    });

  program
    .command('distill')
    .description(
      'ask the configured language model (llm.url) for the memories worth keeping in a journal; its candidates pass the evidence gate and wait in the review inbox',
    )
    .argument('<journal>', 'a journal id (`loci journals` lists them)')
    .option(
      '--windows <n>',
      'hand over at most this many windows of turns',
      positiveIntArg('--windows'),
    )
    .action(async (id: string, o: { windows?: number }, cmd: Command) => {
      await x.connect(cmd);
      const bar = progressBar(io, 'distill [{bar}] {value}/{total} windows  {file}');
      const off = followModel(x, bar);
      try {
        const r = await x.call(
          cmd,
          'journal.distill',
          x.withStore(cmd, { id, ...(o.windows ? { max_windows: o.windows } : {}) }),
        );
        bar.stop();
        x.print(cmd, r, (v) => formatModel(c, v, `journal ${v.journal_id}`));
        if (r.problems.length && r.windows === 0) x.foundProblems();
      } finally {
        off();
        bar.stop();
      }
    });

  program
    .command('journals')
    .description("the agent sessions read so far, or one journal's turns with who said them")
    .argument('[id]', 'a journal id: its turns')
    .option('-n, --limit <n>', 'how many journals or turns', positiveIntArg('--limit'))
    .option('--offset <n>', 'skip this many turns', nonNegativeIntArg('--offset'), 0)
    .option('--class <classes>', 'only turns of these classes (USER,TOOL,ACT,SELF)')
    .option('--reveal', 'show the text of quarantined turns')
    .action(
      async (
        id: string | undefined,
        o: { limit?: number; offset: number; class?: string; reveal?: boolean },
        cmd: Command,
      ) => {
        if (!id) {
          const r = await x.call(cmd, 'journal.list', x.withStore(cmd, { limit: o.limit ?? 50 }));
          x.print(cmd, r, (v) =>
            v.journals.length
              ? table(
                  c,
                  ['journal', 'format', 'started', 'turns', 'project', 'episode'],
                  v.journals.map((j) => [
                    j.id,
                    j.format,
                    j.started_at?.slice(0, 16).replace('T', ' ') ?? '—',
                    String(j.turns),
                    clip(j.cwd ?? '—', 40),
                    j.episode_id ?? '—',
                  ]),
                )
              : 'No journals yet: `loci import-transcript <file>` reads one.\n',
          );
          return;
        }
        const classes = o.class
          ?.split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean) as TurnClass[] | undefined;
        const r = await x.call(
          cmd,
          'journal.get',
          x.withStore(cmd, {
            id,
            offset: o.offset,
            limit: o.limit ?? 200,
            ...(classes?.length ? { classes } : {}),
            ...(o.reveal ? { reveal: true } : {}),
          }),
        );
        x.print(cmd, r, (v) => formatJournal(c, v));
      },
    );
}
