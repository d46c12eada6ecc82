// The messages between the Atlas view and its layout (a Web Worker, or the same code
// time-sliced on the main thread when workers are unavailable). Plain data only.
//
// Positions travel as one Float32Array per update, two numbers per node in the order of
// the `init` message: [x0, y0, x1, y1, …] (world units). The buffer is transferred, not
// copied, so the sender never touches it again. Every message carries the generation
// of the graph it belongs to: an update for an older graph is dropped.

/** Numbers per node in a positions buffer. */
export const POSITION_STRIDE = 2;

export interface InitMessage {
  type: 'init';
  generation: number;
  /** Starting positions, [x, y] per node (kept ones, and seeds for new ones). */
  positions: Float32Array;
  /** Link endpoints as node indices, [source, target] per link. */
  links: Uint32Array;
  /** Link weights in 0..1, one per link. */
  weights: Float32Array;
  /** How hot to start: 1 for a fresh layout, lower when most nodes keep their place. */
  alpha: number;
  /**
   * Where meaning puts each node ([x, y] per node, NaN for none): the layout pulls each node
   * towards its place instead of towards the centre. Absent: links only.
   */
  targets?: Float32Array;
}

export interface DragMessage {
  type: 'drag';
  generation: number;
  index: number;
  x: number;
  y: number;
}

export interface ReleaseMessage {
  type: 'release';
  generation: number;
  index: number;
}

export interface ReheatMessage {
  type: 'reheat';
  generation: number;
  alpha: number;
}

export interface PauseMessage {
  /** Stop ticking (the view is hidden); `reheat` or `drag` starts again. */
  type: 'pause';
}

export type ToLayout = InitMessage | DragMessage | ReleaseMessage | ReheatMessage | PauseMessage;

export interface TickMessage {
  type: 'tick';
  generation: number;
  positions: Float32Array;
  alpha: number;
  /** The simulation cooled below its minimum alpha and stopped. */
  settled: boolean;
  /** Simulation ticks since `init`. */
  ticks: number;
  /** Milliseconds the last batch of ticks took, divided by their number. */
  tickMs: number;
}

export interface LayoutErrorMessage {
  type: 'error';
  message: string;
}

export type FromLayout = TickMessage | LayoutErrorMessage;

/** A positions buffer for `count` nodes. */
export function allocatePositions(count: number): Float32Array {
  return new Float32Array(count * POSITION_STRIDE);
}

export function positionX(positions: Float32Array, index: number): number {
  return positions[index * POSITION_STRIDE] ?? 0;
}

export function positionY(positions: Float32Array, index: number): number {
  return positions[index * POSITION_STRIDE + 1] ?? 0;
}

export function setPosition(positions: Float32Array, index: number, x: number, y: number): void {
  positions[index * POSITION_STRIDE] = x;
  positions[index * POSITION_STRIDE + 1] = y;
}

/** The number of nodes a positions buffer holds. */
export function positionCount(positions: Float32Array): number {
  return Math.floor(positions.length / POSITION_STRIDE);
}
