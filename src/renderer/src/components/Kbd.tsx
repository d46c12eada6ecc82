// A key or chord as the user's platform names it: ⌘ on Apple devices, Ctrl elsewhere.

export const isApplePlatform = (): boolean =>
  typeof navigator !== 'undefined' &&
  /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);

/** The key that combines with K, ⌘ or Ctrl, as a label. */
export const modKeyLabel = (): string => (isApplePlatform() ? '⌘' : 'Ctrl');

export interface KbdProps {
  /** Keys of one chord, e.g. `['mod', 'K']`; `mod` becomes ⌘ or Ctrl. */
  keys: string[];
}

export function Kbd({ keys }: KbdProps) {
  const names = keys.map((k) => (k === 'mod' ? modKeyLabel() : k));
  return (
    <kbd className="kbd">
      {names.map((k) => (
        <kbd key={k}>{k}</kbd>
      ))}
    </kbd>
  );
}
