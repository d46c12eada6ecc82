// A memory's kind as a small coloured label (the colours are theme tokens, --kind-*).
import type { MemoryKind } from '../../../shared/schemas';

/** Every kind, in the order the observatory lists them (kept in step with the contract). */
export const KINDS = [
  'semantic',
  'episodic',
  'procedural',
  'prospective',
  'affective',
  'schematic',
] as const satisfies readonly MemoryKind[];

// Fails to compile when the contract gains a kind this list lacks.
const _allKinds: Exclude<MemoryKind, (typeof KINDS)[number]> extends never ? true : never = true;
void _allKinds;

export const KIND_HINTS: Record<MemoryKind, string> = {
  semantic: 'facts and knowledge',
  episodic: 'events and experiences',
  procedural: 'how to do things',
  prospective: 'intentions and reminders',
  affective: 'preferences and feelings',
  schematic: 'patterns and abstractions',
};

export function KindBadge({ kind }: { kind: MemoryKind }) {
  return (
    <span className={`kind-badge kind-${kind}`} title={KIND_HINTS[kind]}>
      <span className="kind-dot" aria-hidden />
      {kind}
    </span>
  );
}
