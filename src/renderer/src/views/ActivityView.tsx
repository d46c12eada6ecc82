// Activity: the live feed of calls clients make over MCP (who, which tool, how long, how
// it ended), filterable, with per-client summaries. `#/activity/<id>` opens a call: its
// arguments and exactly what the client received. New calls arrive without a reload;
// while live updates are paused or the list is scrolled down they wait behind a
// "N new calls" button instead of moving the rows.
import { connectEditorAction } from './connect/connectAction';
import { useMemo, useRef, useState } from 'react';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { navigate } from '../lib/router';
import type { ViewProps } from './index';
import {
  applyFilters,
  distinct,
  isFiltered,
  NO_FILTERS,
  summarizeClients,
  type ActivityFilters,
} from './activity/activityModel';
import { ClientChips, FilterBar } from './activity/ActivityToolbar';
import { CallDetail } from './activity/CallDetail';
import { CallsChart } from './activity/CallsChart';
import { FeedTable } from './activity/FeedTable';
import { useActivityFeed } from './activity/useActivityFeed';
import './activity/activity.css';

/** Scrolled further than this from the top, new calls wait rather than push rows down. */
const SCROLL_HOLD_PX = 24;

function NoCalls() {
  return (
    <EmptyState icon="activity" title="No calls yet" {...connectEditorAction()}>
      <p>
        Every call an agent makes over MCP shows up here as it happens: which client, which tool,
        how long it took, and exactly what the agent got back.
      </p>
      <p>
        Connect your editor with <code>loci setup</code> (it writes the MCP entry for Claude Code,
        Cursor, VS Code, Windsurf or Zed), then ask your agent to remember or recall something.
      </p>
    </EmptyState>
  );
}

export default function ActivityView({ rest }: ViewProps) {
  const [paused, setPaused] = useState(false);
  const [scrolledAway, setScrolledAway] = useState(false);
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const feed = useActivityFeed({ hold: paused || scrolledAway });
  const scroller = useRef<HTMLDivElement>(null);
  const opened = rest[0] && /^\d+$/.test(rest[0]) ? Number(rest[0]) : null;

  const summaries = useMemo(() => summarizeClients(feed.items), [feed.items]);
  const actors = useMemo(() => distinct(feed.items, 'actor'), [feed.items]);
  const tools = useMemo(() => distinct(feed.items, 'tool'), [feed.items]);
  const shown = useMemo(() => applyFilters(feed.items, filters), [feed.items, filters]);
  const waiting = feed.pending.length;

  const showNew = () => {
    scroller.current?.scrollTo?.({ top: 0 });
    setScrolledAway(false);
    feed.flush();
  };
  const open = (id: number) => navigate(`/activity/${id}`);
  const empty = !feed.loading && feed.items.length === 0 && waiting === 0;

  return (
    <div className="view act-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Activity</h1>
          <p className="view-subtitle">
            <span className={paused ? 'act-live is-paused' : 'act-live'} aria-hidden />
            {paused ? 'Live updates paused' : 'Live'} · calls by MCP clients to this daemon
          </p>
        </div>
        <div className="act-actions">
          <Button
            size="sm"
            variant={paused ? 'primary' : 'secondary'}
            aria-pressed={paused}
            onClick={() => setPaused((p) => !p)}
          >
            {paused ? `Resume live${waiting ? ` (${waiting})` : ''}` : 'Pause live'}
          </Button>
          <Button size="sm" variant="ghost" icon="refresh" onClick={feed.reload}>
            Refresh
          </Button>
        </div>
      </header>

      {feed.error && feed.items.length ? (
        <ErrorState
          compact
          title="Could not refresh the feed"
          error={feed.error}
          onRetry={feed.reload}
        />
      ) : null}

      {feed.loading && feed.items.length === 0 ? (
        <LoadingState label="Loading the calls…" />
      ) : feed.error && feed.items.length === 0 ? (
        <ErrorState title="Could not load the calls" error={feed.error} onRetry={feed.reload} />
      ) : empty ? (
        <NoCalls />
      ) : (
        <>
          <CallsChart />
          <ClientChips
            summaries={summaries}
            selected={filters.client}
            onSelect={(client) => setFilters((f) => ({ ...f, client }))}
          />
          <FilterBar
            filters={filters}
            onChange={setFilters}
            actors={actors}
            tools={tools}
            shown={shown.length}
            total={feed.items.length}
          />
          <div className={opened !== null ? 'act-layout has-detail' : 'act-layout'}>
            <div className="act-feed-wrap">
              {waiting > 0 ? (
                <button type="button" className="act-new" onClick={showNew} aria-live="polite">
                  {waiting} new call{waiting === 1 ? '' : 's'}
                  {paused ? ' (paused)' : ''} — show
                </button>
              ) : null}
              {shown.length ? (
                <FeedTable
                  items={shown}
                  selected={opened}
                  liveAfter={feed.liveAfter}
                  onOpen={open}
                  scrollRef={scroller}
                  onScroll={(e) => setScrolledAway(e.currentTarget.scrollTop > SCROLL_HOLD_PX)}
                />
              ) : (
                <div className="act-nomatch">
                  <p>No calls match these filters.</p>
                  {isFiltered(filters) ? (
                    <Button size="sm" onClick={() => setFilters(NO_FILTERS)}>
                      Clear filters
                    </Button>
                  ) : null}
                </div>
              )}
            </div>
            {opened !== null ? (
              <CallDetail key={opened} id={opened} onClose={() => navigate('/activity')} />
            ) : (
              <aside className="act-hint" aria-label="About calls">
                <p>
                  Open a call to see the arguments it sent and exactly what the client received: the
                  text the agent read and the structured content.
                </p>
              </aside>
            )}
          </div>
        </>
      )}
    </div>
  );
}
