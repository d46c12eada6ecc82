// The list of memories as an ARIA grid of fixed-height rows, virtualised: only the rows
// on screen (and a few either side) are in the DOM, whatever the length, and the rows
// on screen are what the source fetches. The keyboard cursor is the grid's active
// descendant; selection is each row's aria-selected.
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { Icon } from '../../components/Icon';
import { SecretText } from '../../components/SecretText';
import { KindBadge } from '../../components/KindBadge';
import { TimeAgo } from '../../components/TimeAgo';
import { formatScore } from '../../lib/format';
import { routeHref } from '../../lib/router';
import { useMemoriesStore } from './memoriesStore';
import { describeSource, type MemoryRow } from './model';
import type { RowSource } from './useRowSource';

export const ROW_HEIGHT = 56;
const OVERSCAN = 6;
/** Used until (or where) the list's box cannot be measured. */
const FALLBACK_RECT = { width: 900, height: 600 };

export const rowDomId = (index: number) => `mem-row-${index}`;

/** The element's size, or the fallback while it measures zero (not laid out yet). */
function observeRect(
  instance: Virtualizer<HTMLDivElement, Element>,
  cb: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) =>
    cb(
      rect.height > 0
        ? rect
        : { width: rect.width || FALLBACK_RECT.width, height: FALLBACK_RECT.height },
    ),
  );
}

export interface MemoryListProps {
  source: RowSource;
  openId: string | null;
  label: string;
  onOpen(index: number, options?: { replace?: boolean }): void;
  onToggle(index: number, range: boolean): void;
}

interface RowProps {
  index: number;
  row: MemoryRow | undefined;
  top: number;
  selected: boolean;
  active: boolean;
  open: boolean;
  searching: boolean;
  onRowClick(index: number, event: MouseEvent): void;
  onCheck(index: number, event: MouseEvent): void;
}

