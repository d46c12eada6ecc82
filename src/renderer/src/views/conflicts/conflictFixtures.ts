// Contract-shaped conflicts for the renderer's tests: the billing port that changed from
// 8080 to 9090, and a negation ("is no longer used").
import type { ConflictListResult, ConflictView } from '../../../../shared/api';
import { summaryFixture } from '../memories/testData';

export const OLDER = 'M0000000000000000000000001';
export const NEWER = 'M0000000000000000000000002';
export const C1 = '01JCONF1C7000000000000000A';
export const C2 = '01JCONF1C7000000000000000B';

const memory = (
  id: string,
  title: string,
  content: string,
  created_at: string,
  over: Partial<ConflictView['older']> = {},
): ConflictView['older'] => ({
  ...summaryFixture(1, { id, title, created_at, updated_at: created_at, kind: 'semantic' }),
  preview: content.slice(0, 160),
  content,
  valid_from: null,
  valid_to: null,
  ...over,
});

export function conflictFixture(over: Partial<ConflictView> = {}): ConflictView {
  return {
    id: C1,
    state: 'open',
    relation: 'contradicting',
    confidence: 0.8,
    spans: [{ kind: 'number', older: '8080', newer: '9090' }],
    older: memory(
      OLDER,
      'Billing port 8080',
      'The billing service listens on port 8080.',
      '2026-03-01T09:00:00.000Z',
    ),
    newer: memory(
      NEWER,
      'Billing port 9090',
      'The billing service listens on port 9090.',
      '2026-03-02T09:00:00.000Z',
    ),
    current: NEWER,
    detected_at: '2026-03-02T09:00:00.100Z',
    detected_by: 'write',
    resolution: null,
    ...over,
  };
}

export function negationFixture(): ConflictView {
  return conflictFixture({
    id: C2,
    relation: 'updating',
    confidence: 0.62,
    spans: [{ kind: 'negation', older: '', newer: 'no longer' }],
    older: memory(
      'M0000000000000000000000003',
      'Redis for sessions',
      'Sessions are cached in Redis.',
      '2026-02-01T09:00:00.000Z',
    ),
    newer: memory(
      'M0000000000000000000000004',
      'Redis dropped',
      'Redis is no longer used for sessions since the move.',
      '2026-03-03T09:00:00.000Z',
    ),
    current: 'M0000000000000000000000004',
    detected_by: 'scan',
  });
}

export function supersededFixture(): ConflictView {
  return conflictFixture({
    state: 'superseded',
    current: NEWER,
    resolution: {
      kind: 'supersede',
      winner: NEWER,
      at: '2026-03-02T09:00:00.000Z',
      by: 'ui',
      decided_at: '2026-03-02T10:00:00.000Z',
    },
  });
}

export function listFixture(conflicts: ConflictView[], open?: number): ConflictListResult {
  return {
    conflicts,
    open: open ?? conflicts.filter((c) => c.state === 'open').length,
    next_cursor: null,
  };
}
