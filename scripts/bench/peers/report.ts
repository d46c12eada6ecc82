// The tables bench:peers prints (Markdown, as the README carries them) and the JSON it
// saves to bench-results/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { opts, root } from './common';
import type { ColdRow } from './cold';
import type { ConversationRow, CorpusRow } from './measure';

export interface Results {
  systems: { name: string; about: string; model: boolean }[];
  /** Systems that could not run here, and why (one line each). */
  skipped: { system: string; why: string }[];
  corpus: CorpusRow[];
  conversations: ConversationRow[];
  cold: ColdRow[];
  /** Phases or runs left out, e.g. for the overall deadline. */
  notes: string[];
}

export const emptyResults = (): Results => ({
  systems: [],
  skipped: [],
  corpus: [],
  conversations: [],
  cold: [],
  notes: [],
});

export function machine(): string {
  const load = spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout.split(' ');
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${load.slice(0, 3).join(' ')} at the end`;
}

const pc = (x: number) => `${Math.round(x * 100)} %`;
const ratio = (a: number | null, b: number | null) =>
  a != null && b != null && b > 0 ? `${(a / b).toFixed(2)}×` : '—';

export function printResults(res: Results): void {
  const out = (s = '') => console.log(s);
  out(`\n${machine()}`);
  if (res.systems.length) {
    out('\nSystems:\n');
    for (const s of res.systems) out(`- **${s.name}**: ${s.about}`);
  }
  for (const s of res.skipped) out(`\n**${s.system} could not run here:** ${s.why}`);
  for (const n of res.notes) out(`\n${n}`);
  if (res.corpus.length) {
    out(
      `\nGenerated corpus: load budget ${opts.loadBudgetS} s, settle budget ${opts.settleBudgetS} s and search budget ${opts.searchBudgetS} s per system and size; ${opts.queries} queries (half quoted phrases, half reordered keywords)\n`,
    );
    out(
      '| system | memories | load (s) | writes/s | search p50 (ms) | search p95 (ms) | RSS (MiB) | hit@10 phrase | hit@10 keywords |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of res.corpus) {
      // A capped load asks only the queries whose memory it loaded.
      const loaded =
        r.loaded < r.size
          ? `${r.loaded.toLocaleString('en')} of ${r.size.toLocaleString('en')} (budget; ${r.usable} queries)`
          : r.size.toLocaleString('en');
      const searches =
        r.search_capped || r.searches < r.usable ? ` (${r.searches} of ${r.usable} asked)` : '';
      out(
        `| ${r.system} | ${loaded} | ${r.load_s} | ${r.writes_per_s} | ${r.p50_ms}${searches} | ${r.p95_ms} | ${r.rss_mib ?? '—'} | ${pc(r.hit_phrase)} | ${pc(r.hit_keywords)} |`,
      );
    }
    for (const r of res.corpus) {
      const bits = [];
      if (r.refused) bits.push(`refused ${r.refused} of ${r.loaded} writes`);
      if (r.settle_s != null)
        bits.push(
          `its background indexing took ${r.settle_s} s to catch up after the load${r.settle_capped ? ' (budget: it had not)' : ''}`,
        );
      if (bits.length) out(`\n${r.system} at ${r.size.toLocaleString('en')}: ${bits.join('; ')}.`);
    }
    out(
      '\nRatios, peer ÷ Loci at the same size (> 1: Loci is faster or smaller; load time per write): a system without a model against Loci (stdio), one with a model against Loci (stdio, model)\n',
    );
    out('| system | memories | against | load time | search p50 | search p95 | RSS |');
    out('|---|---:|---|---:|---:|---:|---:|');
    const modelOf = new Map(res.systems.map((s) => [s.name, s.model]));
    for (const r of res.corpus) {
      if (r.system.startsWith('Loci')) continue;
      const baseName = modelOf.get(r.system) ? 'Loci (stdio, model)' : 'Loci (stdio)';
      const base = res.corpus.find((b) => b.size === r.size && b.system === baseName);
      if (!base) continue;
      out(
        `| ${r.system} | ${r.size.toLocaleString('en')} | ${baseName} | ${ratio(r.load_s / r.loaded, base.load_s / base.loaded)} | ${ratio(r.p50_ms, base.p50_ms)} | ${ratio(r.p95_ms, base.p95_ms)} | ${ratio(r.rss_mib, base.rss_mib)} |`,
      );
    }
  }
  if (res.conversations.length) {
    out(
      `\nConversations (${opts.conversations}): each in a store of its own, one store call per turn, one search per question of categories 1–4; load budget ${opts.convLoadBudgetS} s and search budget ${opts.convSearchBudgetS} s per conversation\n`,
    );
    out(
      '| system | turns stored | questions asked | load (s) | turns/s | search p50 (ms) | hit@10 conversations |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of res.conversations) {
      const stored = r.stored < r.turns ? `${r.stored} of ${r.turns} (budget)` : `${r.stored}`;
      const asked = r.asked < r.questions ? `${r.asked} of ${r.questions}` : `${r.asked}`;
      out(
        `| ${r.system} | ${stored}${r.refused ? ` (${r.refused} refused)` : ''} | ${asked} | ${r.load_s} | ${r.load_s > 0 ? Math.round(r.stored / r.load_s) : '—'} | ${r.p50_ms} | ${r.recall_at_10.toFixed(3)} |`,
      );
    }
  }
  if (res.cold.length) {
    const base = res.cold.find((c) => c.system === 'server-memory')?.tools_list_ms ?? null;
    out(
      `\nCold start: spawn to the first tools/list answer (median of ${opts.coldRuns}, read off the pipe) and to a first search answered (median of ${Math.min(3, opts.coldRuns)}, through the SDK's client), runs interleaved\n`,
    );
    out('| server | tools/list (ms) | ÷ server-memory | first search (ms) |');
    out('|---|---:|---:|---:|');
    for (const c of res.cold)
      out(
        `| ${c.system} | ${c.tools_list_ms ?? `failed: ${c.error}`} | ${ratio(c.tools_list_ms, base)} | ${c.first_search_ms ?? '—'} |`,
      );
  }
}

export function save(name: string, value: unknown): void {
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results', name), `${JSON.stringify(value, null, 2)}\n`);
}
