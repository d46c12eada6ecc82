// `loci conflicts` (the memories that seem to disagree, side by side with what differs),
// `loci resolve <conflict…>` (--supersede, --scope, --dismiss, --undo) and
// `loci verify "<claim>"` (supported, contradicted or unknown, with what decides it), and
// `loci conflicts --scan` through the backlog with a progress bar.
import type { Command } from 'commander';
import type { ConflictView, VerifyResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { positiveIntArg } from '../args';
import type { CommandContext } from '../context';
import { clip } from '../format';
import { progressBar, type Colors } from '../io';

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '—');

/** The content with the differing values marked. */
function marked(c: Colors, text: string, values: string[]): string {
  let out = text;
  for (const v of values.filter(Boolean)) {
    const at = out.toLowerCase().indexOf(v.toLowerCase());
    if (at >= 0)
      out = `${out.slice(0, at)}${c.bold(c.yellow(out.slice(at, at + v.length)))}${out.slice(at + v.length)}`;
  }
  return out;
}

export function formatConflict(c: Colors, v: ConflictView): string {
  const what = v.relation === 'updating' ? 'update' : 'contradiction';
  const state =
    v.state === 'open'
      ? c.yellow('open')
      : `${c.green(v.state)} ${c.dim(`by ${v.resolution?.by ?? '?'} ${day(v.resolution?.decided_at ?? null)}${v.resolution?.reason ? `: ${v.resolution.reason}` : ''}`)}`;
  const spans = v.spans.map((s) => `${s.older || '(none)'} → ${s.newer || '(none)'}`).join('; ');
  const side = (label: string, m: ConflictView['older'], values: string[]) =>
    `  ${c.dim(label)} ${m.id}${m.id === v.current ? c.green(' (current)') : ''}  ${c.dim(`valid ${day(m.valid_from)} → ${m.valid_to ? day(m.valid_to) : 'now'}, written ${day(m.created_at)}`)}\n    ${marked(c, clip(m.content.replace(/\s+/g, ' '), 300), values)}`;
  return `${c.bold(v.id)}  ${what}, confidence ${v.confidence.toFixed(2)}, ${state}  ${c.dim(`differs: ${spans}`)}\n${side(
    'older',
    v.older,
    v.spans.map((s) => s.older),
  )}\n${side(
    'newer',
    v.newer,
    v.spans.map((s) => s.newer),
  )}\n`;
}

export function formatVerify(c: Colors, r: VerifyResult): string {
  const colour =
    r.verdict === 'supported' ? c.green : r.verdict === 'contradicted' ? c.red : c.yellow;
  const lines = r.evidence.slice(0, 8).map((e) => {
    const when = e.current
      ? c.green('holds now')
      : c.dim(
          `past${e.superseded_by ? `, replaced by ${e.superseded_by}` : e.valid_to ? `, until ${day(e.valid_to)}` : ''}`,
        );
    return `  ${e.stance === 'supports' ? c.green('supports') : c.red('contradicts')} ${e.id} (${when})\n    ${marked(
      c,
      clip(e.content.replace(/\s+/g, ' '), 240),
      e.spans.map((s) => s.older),
    )}`;
  });
  return `${colour(c.bold(r.verdict))} ${c.dim(`confidence ${r.confidence.toFixed(2)} · as of ${r.as_of.slice(0, 10)}`)}: ${r.basis}.\n${lines.join('\n')}${lines.length ? '\n' : ''}`;
}

