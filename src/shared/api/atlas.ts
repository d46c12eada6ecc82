// The contract by domain (atlas): the atlas: the map of memories and their links as the
// observatory draws it.
import type { LinkType, MemoryKind, Trust } from '../schemas';

export interface AtlasNode {
  id: string;
  title: string;
  kind: MemoryKind;
  /** ACT-R base-level activation (null: never used since written). */
  activation: number | null;
  retrievability: number | null;
  pinned: boolean;
  trust: Trust;
  tags: string[];
  /** Community (Louvain over the link graph); memories without links get their own. */
  community: number;
  degree: number;
  /**
   * Where its embedding puts it on a map of meaning (2-D principal components, unit
   * variance); absent when it has no vector yet.
   */
  at?: [number, number];
  /** Credentials masked in the title (a quarantined memory). */
  secrets_hidden?: number;
}

export interface AtlasLink {
  from: string;
  to: string;
  type: LinkType;
  weight: number;
}

export interface AtlasResult {
  store: string;
  nodes: AtlasNode[];
  links: AtlasLink[];
  communities: number;
  /**
   * Names of the biggest communities (id → "migrations · postgres · lock"): their most
   * distinctive title terms. A community without one is left out.
   */
  community_names: Record<string, string>;
  /**
   * `meaning` when most memories have a position from their embeddings (the map starts
   * there and the links refine it); `links` when the layout has only the links to go by.
   */
  layout: 'meaning' | 'links';
  /** Live memories in the store; more than `nodes.length` when the limit cut. */
  total: number;
  truncated: boolean;
}
