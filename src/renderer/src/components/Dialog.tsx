// A modal dialog: rendered over the page in a portal, with the rest of the page made
// inert, focus kept inside (Tab and Shift+Tab wrap), Esc and a click outside to close,
// and focus returned to where it was on close.
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  /** The accessible name (shown as the heading unless `hideTitle`). */
  title: string;
  hideTitle?: boolean;
  /** Focused when the dialog opens; otherwise its first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true',
  );
}

export function Dialog({
  open,
  onClose,
  title,
  hideTitle = false,
  initialFocus,
  className,
  children,
}: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  useLayoutEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const root = panel.current;
    // Everything else on the page becomes inert: unreachable by Tab, pointer and AT.
    const host = root?.closest('.dialog-layer');
    const siblings = host
      ? [...document.body.children].filter((el) => el !== host && !el.hasAttribute('inert'))
      : [];
    for (const el of siblings) el.setAttribute('inert', '');
    const target = initialFocus?.current ?? (root ? focusables(root)[0] : undefined) ?? root;
    target?.focus();
    return () => {
      for (const el of siblings) el.removeAttribute('inert');
      if (previous && previous.isConnected) previous.focus();
    };
  }, [open, initialFocus]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      event.preventDefault();
      closeRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = focusables(panel.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !panel.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !panel.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="dialog-layer">
      <div className="dialog-backdrop" onMouseDown={() => closeRef.current()} aria-hidden />
      <div
        ref={panel}
        className={className ? `dialog ${className}` : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'dialog-title'}>
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