export function registerConflictCommands(program: Command, x: CommandContext): void {
  const { io, c } = x;
  program
    .command('conflicts')
    .description('memories that seem to contradict each other, side by side with what differs')
    .option('--all', 'decided ones too')
    .option('--resolved', 'only decided ones')
    .option('--memory <id>', 'only those this memory takes part in')
    .option('-n, --limit <n>', 'how many', positiveIntArg('--limit'), 50)
    .option('--scan', 'first look through the memories written since the last look')
    .option('--since <time>', 'with --scan: every memory written since this time (ISO 8601)')
    .action(
      async (
        o: {
          all?: boolean;
          resolved?: boolean;
          memory?: string;
          limit: number;
          scan?: boolean;
          since?: string;
        },
        cmd: Command,
      ) => {
        await x.connect(cmd);
        if (o.scan) {
          const bar = progressBar(io, 'looking for contradictions [{bar}] {value}/{total}  {file}');
          const off = x.follow('conflict.progressed', (p) => {
            if (!p.finished) bar.update(p.done, p.total, { file: `${p.found} found`, size: '' });
          });
          try {
            const r = await x.call(
              cmd,
              'conflict.scan',
              x.withStore(cmd, o.since ? { since: o.since } : {}),
            );
            bar.stop();
            if (!x.globals(cmd).json) {
              io.stdout.write(
                `${r.examined} memories compared, ${r.found} new conflict${r.found === 1 ? '' : 's'} (${(r.ms / 1000).toFixed(1)} s).\n`,
              );
            }
          } finally {
            off();
            bar.stop();
          }
        }
        const r = await x.call(
          cmd,
          'conflict.list',
          x.withStore(cmd, {
            state: o.all ? 'all' : o.resolved ? 'resolved' : 'open',
            limit: o.limit,
            ...(o.memory ? { memory: o.memory } : {}),
          }),
        );
        x.print(cmd, r, (v) =>
          v.conflicts.length
            ? `${v.conflicts.map((k) => formatConflict(c, k)).join('\n')}\n${c.dim(`${v.open} open. Decide: loci resolve <conflict> --supersede | --scope older=<context>,newer=<context> | --dismiss`)}\n`
            : `No ${o.all ? '' : o.resolved ? 'decided ' : 'open '}conflicts.\n`,
        );
      },
    );

  program
    .command('resolve')
    .description(
      'decide conflicts: the newer one replaces the older (--supersede), both hold in their contexts (--scope), or not a conflict (--dismiss); --undo reverses a decision',
    )
    .argument('<conflicts...>', 'conflict ids (`loci conflicts` lists them)')
    .option('--supersede', 'one replaces the other: the newer, unless --winner says')
    .option('--winner <id>', 'with --supersede: the memory that holds now')
    .option('--at <time>', 'with --supersede: when the other stopped holding (ISO 8601)')
    .option(
      '--scope [contexts]',
      'both hold; optionally older=<context>,newer=<context> to tag them',
    )
    .option('--dismiss', 'not a conflict: it is never proposed again')
    .option('--undo', 'reverse the decision on one conflict')
    .option('--reason <text>', 'why, for the audit chain')
    .action(
      async (
        ids: string[],
        o: {
          supersede?: boolean;
          winner?: string;
          at?: string;
          scope?: string | boolean;
          dismiss?: boolean;
          undo?: boolean;
          reason?: string;
        },
        cmd: Command,
      ) => {
        const chosen = [o.supersede, o.scope !== undefined, o.dismiss, o.undo].filter(
          Boolean,
        ).length;
        if (chosen !== 1) {
          throw new LociError(
            'invalid-args',
            'resolve needs exactly one of --supersede, --scope, --dismiss or --undo',
          );
        }
        if (o.undo) {
          if (ids.length !== 1)
            throw new LociError('invalid-args', '--undo takes exactly one conflict id');
          const v = await x.call(
            cmd,
            'conflict.reopen',
            x.withStore(cmd, { id: ids[0] as string }),
          );
          x.print(
            cmd,
            v,
            (k) => `${c.green('Undone')}: conflict ${k.id} is open again.\n${formatConflict(c, k)}`,
          );
          return;
        }
        let contexts: { older: string; newer: string } | undefined;
        if (typeof o.scope === 'string') {
          const parts = Object.fromEntries(
            o.scope.split(',').map((p) => p.split('=').map((s) => s.trim()) as [string, string]),
          );
          if (!parts.older || !parts.newer) {
            throw new LociError(
              'invalid-args',
              '--scope takes older=<context>,newer=<context> (e.g. older=staging,newer=production)',
            );
          }
          contexts = { older: parts.older, newer: parts.newer };
        }
        const r = await x.call(
          cmd,
          'conflict.resolve',
          x.withStore(cmd, {
            ids,
            resolution: o.supersede ? 'supersede' : o.dismiss ? 'dismiss' : 'scope',
            ...(o.winner ? { winner: o.winner } : {}),
            ...(o.at ? { at: o.at } : {}),
            ...(contexts ? { contexts } : {}),
            ...(o.reason ? { reason: o.reason } : {}),
          }),
        );
        x.print(cmd, r, (v) => v.resolved.map((k) => formatConflict(c, k)).join('\n'));
      },
    );

  program
    .command('verify')
    .description(
      'check a claim against memory: supported, contradicted or unknown, and what decides it',
    )
    .argument('<claim>', 'one statement of fact, quoted')
    .option('--as-of <time>', 'judge it as of this time (ISO 8601)')
    .action(async (claim: string, o: { asOf?: string }, cmd: Command) => {
      const r = await x.call(
        cmd,
        'memory.verify',
        x.withStore(cmd, { claim, ...(o.asOf ? { as_of: o.asOf } : {}) }),
      );
      x.print(cmd, r, (v) => formatVerify(c, v));
    });
}
