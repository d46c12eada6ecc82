// What the Dreams view says about phases, statuses and changes, kept apart from the
// components so the words and the formatting are tested once.
import type { DreamChange, DreamPhaseName, DreamStatus, ReviewKind } from '../../../../shared/api';

export const PHASE_INFO: Record<DreamPhaseName, { label: string; what: string }> = {
  replay: { label: 'Replay', what: 'Links memories used together' },
  cluster: { label: 'Cluster', what: 'Finds communities in the link graph' },
  schema: { label: 'Schema', what: 'Proposes a summary per stable cluster' },
  affect: { label: 'Affect', what: 'Cools arousal over time' },
  decay: { label: 'Decay and prune', what: 'Fades unused links and memories; forgets softly' },
  recombine: { label: 'Recombine', what: 'Proposes links between distant, similar memories' },
  contradict: {
    label: 'Contradictions',
    what: 'Finds memories that say different things about the same subject',
  },
  merge: { label: 'Merge', what: 'Proposes merging near-duplicates' },
  compete: { label: 'Skill competition', what: 'Ranks procedures by their record, per niche' },
  retention: { label: 'Retention', what: 'Trims old versions and logs' },
};

export const KIND_LABEL: Record<ReviewKind, string> = {
  schema: 'Schema summary',
  merge: 'Merge',
  link: 'New link',
  refine: 'Refined procedure',
  distill: 'From a session',
};

export const STATUS_LABEL: Record<DreamStatus, string> = {
  running: 'Running',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
  interrupted: 'Interrupted',
};

export function statusTone(status: DreamStatus | 'skipped'): 'ok' | 'warn' | 'danger' | 'muted' {
  if (status === 'done') return 'ok';
  if (status === 'failed' || status === 'interrupted') return 'danger';
  if (status === 'running') return 'muted';
  return 'warn';
}

/** A before or after value in a few characters: numbers as they are, objects compact. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return String(Math.round(value * 1e4) / 1e4);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `${value.length} items`;
  const o = value as Record<string, unknown>;
  if (Array.isArray(o.members)) return `${o.members.length} members`;
  return Object.entries(o)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? formatValue(v) : String(v)}`)
    .join(', ');
}

/** Memory ids a change's target names (a link `a->b` names two). */
export function targetIds(change: DreamChange): string[] {
  return change.target.split('->').filter((p) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(p));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
