// Follows a model download from `models.progressed` events: which file, bytes received of
// how many, and a speed smoothed over the last samples (so the time left does not jump
// about with every chunk). The engine reports per file; the share of the whole download
// counts the bytes of the files done so far against the model's size when the catalogue
// knows it, and counts each file as an equal share when it does not.
import { useCallback, useRef, useState } from 'react';
import type { EventMap } from '../../../../shared/events';
import { useEngineEvent } from '../../lib/useEngineEvent';

export interface InstallProgressView {
  model: string;
  file: string | null;
  index: number;
  files: number;
  received: number;
  total: number | null;
  /** Bytes per second, once measurable. */
  speed: number | null;
  /** Seconds left for the current file, when its size and the speed are known. */
  eta: number | null;
  /** 0–1 over all files, or null before the first event with a size. */
  fraction: number | null;
  /** Bytes received over all files. */
  receivedAll: number;
  /** The model's size in bytes, when the catalogue knows it. */
  size: number | null;
}

interface Sample {
  at: number;
  file: string;
  received: number;
}

export function useInstallProgress(now: () => number = () => performance.now()) {
  const [progress, setProgress] = useState<InstallProgressView | null>(null);
  const model = useRef<string | null>(null);
  const last = useRef<Sample | null>(null);
  const speed = useRef<number | null>(null);
  const size = useRef<number | null>(null);
  /** Bytes of the files finished before the current one. */
  const done = useRef(0);
  const current = useRef<{ file: string; received: number } | null>(null);

  const start = useCallback((id: string, sizeBytes: number | null = null) => {
    model.current = id;
    last.current = null;
    speed.current = null;
    size.current = sizeBytes;
    done.current = 0;
    current.current = null;
    setProgress({
      model: id,
      file: null,
      index: 0,
      files: 0,
      received: 0,
      total: null,
      speed: null,
      eta: null,
      fraction: null,
      receivedAll: 0,
      size: sizeBytes,
    });
  }, []);

  const stop = useCallback(() => {
    model.current = null;
    setProgress(null);
  }, []);

  useEngineEvent('models.progressed', (p: EventMap['models.progressed']) => {
    if (p.model !== model.current) return;
    const t = now();
    if (current.current && current.current.file !== p.file)
      done.current += current.current.received;
    current.current = { file: p.file, received: p.received };
    const prev = last.current;
    if (prev && prev.file === p.file && t - prev.at >= 250 && p.received >= prev.received) {
      const rate = ((p.received - prev.received) / (t - prev.at)) * 1000;
      speed.current = speed.current === null ? rate : speed.current * 0.7 + rate * 0.3;
      last.current = { at: t, file: p.file, received: p.received };
    } else if (!prev || prev.file !== p.file) {
      last.current = { at: t, file: p.file, received: p.received };
    }
    const receivedAll = done.current + p.received;
    const fileFraction = p.total ? Math.min(1, p.received / p.total) : null;
    const fraction = size.current
      ? Math.min(1, receivedAll / size.current)
      : fileFraction === null || p.files === 0
        ? null
        : (p.index - 1 + fileFraction) / p.files;
    const s = speed.current;
    setProgress({
      model: p.model,
      file: p.file,
      index: p.index,
      files: p.files,
      received: p.received,
      total: p.total,
      speed: s,
      eta: s && s > 0 && p.total !== null ? Math.max(0, (p.total - p.received) / s) : null,
      fraction,
      receivedAll,
      size: size.current,
    });
  });

  return { progress, start, stop };
}