const Row = memo(function Row({
  index,
  row,
  top,
  selected,
  active,
  open,
  searching,
  onRowClick,
  onCheck,
}: RowProps) {
  const style = { transform: `translateY(${top}px)`, height: ROW_HEIGHT };
  if (!row) {
    return (
      <div
        id={rowDomId(index)}
        role="row"
        aria-rowindex={index + 1}
        aria-busy="true"
        className="mem-row mem-row-pending"
        style={style}
      >
        <div role="gridcell" className="mem-cell-main">
          <span className="mem-skeleton" />
          <span className="visually-hidden">Loading row {index + 1}</span>
        </div>
      </div>
    );
  }
  const classes = ['mem-row'];
  if (active) classes.push('is-active');
  if (selected) classes.push('is-selected');
  if (open) classes.push('is-open');
  if (row.deleted) classes.push('is-deleted');
  return (
    <div
      id={rowDomId(index)}
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      aria-current={open ? 'true' : undefined}
      className={classes.join(' ')}
      style={style}
      data-id={row.id}
      onClick={(e) => onRowClick(index, e)}
    >
      <div role="gridcell" className="mem-cell-check">
        <input
          type="checkbox"
          tabIndex={-1}
          checked={selected}
          aria-label={`Select “${row.title}”`}
          onClick={(e) => onCheck(index, e)}
          onChange={() => undefined}
        />
      </div>
      <div role="gridcell" className="mem-cell-main">
        <span className="mem-row-title">
          {row.pinned ? <Icon name="pin" size={13} label="Pinned" className="mem-pin" /> : null}
          {row.quarantined ? (
            <Icon name="alert" size={13} label="Quarantined" className="mem-warn" />
          ) : null}
          <a
            href={routeHref(`/memories/${row.id}`)}
            tabIndex={-1}
            className="mem-row-link truncate"
            onClick={(e) => {
              // The row opens it (and handles shift and ctrl); a middle click still works.
              e.preventDefault();
            }}
          >
            <SecretText text={row.title} />
          </a>
          {row.deleted ? <span className="mem-flag mem-flag-deleted">forgotten</span> : null}
          {row.conflicts.length ? (
            <span
              className="mem-flag mem-flag-conflict"
              title={row.conflicts
                .map(
                  (c) =>
                    `Conflicts with …${c.id.slice(-8)}; current: ${c.current === row.id ? 'this one' : 'the other'}`,
                )
                .join('\n')}
            >
              <Icon name="conflicts" size={11} />
              {row.conflicts.some((c) => c.current !== row.id)
                ? 'conflict · not current'
                : 'conflict'}
            </span>
          ) : null}
        </span>
        <span className="mem-row-preview truncate">
          {row.speaker || row.occurred_at ? (
            <span className="mem-said">
              {[row.speaker, row.occurred_at ? saidOn(row.occurred_at) : null]
                .filter(Boolean)
                .join(' · ')}
              {' · '}
            </span>
          ) : null}
          {searching && row.why ? <span className="mem-why">{row.why} · </span> : null}
          <SecretText text={row.preview} />
        </span>
      </div>
      <div role="gridcell" className="mem-cell-tags">
        {row.tags.slice(0, 3).map((t) => (
          <span key={t} className="mem-tag">
            {t}
          </span>
        ))}
        {row.tags.length > 3 ? (
          <span className="mem-tag-more" title={row.tags.slice(3).join(', ')}>
            +{row.tags.length - 3}
          </span>
        ) : null}
      </div>
      <div role="gridcell" className="mem-cell-kind">
        <KindBadge kind={row.kind} />
      </div>
      <div role="gridcell" className="mem-cell-meta">
        {row.score !== null ? (
          <span className="mem-score" title="Recall score (0–1)">
            {formatScore(row.score)}
          </span>
        ) : (
          <>
            <TimeAgo iso={row.created_at} />
            {row.source ? (
              <span className="mem-source truncate" title={row.source}>
                {describeSource(row.source)}
              </span>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
});

/** When a turn was said, short: "2 Mar 2026". */
function saidOn(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}

export function MemoryList({ source, openId, label, onOpen, onToggle }: MemoryListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const cursor = useMemoriesStore((s) => s.cursor);
  const setCursor = useMemoriesStore((s) => s.setCursor);
  const selected = useMemoriesStore((s) => s.selected);
  const count = source.count;

  const virtualizer = useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRect,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? -1;
  const last = items[items.length - 1]?.index ?? -1;

  // What is on screen is what gets fetched.
  const latest = useRef(source);
  latest.current = source;
  useEffect(() => {
    if (first >= 0) latest.current.setRange(first, last);
  }, [first, last, source.identity]);

  // Rows fully in view, for "select all in view".
  const offset = virtualizer.scrollOffset ?? 0;
  const height = virtualizer.scrollRect?.height || FALLBACK_RECT.height;
  const firstVisible = Math.min(count - 1, Math.ceil(offset / ROW_HEIGHT));
  const lastVisible = Math.min(count - 1, Math.floor((offset + height) / ROW_HEIGHT) - 1);
  const setVisible = useMemoriesStore((s) => s.setVisible);
  useEffect(() => {
    setVisible(firstVisible, Math.max(firstVisible, lastVisible));
  }, [firstVisible, lastVisible, setVisible]);

  // A new filter set or query starts at the top.
  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [source.identity, virtualizer]);

  // The cursor stays in view as it moves.
  const clamped = count > 0 ? Math.min(cursor, count - 1) : -1;
  useEffect(() => {
    if (clamped >= 0) virtualizer.scrollToIndex(clamped, { align: 'auto' });
  }, [clamped, virtualizer]);

  const pageRows = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || count === 0) return;
    const moves: Record<string, number> = {
      ArrowDown: clamped + 1,
      ArrowUp: clamped - 1,
      PageDown: clamped + pageRows,
      PageUp: clamped - pageRows,
      Home: 0,
      End: count - 1,
    };
    const to = moves[event.key];
    if (to !== undefined) {
      event.preventDefault();
      const next = Math.max(0, Math.min(count - 1, to));
      if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
        onToggle(next, true);
      }
      setCursor(next);
      if (openId) onOpen(next, { replace: true });
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      onOpen(clamped);
    } else if (event.key === ' ') {
      event.preventDefault();
      onToggle(clamped, event.shiftKey);
    }
  };

  // Handlers stay the same across renders, so rows that did not change do not re-render.
  const handlers = useRef({ onOpen, onToggle, setCursor });
  handlers.current = { onOpen, onToggle, setCursor };
  const stable = useRef({
    onRowClick(index: number, event: MouseEvent) {
      const h = handlers.current;
      if (event.shiftKey) {
        event.preventDefault();
        h.onToggle(index, true);
      } else if (event.ctrlKey || event.metaKey) {
        h.onToggle(index, false);
      } else {
        h.setCursor(index);
        h.onOpen(index);
      }
    },
    onCheck(index: number, event: MouseEvent) {
      event.stopPropagation();
      handlers.current.setCursor(index);
      handlers.current.onToggle(index, event.shiftKey);
    },
  }).current;

  const activeId =
    clamped >= first && clamped <= last && clamped >= 0 ? rowDomId(clamped) : undefined;

  return (
    <div
      ref={scrollRef}
      className="mem-list"
      role="grid"
      aria-label={label}
      aria-rowcount={count}
      aria-colcount={5}
      aria-multiselectable="true"
      aria-activedescendant={activeId}
      aria-busy={source.refreshing || undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="memory-list"
    >
      <div className="mem-list-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const row = source.row(v.index);
          return (
            <Row
              key={v.index}
              index={v.index}
              row={row}
              top={v.start}
              selected={row ? selected.has(row.id) : false}
              active={v.index === clamped}
              open={row ? row.id === openId : false}
              searching={source.mode === 'search'}
              onRowClick={stable.onRowClick}
              onCheck={stable.onCheck}
            />
          );
        })}
      </div>
    </div>
  );
}
