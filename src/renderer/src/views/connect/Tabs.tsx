// Tabs as the WAI-ARIA pattern has them: a tablist of buttons (arrow keys, Home and End
// move and select; only the selected tab is in the Tab order) and one panel.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  id: string;
  label: ReactNode;
}

export interface TabsProps {
  /** The tablist's accessible name. */
  label: string;
  /** Prefix for element ids (unique on the page). */
  idPrefix: string;
  items: TabItem[];
  selected: string;
  onSelect(id: string): void;
  children: ReactNode;
}

export function Tabs({ label, idPrefix, items, selected, onSelect, children }: TabsProps) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const tabId = (id: string) => `${idPrefix}-tab-${id}`;
  const panelId = `${idPrefix}-panel`;

  const onKeyDown = (event: KeyboardEvent) => {
    const i = items.findIndex((t) => t.id === selected);
    let next = i;
    if (event.key === 'ArrowRight') next = (i + 1) % items.length;
    else if (event.key === 'ArrowLeft') next = (i - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else return;
    event.preventDefault();
    const item = items[next];
    if (!item) return;
    onSelect(item.id);
    refs.current.get(item.id)?.focus();
  };

  return (
    <div className="cv-tabs">
      <div role="tablist" aria-label={label} className="cv-tablist" onKeyDown={onKeyDown}>
        {items.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
              else refs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={tabId(t.id)}
            className="cv-tab"
            aria-selected={t.id === selected}
            aria-controls={panelId}
            tabIndex={t.id === selected ? 0 : -1}
            onClick={() => onSelect(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} className="cv-tabpanel">
        {children}
      </div>
    </div>
  );
}
