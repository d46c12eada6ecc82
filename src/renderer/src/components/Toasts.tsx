// The toast stack (bottom right): confirmations and errors that need no answer, some with
// an Undo. Hover or focus holds a toast open; errors are announced assertively.
import { useUiStore, type Toast } from '../stores/uiStore';
import { Button } from './Button';
import { Icon } from './Icon';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useUiStore((s) => s.dismissToast);
  const pause = useUiStore((s) => s.pauseToast);
  const resume = useUiStore((s) => s.resumeToast);
  const runAction = async () => {
    dismiss(toast.id);
    try {
      await toast.action?.run();
    } catch {
      useUiStore
        .getState()
        .toast({ message: `“${toast.action?.label}” did not work.`, tone: 'error' });
    }
  };
  return (
    <li
      className={`toast toast-${toast.tone}`}
      {...(toast.tone === 'error' ? { role: 'alert' } : {})}
      onMouseEnter={() => pause(toast.id)}
      onMouseLeave={() => resume(toast.id)}
      onFocus={() => pause(toast.id)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) resume(toast.id);
      }}
    >
      <Icon name={toast.tone === 'error' ? 'alert' : toast.tone === 'success' ? 'check' : 'info'} />
      <span className="toast-message">{toast.message}</span>
      {toast.action ? (
        <Button size="sm" variant="ghost" className="toast-action" onClick={() => void runAction()}>
          {toast.action.label}
        </Button>
      ) : null}
      <button
        type="button"
        className="icon-btn toast-close"
        aria-label="Dismiss notification"
        onClick={() => dismiss(toast.id)}
      >
        <Icon name="close" size={14} />
      </button>
    </li>
  );
}

export function Toasts() {
  const toasts = useUiStore((s) => s.toasts);
  return (
    <section className="toasts" aria-label="Notifications">
      {/* A region that exists before its toasts, so screen readers announce new ones. */}
      <ol aria-live="polite">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </ol>
    </section>
  );
}
