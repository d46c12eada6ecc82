// graph.atlas answers for the Atlas's tests: a small graph with kinds, tags, pins,
// communities and links, shaped exactly like the contract's AtlasResult.
import type { AtlasLink, AtlasNode, AtlasResult } from '../../../../shared/api';

/** A ULID-shaped id for node n (the contract's ids are 26 Crockford characters). */
export function nodeId(n: number): string {
  return `01J${String(n).padStart(23, '0')}`;
}

export function atlasNode(n: number, overrides: Partial<AtlasNode> = {}): AtlasNode {
  return {
    id: nodeId(n),
    title: `Memory ${n}`,
    kind: 'semantic',
    activation: null,
    retrievability: null,
    pinned: false,
    trust: 'trusted',
    tags: [],
    community: n,
    degree: 0,
    ...overrides,
  };
}

/** Fills in `degree` from the links, as the engine does. */
export function atlasFixture(
  nodes: AtlasNode[],
  links: [number, number, number?][] = [],
  overrides: Partial<AtlasResult> = {},
): AtlasResult {
  const atlasLinks: AtlasLink[] = links.map(([a, b, w]) => ({
    from: nodeId(a),
    to: nodeId(b),
    type: 'related',
    weight: w ?? 0.5,
  }));
  const degree = new Map<string, number>();
  for (const l of atlasLinks) {
    degree.set(l.from, (degree.get(l.from) ?? 0) + 1);
    degree.set(l.to, (degree.get(l.to) ?? 0) + 1);
  }
  return {
    store: 'default',
    nodes: nodes.map((n) => ({ ...n, degree: degree.get(n.id) ?? 0 })),
    links: atlasLinks,
    communities: new Set(nodes.map((n) => n.community)).size,
    community_names: {},
    layout: 'links',
    total: nodes.length,
    truncated: false,
    ...overrides,
  };
}

/** The small project graph most tests use: two linked clusters and an unlinked memory. */
export function smallAtlas(overrides: Partial<AtlasResult> = {}): AtlasResult {
  return atlasFixture(
    [
      atlasNode(0, {
        title: 'Deploys go through ops/deploy.sh',
        kind: 'procedural',
        tags: ['deploy', 'ops'],
        activation: 1.2,
        retrievability: 0.9,
        pinned: true,
        community: 0,
      }),
      atlasNode(1, {
        title: 'Rolling back a release',
        kind: 'procedural',
        tags: ['deploy'],
        activation: 0.4,
        retrievability: 0.7,
        community: 0,
      }),
      atlasNode(2, {
        title: 'Migrations run before the deploy',
        kind: 'semantic',
        tags: ['database'],
        activation: -0.5,
        community: 0,
      }),
      atlasNode(3, {
        title: 'Postgres 16 with logical replicas',
        kind: 'semantic',
        tags: ['database', 'architecture'],
        activation: 0.1,
        community: 1,
      }),
      atlasNode(4, {
        title: 'The team prefers small pull requests',
        kind: 'affective',
        tags: ['team'],
        community: 1,
      }),
      atlasNode(5, { title: 'Buy milk', kind: 'prospective', community: 2 }),
    ],
    [
      [0, 1, 0.9],
      [0, 2, 0.6],
      [1, 2, 0.3],
      [3, 4, 0.5],
      [2, 3, 0.1],
    ],
    overrides,
  );
}
