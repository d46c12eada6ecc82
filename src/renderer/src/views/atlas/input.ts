// The Atlas's input: pointer, touch, wheel and keyboard gestures on the canvas turned
// into what the stage does (hover, open, drag a node, pan, zoom, fit). Pure gesture
// state lives here; the stage owns the camera, the layout and the drawing.
import { pan, zoomAt, type Camera } from './camera';

/** Pointer travel (CSS px) under which a press is a click, not a drag. */
const CLICK_SLOP = 4;
const KEY_PAN = 64;
const KEY_ZOOM = 1.25;

type Gesture =
  | { kind: 'none' }
  | { kind: 'press-node'; index: number; x: number; y: number }
  | { kind: 'drag-node'; index: number }
  | { kind: 'press-empty'; x: number; y: number }
  | { kind: 'pan'; x: number; y: number }
  | { kind: 'pinch'; distance: number };

/** What the gestures act on (the stage). Coordinates are CSS px in the canvas. */
export interface InputTarget {
  camera(): Camera;
  height(): number;
  /** The memory at this point (-1: none). */
  hitAt(x: number, y: number): number;
  hover(index: number, x: number, y: number): void;
  /** The person moved the camera (the layout stops being followed). */
  moveCamera(next: Camera): void;
  dragNode(index: number, x: number, y: number): void;
  releaseNode(index: number): void;
  open(index: number): void;
  zoomBy(factor: number): void;
  panBy(dx: number, dy: number): void;
  fit(): void;
}

export interface InputHandle {
  /** Whether a node is being dragged (the layout keeps running meanwhile). */
  dragging(): boolean;
  dispose(): void;
}

export function attachInput(canvas: HTMLCanvasElement, target: InputTarget): InputHandle {
  const pointers = new Map<number, { x: number; y: number }>();
  const cleanup: (() => void)[] = [];
  let gesture: Gesture = { kind: 'none' };

  const on = <K extends keyof HTMLElementEventMap>(
    type: K,
    handler: (event: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ) => {
    canvas.addEventListener(type, handler, options);
    cleanup.push(() => canvas.removeEventListener(type, handler, options));
  };
  const local = (event: { clientX: number; clientY: number }): [number, number] => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };
  const twoPointers = () =>
    [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }];
  const endNodeGesture = () => {
    if (gesture.kind === 'drag-node') target.releaseNode(gesture.index);
  };

  on('pointerdown', (event) => {
    if (event.button !== 0) return;
    const [x, y] = local(event);
    pointers.set(event.pointerId, { x, y });
    try {
      canvas.setPointerCapture?.(event.pointerId);
    } catch {
      // A pointer the browser no longer tracks: the gesture works without capture.
    }
    if (pointers.size === 2) {
      const [a, b] = twoPointers();
      endNodeGesture();
      gesture = { kind: 'pinch', distance: Math.hypot(a.x - b.x, a.y - b.y) };
      return;
    }
    const index = target.hitAt(x, y);
    gesture = index >= 0 ? { kind: 'press-node', index, x, y } : { kind: 'press-empty', x, y };
  });

  on('pointermove', (event) => {
    const [x, y] = local(event);
    if (pointers.has(event.pointerId)) pointers.set(event.pointerId, { x, y });
    const g = gesture;
    if (g.kind === 'pinch' && pointers.size === 2) {
      const [a, b] = twoPointers();
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (g.distance > 0) {
        target.moveCamera(
          zoomAt(target.camera(), (a.x + b.x) / 2, (a.y + b.y) / 2, distance / g.distance),
        );
      }
      gesture = { kind: 'pinch', distance };
      return;
    }
    if (
      (g.kind === 'press-node' || g.kind === 'press-empty') &&
      Math.hypot(x - g.x, y - g.y) > CLICK_SLOP
    ) {
      gesture =
        g.kind === 'press-node'
          ? { kind: 'drag-node', index: g.index }
          : { kind: 'pan', x: g.x, y: g.y };
    }
    const now = gesture;
    if (now.kind === 'drag-node') {
      target.dragNode(now.index, x, y);
      return;
    }
    if (now.kind === 'pan') {
      target.moveCamera(pan(target.camera(), x - now.x, y - now.y));
      gesture = { kind: 'pan', x, y };
      return;
    }
    if (now.kind === 'none' && event.pointerType !== 'touch') {
      target.hover(target.hitAt(x, y), x, y);
    }
  });

  const end = (event: PointerEvent, cancelled: boolean) => {
    pointers.delete(event.pointerId);
    if (canvas.hasPointerCapture?.(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    if (gesture.kind === 'press-node' && !cancelled) target.open(gesture.index);
    endNodeGesture();
    gesture = { kind: 'none' };
  };
  on('pointerup', (event) => end(event, false));
  on('pointercancel', (event) => end(event, true));
  on('pointerleave', () => {
    if (gesture.kind === 'none') target.hover(-1, 0, 0);
  });

  on(
    'wheel',
    (event) => {
      event.preventDefault();
      const [x, y] = local(event);
      const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? target.height() : 1;
      // Pinch-zoom on a trackpad arrives as a wheel with ctrlKey and small deltas.
      const speed = event.ctrlKey ? 0.01 : 0.0015;
      target.moveCamera(zoomAt(target.camera(), x, y, Math.exp(-event.deltaY * unit * speed)));
    },
    { passive: false },
  );

  on('dblclick', (event) => {
    const [x, y] = local(event);
    if (target.hitAt(x, y) >= 0) return;
    target.moveCamera(zoomAt(target.camera(), x, y, event.shiftKey ? 0.5 : 2));
  });

  on('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const step = event.shiftKey ? KEY_PAN * 3 : KEY_PAN;
    switch (event.key) {
      case '+':
      case '=':
        target.zoomBy(KEY_ZOOM);
        break;
      case '-':
      case '_':
        target.zoomBy(1 / KEY_ZOOM);
        break;
      case 'ArrowLeft':
        target.panBy(step, 0);
        break;
      case 'ArrowRight':
        target.panBy(-step, 0);
        break;
      case 'ArrowUp':
        target.panBy(0, step);
        break;
      case 'ArrowDown':
        target.panBy(0, -step);
        break;
      case '0':
        target.fit();
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  return {
    dragging: () => gesture.kind === 'drag-node',
    dispose: () => {
      for (const f of cleanup) f();
    },
  };
}
