// The Atlas's force layout: a d3-force simulation driven tick by tick (never by d3's own
// timer), so the caller decides how long each batch may run. Used inside the layout
// worker and, where workers are unavailable, time-sliced on the main thread. No DOM here.
import {
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type Simulation,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';
import { allocatePositions, positionCount, type InitMessage } from './protocol';

interface LayoutNode extends SimulationNodeDatum {
  index: number;
}

interface LayoutLink extends SimulationLinkDatum<LayoutNode> {
  weight: number;
}

/** The most ticks one batch runs, whatever the clock says. */
const MAX_BATCH = 500;

/** Below this alpha the layout counts as settled (d3's default alphaMin). */
export const ALPHA_MIN = 0.001;

/**
 * Ticks from alpha 1 to ALPHA_MIN: d3's 300 for small graphs, fewer for big ones, whose
 * ticks cost more and whose seeded start (by community) is already close to the end.
 */
export function coolingTicks(nodeCount: number): number {
  if (nodeCount <= 1000) return 300;
  if (nodeCount >= 5000) return 180;
  return Math.round(300 - ((nodeCount - 1000) / 4000) * 120);
}

export class ForceLayout {
  private readonly simulation: Simulation<LayoutNode, LayoutLink>;
  private readonly nodes: LayoutNode[];
  private tickCount = 0;
  private dragging = 0;

  constructor(init: Pick<InitMessage, 'positions' | 'links' | 'weights' | 'alpha' | 'targets'>) {
    const n = positionCount(init.positions);
    this.nodes = Array.from({ length: n }, (_, index) => ({
      index,
      x: init.positions[index * 2] ?? 0,
      y: init.positions[index * 2 + 1] ?? 0,
    }));
    const links: LayoutLink[] = [];
    const m = Math.min(init.weights.length, Math.floor(init.links.length / 2));
    for (let i = 0; i < m; i++) {
      const source = init.links[i * 2] ?? 0;
      const target = init.links[i * 2 + 1] ?? 0;
      if (source >= n || target >= n || source === target) continue;
      links.push({ source, target, weight: init.weights[i] ?? 0.5 });
    }
    // Counted per node for d3's default link strength (1 / the busier end's degree),
    // which keeps hubs from collapsing; stronger links pull harder.
    const degree = new Uint32Array(n);
    for (const l of links) {
      const s = l.source as number;
      const t = l.target as number;
      degree[s] = (degree[s] ?? 0) + 1;
      degree[t] = (degree[t] ?? 0) + 1;
    }
    const big = n > 2000;
    this.simulation = forceSimulation<LayoutNode, LayoutLink>(this.nodes)
      .stop()
      .alpha(init.alpha)
      .alphaMin(ALPHA_MIN)
      .alphaDecay(1 - Math.pow(ALPHA_MIN, 1 / coolingTicks(n)))
      .force(
        'charge',
        forceManyBody<LayoutNode>()
          .strength(big ? -24 : -40)
          // Barnes–Hut accuracy traded for speed on big graphs; far bodies barely matter.
          .theta(big ? 1.1 : 0.9)
          .distanceMax(big ? 320 : 600),
      )
      .force(
        'link',
        forceLink<LayoutNode, LayoutLink>(links)
          .distance((l) => 18 + 24 * (1 - l.weight))
          .strength((l) => {
            const s = degree[(l.source as LayoutNode).index] ?? 1;
            const t = degree[(l.target as LayoutNode).index] ?? 1;
            return (0.4 + 0.6 * l.weight) / Math.max(1, Math.min(s, t));
          }),
      )
      // A weak pull to the centre keeps unlinked memories and small islands in view; with
      // meaning, each memory is pulled towards where its embedding puts it instead, so the
      // map keeps near for similar while the links draw related memories together.
      .force('x', this.anchor(init.targets, 0, big))
      .force('y', this.anchor(init.targets, 1, big));
  }

  private anchor(targets: Float32Array | undefined, axis: 0 | 1, big: boolean) {
    const centre = big ? 0.03 : 0.05;
    const at = (d: LayoutNode) => targets?.[d.index * 2 + axis] ?? Number.NaN;
    const make = axis === 0 ? forceX<LayoutNode> : forceY<LayoutNode>;
    if (!targets) return make(0).strength(centre);
    return make((d) => (Number.isNaN(at(d)) ? 0 : at(d))).strength((d) =>
      Number.isNaN(at(d)) ? centre : 0.12,
    );
  }

  get size(): number {
    return this.nodes.length;
  }

  get ticks(): number {
    return this.tickCount;
  }

  get alpha(): number {
    return this.simulation.alpha();
  }

  /** Cooled down and nobody is dragging: nothing moves until `reheat` or `drag`. */
  get settled(): boolean {
    return this.dragging === 0 && this.simulation.alpha() < ALPHA_MIN;
  }

  /**
   * Runs ticks until `budgetMs` has passed (at least one), the layout settles, or
   * MAX_BATCH ticks ran (a bound that holds even if the clock does not move).
   */
  run(budgetMs: number, now: () => number = () => performance.now()): number {
    const start = now();
    let ran = 0;
    while (!this.settled && ran < MAX_BATCH) {
      this.simulation.tick();
      this.tickCount++;
      ran++;
      if (now() - start >= budgetMs) break;
    }
    return ran;
  }

  /** A fresh copy of the positions, [x, y] per node, for transfer. */
  positions(): Float32Array {
    const out = allocatePositions(this.nodes.length);
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[i] as LayoutNode;
      out[i * 2] = node.x ?? 0;
      out[i * 2 + 1] = node.y ?? 0;
    }
    return out;
  }

  /** Holds a node under the pointer and keeps the layout warm around it. */
  drag(index: number, x: number, y: number): void {
    const node = this.nodes[index];
    if (!node) return;
    if (node.fx == null) this.dragging++;
    node.fx = x;
    node.fy = y;
    this.simulation.alphaTarget(0.25);
    if (this.simulation.alpha() < 0.25) this.simulation.alpha(0.25);
  }

  /** Lets go of a dragged node; the layout cools down again. */
  release(index: number): void {
    const node = this.nodes[index];
    if (!node || node.fx == null) return;
    node.fx = null;
    node.fy = null;
    this.dragging = Math.max(0, this.dragging - 1);
    if (this.dragging === 0) this.simulation.alphaTarget(0);
  }

  reheat(alpha: number): void {
    this.simulation.alpha(Math.max(this.simulation.alpha(), alpha));
  }
}
