// `loci ingest <paths…>` and its subcommands (undo, redo, list, allow, disallow): calls
// through the same client as every other command, in-process or forwarded to the
// daemon. Progress comes from `ingest.progressed` events; Ctrl+C cancels the batch.
import { resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import { monotonicFactory } from 'ulidx';
import type { IngestFileReport, IngestReport } from '../../shared/api';
import { LociError } from '../../shared/errors';
import { LIMITS } from '../../shared/schemas';
import { nonNegativeIntArg } from './args';
import { clip, table } from './format';
import { progressBar, type Colors } from './io';
import type { EventedCommandContext } from './context';

export type IngestCliContext = EventedCommandContext;

const newBatchId = monotonicFactory();

function statusColor(c: Colors, s: IngestFileReport['status']): string {
  return s === 'ingested'
    ? c.green(s)
    : s === 'failed'
      ? c.red(s)
      : s === 'cancelled'
        ? c.yellow(s)
        : c.dim(s);
}

export function formatIngestReport(c: Colors, r: IngestReport): string {
  const rows = r.files.map((f) => [
    statusColor(c, f.status),
    f.format ?? '—',
    f.status === 'ingested' ? String(f.chunks) : '—',
    clip(f.path, 60),
    clip(f.reason ?? f.notes.join('; '), 80),
  ]);
  const t = r.totals;
  const head = rows.length ? table(c, ['status', 'format', 'chunks', 'file', 'reason'], rows) : '';
  const summary = `${r.status === 'cancelled' ? c.yellow('Cancelled: ') : ''}${t.ingested} file${t.ingested === 1 ? '' : 's'} ingested (${t.memories} memories, ${t.chunks} chunks${t.quarantined ? `, ${t.quarantined} quarantined` : ''}), ${t.skipped} skipped, ${t.failed} failed${t.cancelled ? `, ${t.cancelled} cancelled` : ''} in ${(t.duration_ms / 1000).toFixed(1)} s.`;
  const undo = t.memories
    ? `\nBatch ${r.batch}. Undo it with: loci ingest undo ${r.batch}`
    : `\nBatch ${r.batch}.`;
  return `${head}${summary}${undo}\n`;
}

export function registerIngestCommands(program: Command, x: IngestCliContext): void {
  const { io, c } = x;
  const ingest = program
    .command('ingest')
    .description(
      'read files and folders into memory (Markdown, text, code, JSON, CSV, HTML, PDF, DOCX); `loci ingest undo <batch>` takes a batch back',
    )
    .argument('[paths...]', 'files or folders (folders are read recursively)')
    .option(
      '--chunk-tokens <n>',
      `tokens per chunk (${LIMITS.chunkTokensMin}–${LIMITS.chunkTokensMax}; default: what the embedding model takes)`,
      nonNegativeIntArg('--chunk-tokens'),
    )
    .option(
      '--overlap-tokens <n>',
      'tokens shared by neighbouring chunks (default: an eighth of a chunk)',
      nonNegativeIntArg('--overlap-tokens'),
    )
    .option('--tags <tags>', 'extra tags for every memory, comma-separated')
    .action(async (paths: string[], o, cmd: Command) => {
      if (paths.length === 0) {
        cmd.help({ error: true });
        return;
      }
      await x.connect(cmd);
      const batch = newBatchId();
      const bar = progressBar(io, 'ingest [{bar}] {value}/{total} files  {file}');
      const off = x.follow('ingest.progressed', (p) => {
        if (p.batch !== batch) return;
        if (p.phase === 'file' || p.phase === 'chunk')
          bar.update(p.file_index, p.files, { file: clip(p.file ?? '', 50) });
        else if (p.phase === 'file-done')
          bar.update(p.file_index + 1, p.files, { file: clip(p.file ?? '', 50) });
      });
      // Ctrl+C cancels between files; what is written stays, and the report says so.
      const onInterrupt = () => {
        void x.call(cmd, 'ingest.cancel', { batch }).catch(() => undefined);
      };
      process.on('SIGINT', onInterrupt);
      try {
        const tags =
          typeof o.tags === 'string'
            ? o.tags
                .split(',')
                .map((t: string) => t.trim())
                .filter(Boolean)
            : [];
        const r = await x.call(
          cmd,
          'ingest.files',
          x.withStore(cmd, {
            paths: paths.map((p) => resolvePath(p)),
            batch,
            ...(o.chunkTokens !== undefined ? { chunk_tokens: o.chunkTokens } : {}),
            ...(o.overlapTokens !== undefined ? { overlap_tokens: o.overlapTokens } : {}),
            ...(tags.length ? { tags } : {}),
          }),
        );
        bar.stop();
        x.print(cmd, r, (v) => formatIngestReport(c, v));
      } finally {
        process.off('SIGINT', onInterrupt);
        off();
        bar.stop();
      }
    });

  for (const [name, method, verb] of [
    [
      'undo',
      'ingest.undo',
      'forget every memory an import batch wrote (one action; `redo` brings them back)',
    ],
    ['redo', 'ingest.redo', 'bring back the memories an undone import batch wrote'],
  ] as const) {
    ingest
      .command(name)
      .description(verb)
      .argument('<batch>', 'the batch id (as printed by `loci ingest` or `loci ingest list`)')
      .action(async (batch: string, _o, cmd: Command) => {
        const r = await x.call(cmd, method, x.withStore(cmd, { batch }));
        x.print(
          cmd,
          r,
          (v) =>
            `${c.green(name === 'undo' ? 'Undone' : 'Redone')}: batch ${v.batch}, ${v.memories} memories ${name === 'undo' ? 'forgotten' : 'restored'}.\n`,
        );
      });
  }

  ingest
    .command('list')
    .description('recent import batches')
    .option('-n, --limit <n>', 'how many (1–200)', nonNegativeIntArg('--limit'), 20)
    .action(async (o, cmd: Command) => {
      const r = await x.call(cmd, 'ingest.list', x.withStore(cmd, { limit: o.limit }));
      x.print(cmd, r, (v) =>
        v.batches.length
          ? table(
              c,
              ['batch', 'status', 'started', 'files', 'memories', 'from'],
              v.batches.map((b) => [
                b.batch,
                b.status,
                b.started_at.slice(0, 16).replace('T', ' '),
                String(b.totals.files),
                String(b.totals.memories),
                clip(b.roots.join(', '), 50),
              ]),
            )
          : 'No import batch yet. Try `loci ingest <folder>`.\n',
      );
    });

  const folders = (r: { folders: string[] }) =>
    r.folders.length
      ? `Agents may ingest from:\n${r.folders.map((f) => `  ${f}`).join('\n')}\n`
      : 'Agents may not ingest from any folder (allow one with `loci ingest allow <folder>`).\n';
  ingest
    .command('allow')
    .description('let agents (the MCP tool ingest_file) read files inside a folder')
    .argument('[folder]', 'the folder (without it: list the allowed folders)')
    .action(async (folder: string | undefined, _o, cmd: Command) => {
      const current = await x.call(cmd, 'ingest.folders', {});
      if (folder === undefined) {
        x.print(cmd, current, folders);
        return;
      }
      const abs = resolvePath(folder);
      const r = await x.call(cmd, 'ingest.setFolders', {
        folders: current.folders.includes(abs) ? current.folders : [...current.folders, abs],
      });
      x.print(cmd, r, folders);
    });
  ingest
    .command('disallow')
    .description('stop agents from reading files inside a folder')
    .argument('<folder>', 'a folder allowed before')
    .action(async (folder: string, _o, cmd: Command) => {
      const current = await x.call(cmd, 'ingest.folders', {});
      const abs = resolvePath(folder);
      if (!current.folders.includes(abs)) {
        throw new LociError(
          'invalid-args',
          `${abs} is not an allowed folder (see \`loci ingest allow\`)`,
        );
      }
      const r = await x.call(cmd, 'ingest.setFolders', {
        folders: current.folders.filter((f) => f !== abs),
      });
      x.print(cmd, r, folders);
    });
}
