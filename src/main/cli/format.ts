// Human-readable renderings of contract results for the terminal. `--json` bypasses
// all of this and prints the result exactly as the API returns it.
import Table from 'cli-table3';
import type {
  HistoryResult,
  LinkResult,
  ListResult,
  MemorySummary,
  ModelListResult,
  MemoryView,
  MutationResult,
  NeighborsResult,
  RecallResult,
  RememberResult,
  StatsResult,
  StoreListResult,
} from '../../shared/api';
import type { Colors } from './io';
import { formatBytes } from '../../shared/format';

const PLAIN = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

export function table(c: Colors, head: string[], rows: string[][]): string {
  const t = new Table({
    head: head.map((h) => c.bold(h)),
    chars: PLAIN,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    wordWrap: false,
  });
  for (const row of rows) t.push(row);
  return `${t.toString()}\n`;
}

const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');

export function clip(text: string, n: number): string {
  return text.length <= n ? text : `${text.slice(0, n - 1)}…`;
}

export function formatRemember(c: Colors, r: RememberResult): string {
  if (r.duplicate)
    return `${c.yellow('Already remembered')} as ${r.id}${r.quarantined ? ' (quarantined)' : ''}\n`;
  const q = r.quarantined
    ? `\n${c.yellow('Quarantined:')} it looks like it holds a credential, so agents will not see it until you run \`loci promote ${r.id}\`.`
    : '';
  const conflicts = r.conflicts?.length
    ? `\n${c.yellow('Seems to contradict')} ${r.conflicts.map((m) => m.id).join(', ')}: \`loci conflicts\` shows the difference, \`loci resolve ${r.conflicts[0]?.conflict} --supersede\` (or --scope, --dismiss) decides.`
    : '';
  return `${c.green('Remembered')} ${r.id}${q}${conflicts}\n`;
}

