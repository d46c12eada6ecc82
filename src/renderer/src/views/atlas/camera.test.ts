import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  clampZoom,
  easeCamera,
  fitBounds,
  MAX_ZOOM,
  MIN_ZOOM,
  pan,
  toScreen,
  toWorld,
  zoomAt,
} from './camera';

describe('camera', () => {
  it('converts between world and screen both ways', () => {
    const camera = { x: 100, y: -40, k: 2.5 };
    const [sx, sy] = toScreen(camera, 12, -3);
    expect([sx, sy]).toEqual([130, -47.5]);
    expect(toWorld(camera, sx, sy)).toEqual([12, -3]);
  });

  it('zooms around the pointer: the world point under it stays put', () => {
    const camera = { x: 10, y: 20, k: 1 };
    const before = toWorld(camera, 300, 200);
    const zoomed = zoomAt(camera, 300, 200, 1.7);
    expect(zoomed.k).toBeCloseTo(1.7);
    const after = toWorld(zoomed, 300, 200);
    expect(after[0]).toBeCloseTo(before[0]);
    expect(after[1]).toBeCloseTo(before[1]);
  });

  it('clamps the zoom', () => {
    expect(clampZoom(1000)).toBe(MAX_ZOOM);
    expect(clampZoom(0)).toBe(MIN_ZOOM);
    expect(zoomAt({ x: 0, y: 0, k: MAX_ZOOM }, 0, 0, 2).k).toBe(MAX_ZOOM);
  });

  it('pans by screen pixels', () => {
    expect(pan({ x: 1, y: 2, k: 3 }, 10, -5)).toEqual({ x: 11, y: -3, k: 3 });
  });

  it('fits the drawn nodes (radii included) into the view, centred', () => {
    const positions = Float32Array.from([-100, 0, 100, 0, 0, 50, 5000, 5000]);
    const radii = Float32Array.from([10, 10, 10, 10]);
    const visible = Uint8Array.from([1, 1, 1, 0]);
    const bounds = boundsOf(positions, radii, visible)!;
    expect(bounds).toEqual({ minX: -110, minY: -10, maxX: 110, maxY: 60 });
    const camera = fitBounds(bounds, 500, 300, 20, 10);
    // 220 wide into 460: 460 / 220; 70 high into 260 is looser.
    expect(camera.k).toBeCloseTo(460 / 220);
    const [cx, cy] = toScreen(camera, 0, 25);
    expect(cx).toBeCloseTo(250);
    expect(cy).toBeCloseTo(150);
    expect(boundsOf(positions, radii, new Uint8Array(4))).toBeNull();
    expect(fitBounds(null, 400, 200)).toEqual({ x: 200, y: 100, k: 1 });
    // A lone node is not blown up past the zoom cap.
    expect(fitBounds({ minX: 0, minY: 0, maxX: 2, maxY: 2 }, 400, 200).k).toBe(2);
  });

  it('eases towards a target without overshooting', () => {
    const from = { x: 0, y: 0, k: 1 };
    const to = { x: 100, y: -100, k: 4 };
    const half = easeCamera(from, to, 0.5);
    expect(half.k).toBeCloseTo(2);
    expect(half.x).toBeCloseTo(50);
    expect(easeCamera(from, to, 1)).toEqual(to);
  });
});
