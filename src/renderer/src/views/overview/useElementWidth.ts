// The width of an element, kept current as the layout changes (ResizeObserver), so SVG
// charts draw at their real size instead of being scaled. Before the first measurement
// (and where layout does not exist, as in tests) it is `fallback`.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export function useElementWidth<T extends HTMLElement>(
  fallback = 560,
): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      if (w > 0) setWidth((old) => (old === w ? old : w));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
