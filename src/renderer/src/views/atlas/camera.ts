// Pan and zoom: screen = world × k + (x, y), in CSS pixels. Pure functions, so the
// pointer, wheel and keyboard handlers and the auto-fit all agree.

export interface Camera {
  x: number;
  y: number;
  k: number;
}

export const MIN_ZOOM = 0.02;
export const MAX_ZOOM = 12;

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function clampZoom(k: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));
}

export function toWorld(camera: Camera, sx: number, sy: number): [number, number] {
  return [(sx - camera.x) / camera.k, (sy - camera.y) / camera.k];
}

export function toScreen(camera: Camera, wx: number, wy: number): [number, number] {
  return [wx * camera.k + camera.x, wy * camera.k + camera.y];
}

/** Zooms by `factor` keeping the world point under (sx, sy) where it is. */
export function zoomAt(camera: Camera, sx: number, sy: number, factor: number): Camera {
  const k = clampZoom(camera.k * factor);
  const [wx, wy] = toWorld(camera, sx, sy);
  return { k, x: sx - wx * k, y: sy - wy * k };
}

export function pan(camera: Camera, dx: number, dy: number): Camera {
  return { ...camera, x: camera.x + dx, y: camera.y + dy };
}

/** The extent of the nodes `visible` lets through (all when null), radii included. */
export function boundsOf(
  positions: Float32Array,
  radii: Float32Array,
  visible: Uint8Array | null,
): Bounds | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const n = Math.min(radii.length, Math.floor(positions.length / 2));
  for (let i = 0; i < n; i++) {
    if (visible && !visible[i]) continue;
    const x = positions[i * 2]!;
    const y = positions[i * 2 + 1]!;
    const r = radii[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x - r < minX) minX = x - r;
    if (y - r < minY) minY = y - r;
    if (x + r > maxX) maxX = x + r;
    if (y + r > maxY) maxY = y + r;
  }
  return minX <= maxX ? { minX, minY, maxX, maxY } : null;
}

/** The camera that shows `bounds` whole, centred, with `padding` CSS pixels around. */
export function fitBounds(
  bounds: Bounds | null,
  width: number,
  height: number,
  padding = 32,
  maxZoom = 2,
): Camera {
  if (!bounds || width <= 0 || height <= 0) return { x: width / 2, y: height / 2, k: 1 };
  const w = Math.max(1, bounds.maxX - bounds.minX);
  const h = Math.max(1, bounds.maxY - bounds.minY);
  const k = clampZoom(Math.min(maxZoom, (width - 2 * padding) / w, (height - 2 * padding) / h));
  const cx = (bounds.minX + bounds.maxX) / 2;
  const cy = (bounds.minY + bounds.maxY) / 2;
  return { k, x: width / 2 - cx * k, y: height / 2 - cy * k };
}

/** A step of `from` towards `to` (0..1 of the way), for a smooth auto-fit. */
export function easeCamera(from: Camera, to: Camera, t: number): Camera {
  const logK = Math.log(from.k) + (Math.log(to.k) - Math.log(from.k)) * t;
  const k = Math.exp(logK);
  // Interpolate the world point at the centre, not the offsets, so zooming stays steady.
  return {
    k,
    x: from.x + (to.x - from.x) * t,
    y: from.y + (to.y - from.y) * t,
  };
}
