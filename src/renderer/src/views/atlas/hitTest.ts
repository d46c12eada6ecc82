// Which memory is under the pointer: a uniform grid over the layout's positions (a
// counting sort into cells, rebuilt when positions move), searched around the point.
// Cheaper to build than a quadtree each frame and exact for discs of bounded radius.

const MAX_CELLS = 1 << 16;

export class GridIndex {
  private constructor(
    private readonly positions: Float32Array,
    private readonly radii: Float32Array,
    private readonly maxRadius: number,
    private readonly cell: number,
    private readonly minX: number,
    private readonly minY: number,
    private readonly cols: number,
    private readonly rows: number,
    /** Items of cell c: items[cellStart[c] .. cellStart[c + 1]). */
    private readonly cellStart: Uint32Array,
    private readonly items: Uint32Array,
  ) {}

  /** Indexes the nodes `visible` lets through (all when null). */
  static build(
    positions: Float32Array,
    radii: Float32Array,
    visible: Uint8Array | null,
    maxRadius: number,
  ): GridIndex {
    const n = Math.min(radii.length, Math.floor(positions.length / 2));
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (visible && !visible[i]) continue;
      const x = positions[i * 2]!;
      const y = positions[i * 2 + 1]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      count++;
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
    if (count === 0) {
      return new GridIndex(
        positions,
        radii,
        maxRadius,
        1,
        0,
        0,
        1,
        1,
        new Uint32Array(2),
        new Uint32Array(0),
      );
    }
    const width = maxX - minX + 1e-6;
    const height = maxY - minY + 1e-6;
    // About one node per cell, never smaller than a node, never more than MAX_CELLS cells.
    let cell = Math.max(2 * maxRadius, Math.sqrt((width * height) / count), 1e-3);
    while (Math.ceil(width / cell) * Math.ceil(height / cell) > MAX_CELLS) cell *= 1.5;
    const cols = Math.max(1, Math.ceil(width / cell));
    const rows = Math.max(1, Math.ceil(height / cell));
    const cellOf = new Int32Array(n).fill(-1);
    const cellStart = new Uint32Array(cols * rows + 1);
    for (let i = 0; i < n; i++) {
      if (visible && !visible[i]) continue;
      const x = positions[i * 2]!;
      const y = positions[i * 2 + 1]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      const cx = Math.min(cols - 1, Math.floor((x - minX) / cell));
      const cy = Math.min(rows - 1, Math.floor((y - minY) / cell));
      const c = cy * cols + cx;
      cellOf[i] = c;
      cellStart[c + 1] = cellStart[c + 1]! + 1;
    }
    for (let c = 0; c < cols * rows; c++) cellStart[c + 1] = cellStart[c + 1]! + cellStart[c]!;
    const cursor = cellStart.slice(0, cols * rows);
    const items = new Uint32Array(count);
    for (let i = 0; i < n; i++) {
      const c = cellOf[i]!;
      if (c < 0) continue;
      items[cursor[c]!] = i;
      cursor[c] = cursor[c]! + 1;
    }
    return new GridIndex(
      positions,
      radii,
      maxRadius,
      cell,
      minX,
      minY,
      cols,
      rows,
      cellStart,
      items,
    );
  }

  /**
   * The node whose disc, widened by `slop`, holds (x, y), nearest first by distance to
   * its edge; -1 when none does. World units throughout.
   */
  hit(x: number, y: number, slop = 0): number {
    const reach = this.maxRadius + slop;
    const x0 = Math.max(0, Math.floor((x - reach - this.minX) / this.cell));
    const x1 = Math.min(this.cols - 1, Math.floor((x + reach - this.minX) / this.cell));
    const y0 = Math.max(0, Math.floor((y - reach - this.minY) / this.cell));
    const y1 = Math.min(this.rows - 1, Math.floor((y + reach - this.minY) / this.cell));
    let best = -1;
    let bestGap = Infinity;
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const c = cy * this.cols + cx;
        for (let k = this.cellStart[c]!; k < this.cellStart[c + 1]!; k++) {
          const i = this.items[k]!;
          const dx = this.positions[i * 2]! - x;
          const dy = this.positions[i * 2 + 1]! - y;
          const gap = Math.sqrt(dx * dx + dy * dy) - (this.radii[i] ?? 0);
          if (gap <= slop && gap < bestGap) {
            best = i;
            bestGap = gap;
          }
        }
      }
    }
    return best;
  }
}
