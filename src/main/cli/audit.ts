// `loci audit tail|verify|export|access|rotate-key` and `loci doctor [--fix]`: calls
// through the same client as every other command (in-process, or forwarded to the
// daemon). A broken chain exits with 8, a doctor finding with 9; fixes ask first.
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import type { AuditVerifyResult, DoctorCheck, DoctorReport } from '../../shared/api';
import { LociError } from '../../shared/errors';
import { positiveIntArg, timeArg } from './args';
import { EXIT_BROKEN_CHAIN, EXIT_FINDINGS } from './exitCodes';
import { table } from './format';
import { confirm, progressBar, type Colors } from './io';
import type { CommandContext, EventedCommandContext } from './context';

export type AuditCliContext = EventedCommandContext & Pick<CommandContext, 'exitWith'>;

/** An anchor given on the command line: a file holding it, or the anchor itself. */
export function readAnchorArg(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('loci-anchor:') || trimmed.startsWith('{')) return trimmed;
  if (existsSync(value)) return readFileSync(value, 'utf8').trim();
  throw new LociError(
    'invalid-args',
    `--anchor: "${value}" is neither a file nor an anchor (an anchor starts with loci-anchor:1:).`,
  );
}

const short = (hash: string) => hash.slice(0, 12);

export function formatVerify(c: Colors, r: AuditVerifyResult): string {
  const lines: string[] = [];
  if (r.ok) {
    lines.push(
      `${c.green('✓ chain intact')}: ${r.checked} entries verified in ${r.duration_ms} ms (store ${r.store}).`,
    );
  } else {
    const b = r.first_broken;
    lines.push(
      `${c.red('✗ chain broken')} at entry ${b?.seq ?? '?'} (${b?.reason ?? 'unknown'}): ${b?.detail ?? ''}`,
    );
    lines.push(`${r.checked} entries before it verified; the chain has ${r.total}.`);
  }
  if (r.anchor_checked) {
    lines.push(
      c.dim(
        `Checked against the ${r.anchor_checked.source === 'given' ? 'given' : 'last verification’s'} anchor (entry ${r.anchor_checked.seq}, ${r.anchor_checked.at}).`,
      ),
    );
  }
  if (r.anchor_text) {
    lines.push(
      `Anchor (keep a copy elsewhere; \`loci audit verify --anchor <it>\` checks the tail):`,
    );
    lines.push(`  ${r.anchor_text}`);
  }
  return `${lines.join('\n')}\n`;
}

const STATUS_MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

function statusText(c: Colors, s: DoctorCheck['status']): string {
  const text = `${STATUS_MARK[s]} ${s}`;
  return s === 'ok' ? c.green(text) : s === 'warn' ? c.yellow(text) : c.red(text);
}

export function formatDoctor(c: Colors, r: DoctorReport): string {
  const out: string[] = [];
  let group = '';
  for (const check of r.checks) {
    if (check.group !== group) {
      group = check.group;
      out.push(`\n${c.bold(group)}`);
    }
    out.push(`  ${statusText(c, check.status)}  ${check.title}: ${check.finding}`);
    if (check.status !== 'ok') {
      out.push(
        `         ${c.dim('→')} ${check.fix}${check.fixable ? c.dim(` [loci doctor --fix ${check.id}]`) : ''}`,
      );
    }
  }
  out.push(
    `\n${r.counts.ok} ok, ${r.counts.warn} warning${r.counts.warn === 1 ? '' : 's'}, ${r.counts.fail} failure${r.counts.fail === 1 ? '' : 's'} (store ${r.store}, ${r.duration_ms} ms).`,
  );
  return `${out.join('\n').replace(/^\n/, '')}\n`;
}

