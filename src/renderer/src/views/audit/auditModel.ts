// Pure helpers of the Audit view: filters to call arguments, short hashes, reason text,
// and the export as one JSON Lines file assembled from pages.
import type {
  AuditBreakReason,
  AuditExportResult,
  AuditListResult,
  MethodArgs,
} from '../../../../shared/api';

export interface AuditFilters {
  actor: string;
  action: string;
  /** YYYY-MM-DD (UTC), inclusive. */
  since: string;
  /** YYYY-MM-DD (UTC), inclusive. */
  until: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', since: '', until: '' };

export const PAGE_SIZE = 50;

/** Adds the store to call arguments when one is chosen. */
export function inStore<T extends object>(
  store: string | undefined,
  args: T,
): T & { store?: string } {
  return store ? { ...args, store } : args;
}

export function listArgs(
  store: string | undefined,
  filters: AuditFilters,
  beforeSeq: number | null,
): MethodArgs<'audit.list'> {
  const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();
  return inStore(store, {
    limit: PAGE_SIZE,
    ...(beforeSeq !== null ? { before_seq: beforeSeq } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.since ? { since: `${filters.since}T00:00:00.000Z` } : {}),
    ...(filters.until ? { until: dayAfter(filters.until) } : {}),
  });
}

export const isFiltered = (f: AuditFilters) => Boolean(f.actor || f.action || f.since || f.until);

export const shortHash = (hash: string) => hash.slice(0, 10);

export const REASONS: Record<AuditBreakReason, string> = {
  'payload-changed': 'its content was changed after it was written',
  removed: 'an entry is missing',
  reordered: 'entries were moved',
  'wrong-key': 'its hash was recomputed without the key',
  'key-missing': 'it was signed with a key the key file no longer holds',
  truncated: 'entries at the end were cut off',
  'anchor-mismatch': 'it is not the entry the anchor recorded',
};

/** Memory ids are ULIDs: such targets link to the memory. */
export { isMemoryId } from '../../components/MemoryRef';

/** Actor names as a person reads them: `mcp:cursor` → `cursor (MCP)`. */
export function actorLabel(actor: string): string {
  if (actor.startsWith('mcp:')) return `${actor.slice(4)} (MCP)`;
  return { ui: 'Observatory', cli: 'CLI', system: 'Loci' }[actor] ?? actor;
}

/** Joins export pages into one document: the first header, every entry, the last anchor. */
export function joinExport(pages: AuditExportResult[]): string {
  const out: string[] = [];
  pages.forEach((page, i) => {
    const lines = page.jsonl.trimEnd().split('\n');
    if (i === 0 && lines[0]) out.push(lines[0]);
    out.push(...lines.slice(1, -1));
    if (i === pages.length - 1) {
      const last = lines[lines.length - 1];
      if (last) out.push(last);
    }
  });
  return `${out.join('\n')}\n`;
}

export type AuditPage = AuditListResult;
