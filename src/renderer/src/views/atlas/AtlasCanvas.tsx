// The Atlas's drawing surface: a canvas run by AtlasStage (layout, camera, drawing), the
// hover card, the layout status and the optional FPS overlay. React passes data in;
// frames never wait for a React render.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { AtlasModel } from './model';
import { HoverCard } from './HoverCard';
import { AtlasStage, type HostFactory } from './stage';
import { clearStats, type AtlasStats } from './stats';
import type { ColourMode } from './style';
import { readThemeColours, useSchemeVersion } from './themeColours';

export interface FitRequest {
  /** Bumped for each request. */
  seq: number;
  /** Fit only these nodes (search matches), or everything drawn. */
  mask: Uint8Array | null;
}

export interface AtlasCanvasProps {
  model: AtlasModel;
  visible: Uint8Array;
  highlight: Uint8Array | null;
  colourMode: ColourMode;
  fit: FitRequest;
  /** The canvas's accessible name: a summary of what is drawn. */
  label: string;
  /** Id of the text that explains the controls. */
  describedBy: string;
  showStats: boolean;
  onOpen(id: string): void;
  /** Drawn over the canvas (the legend). */
  children?: ReactNode;
  /** For tests: where the layout runs (default: a worker, else the main thread). */
  hostFactory?: HostFactory;
}

interface Hover {
  index: number;
  x: number;
  y: number;
}

function formatStats(s: AtlasStats): string[] {
  return [
    `${s.fps.toFixed(0)} fps · ${s.drawMs.toFixed(1)} ms/frame`,
    `${s.nodes.toLocaleString()} nodes · ${s.links.toLocaleString()} links`,
    `drawn ${s.drawnNodes.toLocaleString()} · ${s.drawnLinks.toLocaleString()}${
      s.linkLimit !== null ? ` (strongest ${s.linkLimit.toLocaleString()} while moving)` : ''
    }`,
    `${s.settled ? 'settled' : 'laying out'} · ${s.ticks} ticks · ${s.tickMs.toFixed(1)} ms/tick`,
    s.offThread ? 'layout in a worker' : 'layout on the main thread',
  ];
}

export function AtlasCanvas(props: AtlasCanvasProps) {
  const { model, visible, highlight, colourMode, fit, showStats, onOpen } = props;
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const probeRef = useRef<HTMLSpanElement>(null);
  const stageRef = useRef<AtlasStage | null>(null);
  const modelRef = useRef(model);
  const openRef = useRef(onOpen);
  const [hover, setHover] = useState<Hover | null>(null);
  const [stats, setStats] = useState<AtlasStats | null>(null);
  const [layoutError, setLayoutError] = useState<string | null>(null);
  const scheme = useSchemeVersion();

  useEffect(() => {
    modelRef.current = model;
    openRef.current = onOpen;
  });

  // The stage lives as long as the canvas.
  const { hostFactory } = props;
  useEffect(() => {
    const canvas = canvasRef.current;
    const wrap = wrapRef.current;
    if (!canvas || !wrap) return;
    const stage = new AtlasStage(
      canvas,
      {
        onHover: (index, x, y) => setHover(index >= 0 ? { index, x, y } : null),
        onOpen: (index) => {
          const node = modelRef.current.nodes[index];
          if (node) openRef.current(node.id);
        },
        onLayoutError: setLayoutError,
      },
      hostFactory,
    );
    stageRef.current = stage;
    const measure = () => {
      const rect = wrap.getBoundingClientRect();
      stage.resize(Math.floor(rect.width), Math.floor(rect.height), window.devicePixelRatio || 1);
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(wrap);
    // A window dragged to another screen changes the pixel ratio, not the size.
    const dprQuery =
      typeof window.matchMedia === 'function'
        ? window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`)
        : null;
    dprQuery?.addEventListener('change', measure);
    const onVisibility = () => stage.setActive(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      observer?.disconnect();
      dprQuery?.removeEventListener('change', measure);
      document.removeEventListener('visibilitychange', onVisibility);
      stage.dispose();
      stageRef.current = null;
      clearStats();
    };
  }, [hostFactory]);

  useEffect(() => {
    setLayoutError(null);
    stageRef.current?.setModel(model);
  }, [model]);

  useEffect(() => stageRef.current?.setVisible(visible), [visible]);
  useEffect(() => stageRef.current?.setHighlight(highlight), [highlight]);
  useEffect(() => stageRef.current?.setColourMode(colourMode), [colourMode]);

  useEffect(() => {
    const probe = probeRef.current;
    if (!probe) return;
    const family = window.getComputedStyle(probe).fontFamily || 'sans-serif';
    stageRef.current?.setColours(readThemeColours(probe), `12px ${family}`);
  }, [scheme]);

  useEffect(() => {
    if (fit.seq > 0) stageRef.current?.fit(fit.mask);
  }, [fit]);

  // The layout's progress for the status pill, and the overlay's figures.
  useEffect(() => {
    const read = () => {
      const next = stageRef.current?.stats() ?? null;
      setStats((prev) =>
        !showStats && prev && next && prev.settled === next.settled && prev.nodes === next.nodes
          ? prev
          : next,
      );
    };
    read();
    const timer = setInterval(read, 500);
    return () => clearInterval(timer);
  }, [showStats]);

  const node = hover ? model.nodes[hover.index] : undefined;
  const laying = stats !== null && !stats.settled && stats.nodes > 0;
  const width = wrapRef.current?.clientWidth ?? 0;
  const height = wrapRef.current?.clientHeight ?? 0;

  return (
    <div className="atlas-canvas-wrap" ref={wrapRef}>
      <canvas
        ref={canvasRef}
        className="atlas-canvas"
        role="img"
        aria-label={props.label}
        aria-describedby={props.describedBy}
        tabIndex={0}
        data-testid="atlas-canvas"
      />
      <span ref={probeRef} className="atlas-probe" aria-hidden />
      <div className="atlas-zoom" role="group" aria-label="Zoom">
        <button
          type="button"
          className="icon-btn"
          aria-label="Zoom in"
          title="Zoom in (+)"
          onClick={() => stageRef.current?.zoomBy(1.4)}
        >
          +
        </button>
        <button
          type="button"
          className="icon-btn"
          aria-label="Zoom out"
          title="Zoom out (−)"
          onClick={() => stageRef.current?.zoomBy(1 / 1.4)}
        >
          −
        </button>
      </div>
      {props.children}
      {node && hover ? (
        <HoverCard node={node} x={hover.x} y={hover.y} width={width} height={height} />
      ) : null}
      <span className={laying ? 'atlas-status pill' : 'atlas-status visually-hidden'} role="status">
        {laying ? (
          <>
            <span className="spinner spinner-sm" aria-hidden /> Laying out…
          </>
        ) : stats && stats.nodes > 0 ? (
          'Layout settled'
        ) : null}
      </span>
      {layoutError ? (
        <p className="atlas-status atlas-status-error" role="alert">
          The layout stopped: {layoutError}
        </p>
      ) : null}
      {showStats && stats ? (
        <pre className="atlas-stats">{formatStats(stats).join('\n')}</pre>
      ) : null}
    </div>
  );
}
