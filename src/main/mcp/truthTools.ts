// The MCP tools of what is true now: `verify` (a claim against memory: supported,
// contradicted or unknown, with the memories that decide it), `conflicts` (the memories
// that seem to disagree, waiting for a decision) and `resolve` (the decision: one
// replaces the other, both hold in their contexts, or not a conflict — and undo).
import { z } from 'zod';
import { LociError } from '../../shared/errors';
import type { ConflictResolveResult, ConflictView, MethodResult } from '../../shared/api';
import { toolOutput } from './structured';
import { fromContract, read, withStore, write, type ToolDefinition } from './toolKit';

/** `resolve`'s structured content: the conflicts decided, or (undo) the one opened again. */
export type ResolveToolOutput = ConflictResolveResult | ConflictView;

const quote = (s: string, max = 160) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function renderConflict(c: ConflictView, i: number): string {
  const spans = c.spans
    .map((s) => `${s.older || '(absent)'} → ${s.newer || '(absent)'}`)
    .join('; ');
  const state =
    c.state === 'open'
      ? `open, ${c.relation === 'updating' ? 'the newer one says things changed' : 'nothing says which holds'}; current until decided: the newer`
      : `${c.state} by ${c.resolution?.by ?? '?'}`;
  return `${i + 1}. conflict ${c.id} (${state}; confidence ${c.confidence.toFixed(2)}; differs: ${spans})\n   older [${c.older.id}] ${quote(c.older.content)}\n   newer [${c.newer.id}] ${quote(c.newer.content)}`;
}

function renderVerify(r: MethodResult<'memory.verify'>): string {
  const lines = r.evidence.slice(0, 6).map((e) => {
    const when = e.current
      ? 'holds now'
      : `no longer holds${e.superseded_by ? ` (replaced by ${e.superseded_by})` : e.valid_to ? ` (until ${e.valid_to.slice(0, 10)})` : ''}`;
    const spans = e.spans.length
      ? `; differs: ${e.spans.map((s) => `${s.older || '(absent)'} vs ${s.newer || '(absent)'}`).join(', ')}`
      : '';
    return `- ${e.stance} [${e.id}] ${quote(e.content)} (${when}${spans})`;
  });
  return `${r.verdict.toUpperCase()} (confidence ${r.confidence.toFixed(2)}): ${r.basis}.${lines.length ? `\n${lines.join('\n')}` : ''}${r.verdict === 'unknown' ? '\nMemory does not settle this: say so rather than guess.' : ''}`;
}

export function truthTools(defaultStore?: string): ToolDefinition[] {
  return [
    {
      name: 'verify',
      title: 'Verify a claim',
      description:
        'Check a statement against memory before relying on it or repeating it: answers `supported`, `contradicted` or `unknown`, with the memories that decide it (and whether each still holds — a superseded one is listed as past), the differing values, and a calibrated confidence. `unknown` means memory says nothing that holds now about it: do not guess. `as_of` judges it at another time.',
      ...fromContract('memory.verify', ['claim', 'as_of', 'store'], {
        claim:
          'One statement of fact, as plain as possible ("The billing service listens on port 8081").',
        as_of: 'Judge it as of this time (ISO 8601) instead of now.',
      }),
      annotations: read,
      async run(client, a) {
        const { store: _s, ...rest } = a;
        const r = await client.call('memory.verify', withStore(a, rest as never, defaultStore));
        return { text: renderVerify(r), structured: toolOutput('verify', r) };
      },
    },
    {
      name: 'conflicts',
      title: 'Conflicting memories',
      description:
        'Memories that seem to contradict each other (the same subject, other values), found when they were written: each with both texts, the differing values and which one counts as current until someone decides. Decide with `resolve`. `state: "resolved"` lists past decisions.',
      ...fromContract('conflict.list', ['state', 'memory', 'limit', 'store'], {
        state: '"open" (default): waiting for a decision; "resolved"; "all".',
        memory: 'Only the conflicts this memory takes part in.',
      }),
      annotations: read,
      async run(client, a) {
        const { store: _s, ...rest } = a;
        const r = await client.call('conflict.list', withStore(a, rest as never, defaultStore));
        const text = r.conflicts.length
          ? `${r.conflicts.map(renderConflict).join('\n\n')}\n\n(${r.open} open in all${r.next_cursor ? '; more: pass cursor' : ''})`
          : `No ${a.state === 'all' ? '' : `${(a.state as string | undefined) ?? 'open'} `}conflicts.`;
        return { text, structured: toolOutput('conflicts', r) };
      },
    },
    {
      name: 'resolve',
      title: 'Resolve a conflict',
      description:
        'Decide a conflict that `conflicts`, `recall` (conflicts_with) or `remember` named: "supersede" — one replaces the other (the newer unless `winner` says), the other stops holding at `at` and recall hides it as history; "scope" — both hold, each in its context (`contexts`, tagged context:<label>); "dismiss" — not a conflict. Only when you know (the user said so, or the code shows it); otherwise leave it for the user. Recorded in the audit chain; `undo: true` with one id reverses a decision.',
      ...fromContract(
        'conflict.resolve',
        ['ids', 'resolution', 'winner', 'at', 'contexts', 'reason', 'store'],
        {
          ids: 'The conflict ids (from conflicts, recall or remember).',
          winner: 'supersede: the memory that holds now (default: the newer one).',
          at: 'supersede: when the other stopped holding (ISO 8601; default: when the winner began to, else now).',
          contexts:
            'scope: the context each holds in, e.g. {"older": "staging", "newer": "production"}.',
          reason: 'Why: kept in the audit chain.',
        },
        z.strictObject({
          undo: z
            .boolean()
            .optional()
            .describe(
              'Reverse the decision on the one conflict in `ids` (resolution is then ignored).',
            ),
        }),
      ),
      annotations: { ...write, idempotentHint: false },
      async run(client, a) {
        const { store: _s, undo, ...rest } = a as Record<string, unknown> & { undo?: boolean };
        if (undo) {
          const ids = rest.ids as string[];
          if (ids.length !== 1) {
            throw new LociError('invalid-args', 'undo takes exactly one conflict id in ids');
          }
          const v = await client.call(
            'conflict.reopen',
            withStore(a, { id: ids[0] as string }, defaultStore),
          );
          return {
            text: `Undone: conflict ${v.id} is open again.`,
            structured: toolOutput('resolve', v),
          };
        }
        const r = await client.call('conflict.resolve', withStore(a, rest as never, defaultStore));
        const text = r.resolved
          .map((c) =>
            c.state === 'superseded'
              ? `Conflict ${c.id}: [${c.resolution?.winner}] holds now; the other stopped holding at ${c.resolution?.at} and is history.`
              : c.state === 'scoped'
                ? `Conflict ${c.id}: both hold${c.resolution?.contexts ? ` (${c.resolution.contexts.older} / ${c.resolution.contexts.newer})` : ''}.`
                : `Conflict ${c.id}: dismissed (not a conflict).`,
          )
          .join('\n');
        return { text, structured: toolOutput('resolve', r) };
      },
    },
  ];
}
