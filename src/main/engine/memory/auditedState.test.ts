import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../audit/chain';
import {
  auditedStateJson,
  createdAuditJson,
  type AuditedState,
  type CreatedAuditData,
} from './remember';

/** The object the audit fingerprinted before auditedStateJson: canonicalJson over this. */
function asObject(state: AuditedState) {
  const { title, content, kind, tags, pinned, visibility, trust, valid_from, valid_to } = state;
  const { occurred_at, session, speaker } = state;
  return {
    title,
    content,
    kind,
    tags,
    pinned,
    visibility,
    trust,
    valid_from,
    valid_to,
    ...(occurred_at !== null ? { occurred_at } : {}),
    ...(session !== null ? { session } : {}),
    ...(speaker !== null ? { speaker } : {}),
  };
}

// Any text, lone surrogates and control characters included.
const text = fc.string({ unit: 'binary', maxLength: 40 });
const time = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const state: fc.Arbitrary<AuditedState> = fc.record({
  title: text,
  content: text,
  kind: fc.constantFrom('semantic', 'episodic', 'procedural', 'note'),
  tags: fc.array(text, { maxLength: 4 }),
  pinned: fc.boolean(),
  visibility: fc.constantFrom('shared', 'private'),
  trust: fc.constantFrom('trusted', 'quarantined', 'unverified'),
  valid_from: time,
  valid_to: time,
  occurred_at: time,
  session: fc.oneof(fc.constant(null), text),
  speaker: fc.oneof(fc.constant(null), text),
});

describe('auditedStateJson', () => {
  it('writes the same bytes as canonicalJson of the audited state', () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(auditedStateJson(s)).toBe(canonicalJson(asObject(s)));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves out a value that is undefined, as canonicalJson does', () => {
    const s = fc.sample(state, { numRuns: 1, seed: 7 })[0] as AuditedState;
    const partial = { ...s, valid_to: undefined, title: undefined } as unknown as AuditedState;
    expect(auditedStateJson(partial)).toBe(canonicalJson(asObject(partial)));
    expect(auditedStateJson(partial)).not.toContain('"title"');
  });

  it('refuses a number JSON has no form for, as canonicalJson does', () => {
    const s = fc.sample(state, { numRuns: 1, seed: 7 })[0] as AuditedState;
    expect(() => auditedStateJson({ ...s, valid_from: Number.NaN })).toThrow(/valid_from is NaN/);
    expect(() => canonicalJson(asObject({ ...s, valid_from: Number.NaN }))).toThrow();
  });
});

const created: fc.Arbitrary<CreatedAuditData> = fc.record(
  {
    new: fc.stringMatching(/^[0-9a-f]{64}$/),
    kind: text,
    source: text,
    trust: fc.constantFrom('trusted', 'quarantined'),
    quarantine_rules: fc.array(text, { maxLength: 3 }),
  },
  { requiredKeys: ['new', 'kind', 'source', 'trust'] },
);

describe('createdAuditJson', () => {
  it('writes the same bytes as canonicalJson of a memory.create entry’s data', () => {
    fc.assert(
      fc.property(created, (d) => {
        expect(createdAuditJson(d)).toBe(canonicalJson({ ...d }));
      }),
      { numRuns: 2000 },
    );
  });
});