export function registerAuditCommands(program: Command, ctx: AuditCliContext): void {
  const { io, c, call, follow, withStore, print } = ctx;
  const audit = program
    .command('audit')
    .description('the audit chain: recent entries, verification, export, reads by MCP clients');

  audit
    .command('tail', { isDefault: true })
    .description('the latest audit entries, newest first')
    .option('-n, --limit <n>', 'how many', positiveIntArg('--limit'), 20)
    .option('--actor <actor>', 'only this actor (ui, cli, mcp:<client>)')
    .option('--action <action>', 'only this action (memory.create, memory.erase…)')
    .option('--target <id>', 'only entries about this memory')
    .option('--since <time>', 'from this time (ISO 8601 or a date)', timeArg)
    .option('--until <time>', 'before this time', timeArg)
    .action(async (o, cmd: Command) => {
      const r = await call(
        cmd,
        'audit.list',
        withStore(cmd, {
          limit: o.limit,
          ...(o.actor ? { actor: o.actor } : {}),
          ...(o.action ? { action: o.action } : {}),
          ...(o.target ? { target: o.target } : {}),
          ...(o.since ? { since: o.since } : {}),
          ...(o.until ? { until: o.until } : {}),
        }),
      );
      print(cmd, r, (v) =>
        v.entries.length
          ? `${table(
              c,
              ['seq', 'time (UTC)', 'actor', 'action', 'target', 'hash'],
              v.entries.map((e) => [
                String(e.seq),
                e.at.slice(0, 19).replace('T', ' '),
                e.actor,
                e.action,
                e.target ?? '—',
                short(e.hash),
              ]),
            )}${c.dim(`${v.entries.length} of ${v.total} entries; head ${v.head.seq} ${short(v.head.hash)}`)}\n`
          : 'No audit entries match.\n',
      );
    });

  audit
    .command('verify')
    .description('check every entry of the chain; prints an anchor to keep elsewhere')
    .option('--anchor <file|anchor>', 'check against this anchor (detects a cut-off tail)')
    .action(async (o: { anchor?: string }, cmd: Command) => {
      const anchor = o.anchor !== undefined ? readAnchorArg(o.anchor) : undefined;
      const bar = progressBar(io, 'verifying |{bar}| {value}/{total} entries');
      const stop = follow('audit.progressed', (p) => {
        if (!p.done) bar.update(p.checked, p.total);
      });
      let r: AuditVerifyResult;
      try {
        r = await call(cmd, 'audit.verify', withStore(cmd, anchor ? { anchor } : {}));
      } finally {
        stop();
        bar.stop();
      }
      if (!r.ok) ctx.exitWith(EXIT_BROKEN_CHAIN);
      print(cmd, r, (v) => formatVerify(c, v));
    });

  audit
    .command('export')
    .description('the chain as JSON Lines (a header, the entries, then the anchor of the head)')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .action(async (o: { output?: string }, cmd: Command) => {
      const fd = o.output ? openSync(o.output, 'w', 0o600) : null;
      const write = (text: string) => (fd === null ? io.stdout.write(text) : writeSync(fd, text));
      let after = 0;
      let total = 0;
      try {
        for (;;) {
          const page = await call(cmd, 'audit.export', withStore(cmd, { after_seq: after }));
          // Pages after the first repeat only their entries; the header and anchor lines
          // of intermediate pages are dropped so the file stays one document.
          const lines = page.jsonl.trimEnd().split('\n');
          const entries = lines.slice(1, -1);
          if (after === 0) write(`${lines[0] ?? ''}\n`);
          if (entries.length > 0) write(`${entries.join('\n')}\n`);
          total += page.entries;
          if (page.next_after === null) {
            write(`${lines[lines.length - 1] ?? ''}\n`);
            break;
          }
          after = page.next_after;
        }
      } finally {
        if (fd !== null) closeSync(fd);
      }
      if (o.output) io.stderr.write(`Exported ${total} entries to ${o.output}.\n`);
    });

  audit
    .command('access')
    .description('what each MCP client read, per day')
    .option('--days <n>', 'days back, today included', positiveIntArg('--days'), 7)
    .option('--client <name>', 'one client (mcp:cursor)')
    .option('--day <YYYY-MM-DD>', 'with --client: list the memories read that day')
    .action(async (o: { days: number; client?: string; day?: string }, cmd: Command) => {
      const r = await call(
        cmd,
        'audit.access',
        withStore(cmd, {
          days: o.days,
          ...(o.client ? { client: o.client } : {}),
          ...(o.day ? { day: o.day } : {}),
        }),
      );
      print(cmd, r, (v) => {
        if (v.memories) {
          if (v.memories.length === 0) return 'No memories read.\n';
          return table(
            c,
            ['memory', 'title', 'reads', 'last read'],
            v.memories.map((m) => [
              m.id,
              m.title ?? c.dim('(erased)'),
              String(m.reads),
              m.last_at.slice(11, 19),
            ]),
          );
        }
        if (v.groups.length === 0)
          return `No reads by MCP clients since ${v.since.slice(0, 10)}.\n`;
        return table(
          c,
          ['day', 'client', 'memories', 'reads', 'tools'],
          v.groups.map((g) => [
            g.day,
            g.client,
            String(g.memories),
            String(g.reads),
            g.methods.join(', '),
          ]),
        );
      });
    });

  audit
    .command('rotate-key')
    .description('start signing with a new audit key (older entries stay verifiable)')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'audit.rotateKey', withStore(cmd, {}));
      print(cmd, r, (v) => `Audit key rotated: ${v.from} → ${v.to}. Back up the key file.\n`);
    });

  program
    .command('doctor')
    .description('check the store, the indexes, the model, the endpoint and client configs')
    .argument('[check]', 'with --fix: only this check (e.g. fts.sync, client.cursor)')
    .option('--fix', 'apply the safe fixes (asks first unless --yes)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (only: string | undefined, o: { fix?: boolean; yes?: boolean }, cmd: Command) => {
      if (only && !o.fix)
        throw new LociError('invalid-args', 'name a check only together with --fix');
      let report = await call(cmd, 'doctor.run', withStore(cmd, {}));
      if (o.fix) {
        const targets = report.checks.filter(
          (x) => x.status !== 'ok' && (only ? x.id === only : x.fixable),
        );
        if (only && targets.length === 0) {
          const known = report.checks.find((x) => x.id === only);
          if (!known) {
            throw new LociError('not-found', `There is no doctor check "${only}".`);
          }
          io.stderr.write(`${only}: nothing to fix.\n`);
        }
        const fixable = targets.filter((x) => x.fixable);
        for (const x of targets.filter((t) => !t.fixable)) {
          io.stderr.write(`${x.id}: no safe automatic fix. ${x.fix}\n`);
        }
        if (fixable.length > 0) {
          io.stderr.write(
            `Fixes to apply:\n${fixable.map((x) => `  ${x.id}: ${x.fix}`).join('\n')}\n`,
          );
          if (
            !o.yes &&
            !(await confirm(io, `Apply ${fixable.length} fix${fixable.length === 1 ? '' : 'es'}?`))
          ) {
            throw new LociError(
              'invalid-args',
              'nothing fixed: confirm on a terminal or pass --yes',
            );
          }
          for (const x of fixable) {
            const r = await call(cmd, 'doctor.fix', withStore(cmd, { check: x.id }));
            io.stderr.write(`${x.id}: ${r.done}\n`);
          }
          report = await call(cmd, 'doctor.run', withStore(cmd, {}));
        }
      }
      if (report.status !== 'ok') ctx.exitWith(EXIT_FINDINGS);
      print(cmd, report, (v) => formatDoctor(c, v));
    });
}