export function formatRecall(c: Colors, r: RecallResult): string {
  const lines: string[] = [];
  if (r.abstained) {
    lines.push(c.yellow('Nothing relevant found.'));
  } else {
    r.results.forEach((hit, i) => {
      const flags = [hit.pinned ? 'pinned' : '', hit.quarantined ? 'quarantined' : '']
        .filter(Boolean)
        .join(', ');
      lines.push(
        `${c.bold(`${i + 1}.`)} ${c.bold(hit.title)} ${c.dim(`[${hit.kind}] ${hit.id}  score ${hit.score.toFixed(3)}  confidence ${hit.confidence.toFixed(2)}${flags ? `  ${flags}` : ''}`)}`,
      );
      lines.push(...hit.content.split('\n').map((l) => `   ${l}`));
      const said = [
        hit.speaker ? `said by ${hit.speaker}` : '',
        hit.occurred_at ? hit.occurred_at : '',
        hit.session ? `session ${hit.session}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      const meta = [said, hit.tags.length ? `tags: ${hit.tags.join(', ')}` : '', hit.why]
        .filter(Boolean)
        .join('  ·  ');
      lines.push(`   ${c.dim(meta)}`);
      for (const m of hit.conflicts_with ?? []) {
        lines.push(
          `   ${c.yellow('conflicts with')} ${m.id} ${c.dim(`(${m.current === hit.id ? 'this one' : 'that one'} is current until decided; conflict ${m.conflict})`)}`,
        );
      }
      if (hit.breakdown) lines.push(`   ${c.dim(breakdownLine(hit.breakdown))}`);
    });
  }
  for (const miss of r.near_misses ?? []) {
    lines.push(c.dim(`near miss: ${miss.title} [${miss.id}] ${miss.why}`));
  }
  if (r.trace) {
    lines.push(c.bold('Trace'));
    for (const stage of r.trace.stages) {
      const items = stage.items
        .slice(0, 5)
        .map((i) => `${clip(i.title, 40)} (${i.score})`)
        .join('; ');
      lines.push(
        `  ${stage.name.padEnd(11)} ${String(stage.ms).padStart(7)} ms  ${c.dim(JSON.stringify(stage.detail))}`,
      );
      if (items) lines.push(`              ${items}`);
    }
  }
  const level =
    r.confidence.level === 'low'
      ? c.yellow
      : r.confidence.level === 'high'
        ? c.green
        : (t: string) => t;
  lines.push(
    `${level(`confidence ${r.confidence.level} (${r.confidence.value.toFixed(2)})`)} ${c.dim(`— ${r.confidence.basis}`)}`,
  );
  const notes = [`how: ${r.how}`, `${r.timings.total_ms ?? 0} ms`, `${r.tokens.used} tokens`];
  if (r.timings.embed_ms !== undefined) notes.push(`query embedding ${r.timings.embed_ms} ms`);
  if (r.omitted > 0) notes.push(`${r.omitted} omitted for max_tokens`);
  lines.push(c.dim(notes.join('  ·  ')));
  if (r.hidden_versions) {
    lines.push(
      c.yellow(
        `${r.hidden_versions} older version${r.hidden_versions === 1 ? '' : 's'} hidden: a newer memory supersedes ${r.hidden_versions === 1 ? 'it' : 'them'} (--history shows ${r.hidden_versions === 1 ? 'it' : 'them'}).`,
      ),
    );
  }
  for (const d of r.degraded) lines.push(c.dim(`note: ${d}`));
  return `${lines.join('\n')}\n`;
}

function breakdownLine(b: NonNullable<RecallResult['results'][number]['breakdown']>): string {
  const parts = [
    b.lexical !== null ? `bm25 ${b.lexical} (#${b.lexical_rank})` : 'no word match',
    b.vector !== null ? `vector ${b.vector} (#${b.vector_rank})` : 'no vector match',
    `fused ${b.fused}`,
    `coverage ${b.coverage}`,
    b.speaker ? 'speaker named' : '',
    b.time ? `time ${b.time}` : '',
    b.neighbour ? `neighbour ${b.neighbour}` : '',
    `relevance ${b.relevance}`,
    b.spread ? `spread ${b.spread}` : '',
    `activation ${b.activation ?? '—'}`,
    `retrievability ${b.retrievability ?? '—'}`,
    `salience ${b.salience}`,
    `final ${b.final}`,
  ];
  return parts.filter(Boolean).join(', ');
}

export function formatModels(c: Colors, r: ModelListResult): string {
  const rows = r.models.map((m) => [
    m.id + (m.active ? ' *' : ''),
    m.installed ? 'installed' : 'available',
    String(m.dims),
    m.languages.join(', ') || '—',
    m.size_bytes ? formatBytes(m.size_bytes) : '—',
    m.pinned ? 'pinned' : 'unpinned',
    clip(m.name, 40),
  ]);
  const active =
    r.semantic === 'on'
      ? `in use: ${r.active}`
      : `semantic: off (${r.note ?? 'no model'}); vectors from ${r.active}`;
  return `${table(c, ['model', 'state', 'dims', 'languages', 'size', 'sha256', 'name'], rows)}${c.dim(active)}\n`;
}

export function formatMemory(c: Colors, m: MemoryView): string {
  const rows: [string, string][] = [
    ['id', m.id],
    ['title', m.title],
    ['kind', `${m.kind} (layer ${m.layer})`],
    ['tags', m.tags.join(', ') || '—'],
    ['source', m.source],
    [
      'trust',
      m.trust +
        (m.quarantine_reasons.length ? ` (${m.quarantine_reasons.join(', ')})` : '') +
        (m.secrets_hidden
          ? ` — ${m.secrets_hidden} masked (••••••••): \`loci get --reveal\` shows it, \`loci redact\` removes it`
          : ''),
    ],
    ['visibility', m.visibility + (m.owner ? ` (owner ${m.owner})` : '')],
    ['pinned', m.pinned ? 'yes' : 'no'],
    ['version', String(m.version)],
    ['created', m.created_at],
    ['updated', m.updated_at],
  ];
  if (m.deleted_at) rows.push(['forgotten', m.deleted_at]);
  if (m.valid_from || m.valid_to)
    rows.push(['valid', `${m.valid_from ?? '…'} → ${m.valid_to ?? '…'}`]);
  rows.push(
    ['salience', m.salience.toFixed(2)],
    ['affect', `valence ${m.valence.toFixed(2)}, arousal ${m.arousal.toFixed(2)}`],
    ['activation', m.activation === null ? '—' : m.activation.toFixed(3)],
    ['retrievability', m.retrievability === null ? '—' : m.retrievability.toFixed(3)],
    ['accesses', `${m.access.count}${m.access.last_at ? `, last ${m.access.last_at}` : ''}`],
    ['links', `${m.links.outgoing.length} out, ${m.links.incoming.length} in`],
  );
  const width = Math.max(...rows.map(([k]) => k.length));
  const head = rows.map(([k, v]) => `${c.dim(k.padEnd(width))}  ${v}`).join('\n');
  const evidence = m.evidence.length
    ? `\n\n${c.bold('Evidence')}\n${m.evidence.map((e) => `  [${e.class}] “${e.quote}”${e.source ? ` — ${e.source}` : ''}`).join('\n')}`
    : '';
  const links = [
    ...m.links.outgoing.map((l) => `  → ${l.type} ${l.to} (${l.weight})`),
    ...m.links.incoming.map((l) => `  ← ${l.type} ${l.from} (${l.weight})`),
  ];
  return `${head}\n\n${m.content}${evidence}${links.length ? `\n\n${c.bold('Links')}\n${links.join('\n')}` : ''}\n`;
}

function summaryRow(m: MemorySummary): string[] {
  const flags = [
    m.pinned ? 'P' : '',
    m.trust === 'quarantined' ? 'Q' : '',
    m.deleted_at ? 'D' : '',
    m.visibility === 'private' ? 'private' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [m.id, m.kind, clip(m.title, 60), clip(m.tags.join(', '), 30), day(m.created_at), flags];
}

export function formatList(c: Colors, r: ListResult): string {
  if (r.items.length === 0) return `${c.yellow('No memories match.')} (${r.total} in all)\n`;
  const out = table(
    c,
    ['id', 'kind', 'title', 'tags', 'created', 'flags'],
    r.items.map(summaryRow),
  );
  const more = r.next_cursor ? `  ·  next page: --cursor ${r.next_cursor}` : '';
  return `${out}${c.dim(`${r.items.length} shown of ${r.total}${more}  (flags: P pinned, Q quarantined, D forgotten)`)}\n`;
}

export function formatMutation(c: Colors, r: MutationResult): string {
  const verbs: Record<MutationResult['change'], string> = {
    updated: 'Updated',
    unchanged: 'Nothing changed in',
    forgotten: 'Forgot',
    restored: 'Restored',
    erased: 'Erased',
    promoted: 'Promoted',
    tagged: 'Tagged',
    redacted: 'Redacted the credential in',
  };
  const hint =
    r.change === 'forgotten'
      ? c.dim(`  (undo with \`loci restore ${r.id}\`)`)
      : r.quarantined
        ? c.yellow(
            `  — quarantined: the new text looked like a credential (\`loci promote ${r.id}\` if it is not one)`,
          )
        : '';
  return `${c.green(verbs[r.change])} ${r.id}${r.change === 'erased' ? '' : ` (version ${r.version})`}${hint}\n`;
}

export function formatHistory(c: Colors, r: HistoryResult): string {
  const state = r.current
    ? c.green('holds now')
    : c.yellow(
        r.superseded_by.length
          ? `superseded by ${r.superseded_by.map((l) => l.id).join(', ')}`
          : 'does not hold now',
      );
  const validity =
    r.valid_from || r.valid_to
      ? `, valid ${r.valid_from ? day(r.valid_from) : 'always'} → ${r.valid_to ? day(r.valid_to) : 'now'}`
      : '';
  const head = `${c.bold(r.id)}: version ${r.current_version}, ${state}${validity}\n`;
  const timeline = table(
    c,
    ['when', 'what', ''],
    r.timeline.map((e) => [
      e.at.slice(0, 16).replace('T', ' '),
      e.kind,
      clip(`${e.text}${e.ref ? ` [${e.ref}]` : ''}`, 90),
    ]),
  );
  const versions = r.versions.length
    ? `${c.dim('Earlier versions, newest first')}\n${table(
        c,
        ['version', 'replaced', 'by', 'title', 'content'],
        r.versions.map((v) => [
          String(v.version),
          day(v.changed_at),
          v.actor,
          clip(v.title, 50),
          clip(v.content.replace(/\s+/g, ' '), 60),
        ]),
      )}`
    : c.dim('No earlier versions.\n');
  return `${head}${timeline}${versions}`;
}

export function formatLink(c: Colors, r: LinkResult): string {
  if (r.change === 'removed')
    return `${c.green('Removed')} ${r.count ?? 1} link${(r.count ?? 1) === 1 ? '' : 's'} ${r.from} → ${r.to}\n`;
  return `${c.green(r.change === 'created' ? 'Linked' : 'Updated link')} ${r.from} —${r.type} (${r.weight})→ ${r.to}\n`;
}

export function formatNeighbors(c: Colors, r: NeighborsResult): string {
  if (r.nodes.length === 0) return `${r.root} has no linked memories.\n`;
  const out = table(
    c,
    ['depth', 'id', 'kind', 'title'],
    r.nodes.map((n) => [String(n.depth), n.id, n.kind, clip(n.title, 70)]),
  );
  return `${out}${c.dim(`${r.nodes.length} memories, ${r.edges.length} links${r.truncated ? ' (limit reached)' : ''}`)}\n`;
}

export function formatStores(c: Colors, r: StoreListResult): string {
  const out = table(
    c,
    ['store', 'created', 'path'],
    r.stores.map((s) => [s.name + (s.is_default ? ' (default)' : ''), day(s.created_at), s.path]),
  );
  return `${out}${c.dim(`data directory: ${r.data_dir}`)}\n`;
}

export function formatStats(c: Colors, s: StatsResult): string {
  const kinds = Object.entries(s.memories.by_kind)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const mb = formatBytes;
  const rows: [string, string][] = [
    ['store', s.store],
    [
      'memories',
      `${s.memories.live} live, ${s.memories.deleted} forgotten, ${s.memories.quarantined} quarantined, ${s.memories.pinned} pinned`,
    ],
    ['kinds', kinds || '—'],
    ['links', String(s.links)],
    ['versions', String(s.versions)],
    ['audit entries', String(s.audit_entries)],
    [
      'semantic',
      `${s.vectors.semantic} (${s.vectors.model}: ${s.vectors.embedded} embedded, ${s.vectors.pending} waiting)`,
    ],
    ['oldest', s.oldest ?? '—'],
    ['newest', s.newest ?? '—'],
    [
      'database',
      `${s.database.path} (${mb(s.database.size_bytes)} + ${mb(s.database.wal_bytes)} WAL, schema ${s.database.schema_version}, SQLite ${s.database.sqlite_version})`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${rows.map(([k, v]) => `${c.dim(k.padEnd(width))}  ${v}`).join('\n')}\n`;
}
