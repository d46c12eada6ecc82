// The data every spec starts from: three dozen memories of a small team's project, with
// tags, kinds, pins and links, two forgotten and one quarantined (it holds a token), put
// in through the daemon's API like any client would. SEEDED says what the Overview must
// show for it.
import type { MemoryKind } from '../../src/shared/schemas';
import type { Api } from './api';
import { FORGOTTEN, LINKS, MEMORIES } from './seedData';

export { FORGOTTEN, LINKS, MEMORIES };

/** What the Overview shows for this seed: live counts quarantined memories too. */
export const SEEDED = {
  live: MEMORIES.length - FORGOTTEN.length,
  deleted: FORGOTTEN.length,
  quarantined: 1,
  pinned: MEMORIES.filter((m) => m.pinned).length,
  links: LINKS.length,
  byKind: (kind: MemoryKind) =>
    MEMORIES.filter((m) => m.kind === kind && !FORGOTTEN.includes(m.key)).length,
};

export type SeedIds = Record<string, string>;

export async function seed(api: Api): Promise<SeedIds> {
  const { results } = await api('memory.rememberMany', {
    items: MEMORIES.map(({ key: _key, ...m }) => m),
  });
  const ids: SeedIds = {};
  MEMORIES.forEach((m, i) => {
    const id = results[i]?.id;
    if (!id) throw new Error(`seed: no id for ${m.key}`);
    ids[m.key] = id;
  });
  const quarantined = results.filter((r) => r.quarantined).length;
  if (quarantined !== SEEDED.quarantined)
    throw new Error(`seed: expected ${SEEDED.quarantined} quarantined memory, got ${quarantined}`);
  for (const [from, to, type] of LINKS) {
    await api('link.create', {
      from: ids[from] as string,
      to: ids[to] as string,
      type,
      weight: 0.6,
    });
  }
  for (const key of FORGOTTEN) await api('memory.forget', { id: ids[key] as string });
  return ids;
}
