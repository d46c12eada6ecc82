// The MCP tools beyond reading and writing memories: procedures and their outcomes, the
// stores, statistics, the doctor, dreams and file ingestion.
import { z } from 'zod';
import { DREAM_PHASES } from '../../shared/constants';
import type {
  DreamPhaseReport,
  DreamReport,
  IngestFileReport,
  IngestReport,
  JournalDistillResult,
  ModelDistillReport,
  TranscriptFileReport,
  TranscriptImportResult,
} from '../../shared/api';
import { JournalProposeArgsSchema } from '../../shared/schemas';
import { sampleJournal } from './sampling';
import { toolOutput } from './structured';
import { fieldsOf, fromContract, read, withStore, write, type ToolDefinition } from './toolKit';

/** `dream`'s structured content: the report, each phase counting its changes, not listing them. */
export interface DreamToolOutput extends Pick<
  DreamReport,
  'id' | 'store' | 'dry_run' | 'status' | 'totals'
> {
  phases: (Pick<DreamPhaseReport, 'phase' | 'status' | 'examined' | 'proposals' | 'notes'> & {
    /** What it changed (or, in a dry run, would change): how many. */
    changes: number;
  })[];
}

/** `ingest_file`'s structured content: the batch, and what happened to each file. */
export interface IngestFileToolOutput extends Pick<
  IngestReport,
  'batch' | 'store' | 'status' | 'totals'
> {
  files: Pick<
    IngestFileReport,
    'path' | 'status' | 'format' | 'reason' | 'chunks' | 'document_id'
  >[];
}

/** `import_transcript`'s structured content: each file's journal, episode and distillation. */
export interface ImportTranscriptToolOutput extends Pick<
  TranscriptImportResult,
  'store' | 'totals'
> {
  files: (Pick<
    TranscriptFileReport,
    | 'path'
    | 'status'
    | 'format'
    | 'session'
    | 'journal_id'
    | 'episode_id'
    | 'distilled'
    | 'model'
    | 'reason'
  > & {
    /** The turns read from it (0 when none were). */
    turns: number;
  })[];
}

/**
 * `distill_session`'s structured content: which model read the journal (`sampling`: the
 * client's, `llm`: the configured one) and what it added, or `agent`: none was at hand.
 */
export type DistillSessionToolOutput =
  | ({ via: 'sampling'; journal_id: string } & ModelDistillReport)
  | ({ via: 'llm' } & JournalDistillResult)
  | { via: 'agent'; journal_id: string };

/** One line on what a model added to a journal. */
const modelLine = (via: string, m: ModelDistillReport) =>
  `${via} (${m.model}) read ${m.windows} window${m.windows === 1 ? '' : 's'} (${m.turns_covered} turns): ${m.counts.proposed} proposed for the user's review, ${m.counts.rejected} refused by the gate, ${m.counts.duplicate} already known.${m.problems.length ? ` ${m.problems.slice(0, 3).join('; ')}.` : ''}`;

/** One path of `ingest.files`'s `paths`. */
const ingestPath = (
  fieldsOf('ingest.files', ['paths']).paths as z.ZodOptional<z.ZodArray<z.ZodString>>
).unwrap().element;

/** The system tools; `defaultStore` is the daemon's `--store`. */
export function systemTools(defaultStore?: string): ToolDefinition[] {
  return [
    {
      name: 'record_outcome',
      title: 'Record a procedure outcome',
      description:
        'After following a procedural memory (a how-to, a runbook), say whether it worked. Procedures with a better record are offered first by find_procedures.',
      ...fromContract('procedure.recordOutcome', ['id', 'success', 'niche', 'store']),
      annotations: write,
      async run(client, a) {
        const { store: _s, ...rest } = a;
        const r = await client.call(
          'procedure.recordOutcome',
          withStore(a, rest as never, defaultStore),
        );
        return {
          text: `Recorded: ${r.successes} successes, ${r.failures} failures (Wilson lower bound ${r.wilson_lower}).`,
          structured: toolOutput('record_outcome', r),
        };
      },
    },
    {
      name: 'find_procedures',
      title: 'Find procedures',
      description:
        'Find how-tos and runbooks for a task, the ones with the best track record first.',
      ...fromContract('procedure.find', ['query', 'limit', 'niche', 'store']),
      annotations: read,
      async run(client, a) {
        const { store: _s, ...rest } = a;
        const r = await client.call('procedure.find', withStore(a, rest as never, defaultStore));
        const text = r.results.length
          ? r.results
              .map(
                (p, i) =>
                  `${i + 1}. [${p.id}] ${p.title} (${p.successes}✓ ${p.failures}✗)\n${p.content}`,
              )
              .join('\n\n')
          : 'No procedure for this is stored.';
        return { text, structured: toolOutput('find_procedures', r) };
      },
    },
    {
      name: 'stores',
      title: 'Stores',
      description:
        'The memory stores of this user (for instance one per project); pass `store` to other tools to use one.',
      ...fromContract('store.list', []),
      annotations: read,
      async run(client) {
        const r = await client.call('store.list', {});
        return {
          text: r.stores.map((s) => `${s.name}${s.is_default ? ' (default)' : ''}`).join('\n'),
          structured: toolOutput('stores', r),
        };
      },
    },
    {
      name: 'stats',
      title: 'Statistics',
      description:
        'How many memories, links and versions a store holds, and whether semantic search is on.',
      ...fromContract('stats.get', ['store']),
      annotations: read,
      async run(client, a) {
        const r = await client.call('stats.get', withStore(a, {}, defaultStore));
        return {
          text: `${r.memories.live} memories (${r.memories.quarantined} quarantined, ${r.memories.pinned} pinned), ${r.links} links; semantic ${r.vectors.semantic} (${r.vectors.model}).`,
          structured: toolOutput('stats', r),
        };
      },
    },
    {
      name: 'doctor',
      title: 'Health check',
      description:
        "Loci's own health report: database, indexes, embedding model, audit chain, endpoint, client configurations, disk. Read-only: it explains problems and their fixes, and never applies one (the user does, with `loci doctor --fix` or the Doctor view). Use it when recall seems wrong or slow.",
      ...fromContract('doctor.run', ['store']),
      annotations: read,
      async run(client, a) {
        const r = await client.call('doctor.run', withStore(a, {}, defaultStore));
        const problems = r.checks.filter((c) => c.status !== 'ok');
        const text = [
          `Loci doctor (store ${r.store}): ${r.status} — ${r.counts.ok} ok, ${r.counts.warn} warnings, ${r.counts.fail} failures.`,
          ...problems.map((c) => `- [${c.status}] ${c.title}: ${c.finding} Fix: ${c.fix}`),
        ].join('\n');
        return { text, structured: toolOutput('doctor', r) };
      },
    },
    {
      name: 'dream',
      title: 'Dream (consolidate)',
      description:
        "Run a consolidation cycle over the memory store: strengthen links among memories used together, find clusters, cool arousal, fade unused links and memories (softly; pinned ones are never touched), let procedures compete on their recorded outcomes, and propose summaries, links and merges of near-duplicates. Proposals wait in the user's review inbox; nothing proposed becomes a memory until the user accepts it. Use dry_run to see what would change without changing anything.",
      ...fromContract('dream.run', ['dry_run', 'phases', 'store'], {
        dry_run: 'Report what would change, and change nothing.',
        phases: `A subset of the phases (default: all): ${DREAM_PHASES.join(', ')}.`,
      }),
      annotations: write,
      async run(client, a) {
        const { store: _s, ...rest } = a;
        const r = await client.call('dream.run', withStore(a, rest as never, defaultStore));
        const lines = r.phases.map(
          (p) =>
            `- ${p.phase}: ${p.status}, ${p.examined} examined, ${p.changes_total} ${r.dry_run ? 'would change' : 'changed'}${p.proposals ? `, ${p.proposals} proposals` : ''}${p.notes.length ? ` — ${p.notes.join(' ')}` : ''}`,
        );
        return {
          text: `${r.dry_run ? 'Dry run' : 'Dream'} ${r.id} ${r.status}: ${r.totals.changes} changes, ${r.totals.proposals} proposals for the user's review inbox.${r.error ? ` Error: ${r.error}` : ''}\n${lines.join('\n')}`,
          structured: toolOutput('dream', {
            id: r.id,
            store: r.store,
            dry_run: r.dry_run,
            status: r.status,
            totals: r.totals,
            phases: r.phases.map((p) => ({
              phase: p.phase,
              status: p.status,
              examined: p.examined,
              changes: p.changes_total,
              proposals: p.proposals,
              notes: p.notes,
            })),
          }),
        };
      },
    },
    {
      name: 'ingest_file',
      title: 'Ingest a file',
      description:
        "Read a file (or a folder, recursively) from the user's machine into memory: Markdown, text, source code, JSON, CSV, HTML, PDF or DOCX, cut into chunks linked to a document memory and tagged `source:<file name>`. Only paths inside the folders the user allowed in Loci (Settings → allowed folders, or `loci ingest allow <folder>`) are read; anything else is refused. Returns what happened to each file.",
      ...fromContract(
        'ingest.files',
        ['tags', 'store'],
        {
          tags: 'Extra tags for every memory made from it.',
        }, // The contract takes `paths` (a list); a tool call reads one path, of the same type.
        z.strictObject({
          path: ingestPath.describe(
            'The absolute path of the file or folder, inside an allowed folder.',
          ),
        }),
      ),
      annotations: write,
      async run(client, a) {
        const r = await client.call(
          'ingest.files',
          withStore(
            a,
            {
              paths: [a.path as string],
              ...(a.tags ? { tags: a.tags as string[] } : {}),
            },
            defaultStore,
          ),
        );
        const t = r.totals;
        const lines = r.files.map(
          (f) =>
            `- ${f.path}: ${f.status}${f.format ? ` (${f.format})` : ''}${f.status === 'ingested' ? `, ${f.chunks} chunks, document ${f.document_id}${f.quarantined ? `, ${f.quarantined} quarantined` : ''}` : ''}${f.reason ? ` — ${f.reason}` : ''}`,
        );
        return {
          text: `Batch ${r.batch}: ${t.ingested} file${t.ingested === 1 ? '' : 's'} ingested (${t.memories} memories), ${t.skipped} skipped, ${t.failed} failed.\n${lines.slice(0, 50).join('\n')}${lines.length > 50 ? `\n… and ${lines.length - 50} more` : ''}`,
          structured: toolOutput('ingest_file', {
            batch: r.batch,
            store: r.store,
            status: r.status,
            totals: r.totals,
            files: r.files.map((f) => ({
              path: f.path,
              status: f.status,
              format: f.format,
              reason: f.reason,
              chunks: f.chunks,
              document_id: f.document_id,
            })),
          }),
        };
      },
    },
    {
      name: 'import_transcript',
      title: 'Import a session transcript',
      description:
        "Read agent session logs (Claude Code's JSONL transcripts — the `transcript_path` a hook receives —, Codex CLI's rollouts, or the generic JSONL of {role, content, tool, ts, exit} lines) into journals: every turn kept with who said it (USER, TOOL, ACT, SELF), a turn with a credential quarantined, and one episode memory per session (when, where, the first request, files changed, commands with their exit status, outcome). Importing the same file again changes nothing; a session that grew is read again in full. Only paths inside the folders the user allowed are read.",
      ...fromContract('transcript.import', ['paths', 'format', 'store'], {
        paths: 'Absolute paths of transcript files, or folders whose *.jsonl files are read.',
        format: 'auto (default) tells each file by its first lines.',
      }),
      annotations: { ...write, idempotentHint: true },
      async run(client, a, session) {
        const { store: _s, ...rest } = a;
        // With the client's model at hand (sampling), it is asked instead of the configured one.
        const r = await client.call(
          'transcript.import',
          withStore(
            a,
            { ...(rest as { paths: string[] }), model: session.sample ? 'off' : 'auto' },
            defaultStore,
          ),
        );
        if (session.sample) {
          for (const f of r.files) {
            if (f.journal_id && (f.status === 'imported' || f.status === 'replaced')) {
              f.model = await sampleJournal(
                client,
                session.sample,
                f.journal_id,
                r.store,
                undefined,
                { signal: session.signal },
              );
            }
          }
        }
        const lines = r.files.map(
          (f) =>
            `- ${f.path}: ${f.status}${f.format ? ` (${f.format})` : ''}${f.accounting ? `, ${f.accounting.turns} turns, ${f.accounting.skipped_total} lines not readable${f.accounting.quarantined ? `, ${f.accounting.quarantined} quarantined` : ''}` : ''}${f.episode_id ? `, episode ${f.episode_id}` : ''}${f.journal_id ? `, journal ${f.journal_id}` : ''}${f.reason ? ` — ${f.reason}` : ''}${f.model ? `\n  ${modelLine('A model', f.model)}` : ''}`,
        );
        const t = r.totals;
        return {
          text: `${t.imported} imported, ${t.replaced} replaced, ${t.unchanged} unchanged, ${t.failed} failed; distilled: ${r.files.reduce((n, f) => n + (f.distilled?.written ?? 0), 0)} memories written, ${r.files.reduce((n, f) => n + (f.distilled?.proposed ?? 0), 0)} proposed for the user's review.\n${lines.slice(0, 50).join('\n')}${lines.length > 50 ? `\n… and ${lines.length - 50} more` : ''}`,
          structured: toolOutput('import_transcript', {
            store: r.store,
            totals: r.totals,
            files: r.files.map((f) => ({
              path: f.path,
              status: f.status,
              format: f.format,
              session: f.session,
              journal_id: f.journal_id,
              episode_id: f.episode_id,
              turns: f.accounting?.turns ?? 0,
              distilled: f.distilled,
              ...(f.model ? { model: f.model } : {}),
              ...(f.reason ? { reason: f.reason } : {}),
            })),
          }),
        };
      },
    },
    {
      name: 'propose_memories',
      title: 'Propose memories from a session',
      description:
        "Propose memories drawn from a session journal you imported (see the `distill` prompt for the journal's turns). Each candidate needs exact quotes from the journal — character for character, each within one turn — and may claim only what its quotes' classes allow: a measurement only from TOOL output, what the user decided, asked or prefers only from USER words, that something was done only from an ACT or TOOL turn; your own prose (SELF) backs only a memory marked as your judgement. Candidates that pass wait in the user's review inbox; the others are refused with the reason.",
      ...fromContract(
        'journal.propose',
        ['journal_id', 'store'],
        { journal_id: 'The journal (as import_transcript returned it).' },
        z.strictObject({
          candidates: JournalProposeArgsSchema.shape.candidates
            .unwrap()
            .describe('The memories to propose, each with its exact quotes.'),
        }),
      ),
      annotations: write,
      async run(client, a) {
        const { store: _s, ...rest } = a;
        const r = await client.call('journal.propose', withStore(a, rest as never, defaultStore));
        const lines = r.results.map(
          (x, i) =>
            `${i + 1}. ${x.status}${x.review_id ? ` (review item ${x.review_id})` : ''}${x.reasons.length ? `: ${x.reasons.join('; ')}` : ''}`,
        );
        return {
          text: `${r.results.filter((x) => x.status === 'proposed').length} of ${r.results.length} proposed for the user's review.\n${lines.join('\n')}`,
          structured: toolOutput('propose_memories', r),
        };
      },
    },
    {
      name: 'distill_session',
      title: 'Distil a session with a model',
      description:
        "Ask a language model for the memories worth keeping in a session journal you imported: your client's own model when it offers sampling, else the endpoint the user configured (llm.url). Its candidates pass the same evidence gate as yours: exact quotes, each within one turn, claims licensed by who said them; what passes waits in the user's review inbox. With neither model, it says so: then read the journal with the `distill` prompt and propose with propose_memories.",
      ...fromContract('journal.distill', ['id', 'max_windows', 'store'], {
        id: 'The journal (journal_id from import_transcript).',
        max_windows: 'Windows of the journal to hand over, at most (default: distill.max_windows).',
      }),
      annotations: write,
      async run(client, a, session) {
        const { store: _s, ...rest } = a;
        const args = rest as { id: string; max_windows?: number };
        if (session.sample) {
          const m = await sampleJournal(
            client,
            session.sample,
            args.id,
            (a.store as string | undefined) ?? defaultStore,
            args.max_windows,
            session,
          );
          return {
            text: modelLine("Your client's model", m),
            structured: toolOutput('distill_session', {
              via: 'sampling',
              journal_id: args.id,
              ...m,
            }),
          };
        }
        try {
          const m = await client.call('journal.distill', withStore(a, args, defaultStore));
          return {
            text: modelLine('The configured model', m),
            structured: toolOutput('distill_session', { via: 'llm', ...m }),
          };
        } catch (err) {
          if ((err as { code?: string }).code !== 'unavailable') throw err;
          return {
            text: `No model is at hand: your client offers no sampling and the user configured no endpoint (llm.url). Read the journal with the \`distill\` prompt (journal_id ${args.id}) and propose what is worth keeping with propose_memories.`,
            structured: toolOutput('distill_session', { via: 'agent', journal_id: args.id }),
          };
        }
      },
    },
  ];
}
