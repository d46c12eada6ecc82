// Dreams: consolidation cycles of the current store. "Run now" and "Dry run" with live
// progress (and Cancel); the timeline of cycles, each phase by phase with its changes;
// and the review inbox where what a dream wants to write waits for a person.
import { useEffect, useState } from 'react';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { useEngineClient } from '../lib/engineContext';
import { useEngineEvent } from '../lib/useEngineEvent';
import { toLociError, useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { Tabs } from './connect/Tabs';
import { CycleDetail } from './dreams/CycleDetail';
import { CycleTimeline } from './dreams/CycleTimeline';
import { DreamProgress, type LiveCycle } from './dreams/DreamProgress';
import { plural } from './dreams/dreamsModel';
import { ReviewInbox } from './dreams/ReviewInbox';
import type { ViewProps } from './index';
import './connect/connect.css';
import './dreams/dreams.css';

export default function DreamsView({ query }: ViewProps) {
  const store = useUiStore((s) => s.store) ?? undefined;
  const client = useEngineClient();
  const [tab, setTab] = useState(query.get('tab') === 'inbox' ? 'inbox' : 'cycles');
  const [selected, setSelected] = useState<string | null>(null);
  const [live, setLive] = useState<LiveCycle | null>(null);
  const [starting, setStarting] = useState<'run' | 'dry' | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const list = useEngineQuery(
    'dream.list',
    { ...(store ? { store } : {}), limit: 50 },
    { refreshOn: ['dream.finished', 'review.changed'] },
  );

  // Another store: its own cycles (a chosen cycle of the last store means nothing there).
  useEffect(() => {
    setSelected(null);
    setLive(null);
  }, [store]);

  // A cycle started elsewhere (the scheduler, the CLI, the tray) shows here too.
  const running = list.data?.running ?? null;
  useEffect(() => {
    if (running && !live)
      setLive({
        id: running.id,
        dryRun: running.dry_run,
        phase: running.phase,
        index: 0,
        phases: 9,
        done: 0,
      });
  }, [running, live]);

  useEngineEvent('dream.progressed', (p) => {
    if ((store ?? 'default') !== p.store) return;
    setLive({
      id: p.cycle,
      dryRun: p.dry_run,
      phase: p.phase,
      index: p.phase_index,
      phases: p.phases,
      done: p.step === 'phase-done' ? p.phase_index + 1 : p.phase_index,
    });
  });
  useEngineEvent('dream.finished', (p) => {
    if ((store ?? 'default') !== p.store) return;
    setLive(null);
    setCancelling(false);
    setSelected(p.cycle);
  });

  const start = async (dry: boolean) => {
    setStarting(dry ? 'dry' : 'run');
    const toast = useUiStore.getState().toast;
    try {
      const r = await client.call('dream.run', { ...(store ? { store } : {}), dry_run: dry });
      setSelected(r.id);
      setTab('cycles');
      toast({
        message: `${dry ? 'Dry run' : 'Dream'} ${r.status}: ${plural(r.totals.changes, 'change')}${dry ? ' would be made' : ''}, ${plural(r.totals.proposals, 'proposal')} for review.`,
        tone: r.status === 'done' ? 'success' : 'error',
      });
      list.reload();
    } catch (err) {
      toast({ message: toLociError(err).message, tone: 'error' });
    } finally {
      setStarting(null);
      setLive(null);
    }
  };

  const cancel = async () => {
    if (!live) return;
    setCancelling(true);
    try {
      await client.call('dream.cancel', { id: live.id });
    } catch (err) {
      useUiStore.getState().toast({ message: toLociError(err).message, tone: 'error' });
      setCancelling(false);
    }
  };

  const cycles = list.data?.cycles ?? [];
  const shown = selected ?? cycles[0]?.id ?? null;
  const schedule = list.data?.schedule;
  const pending = list.data?.pending_reviews ?? 0;
  const busy = starting !== null || live !== null;

  return (
    <div className="view dr-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Dreams</h1>
          <p className="view-subtitle">
            {schedule
              ? schedule.enabled
                ? `Consolidates on its own after ${schedule.idle_minutes} idle minutes, at most every ${schedule.interval_hours} h. `
                : 'Scheduled dreams are off (dream.schedule in config.json). '
              : 'Links strengthen, duplicates merge, stale memories fade. '}
            {schedule
              ? schedule.llm.configured
                ? `Language model: ${schedule.llm.model}.`
                : 'No language model configured: summaries are extractive.'
              : null}
          </p>
        </div>
        <div className="dr-header-actions">
          <Button
            icon="eye"
            busy={starting === 'dry'}
            disabled={busy}
            onClick={() => void start(true)}
          >
            Dry run
          </Button>
          <Button
            variant="primary"
            icon="dreams"
            busy={starting === 'run'}
            disabled={busy}
            onClick={() => void start(false)}
          >
            Run now
          </Button>
        </div>
      </header>

      {live ? (
        <DreamProgress live={live} cancelling={cancelling} onCancel={() => void cancel()} />
      ) : null}

      <Tabs
        label="Dreams"
        idPrefix="dr"
        items={[
          { id: 'cycles', label: 'Cycles' },
          { id: 'inbox', label: pending ? `Review inbox (${pending})` : 'Review inbox' },
        ]}
        selected={tab}
        onSelect={setTab}
      >
        {tab === 'inbox' ? (
          <ReviewInbox store={store} />
        ) : list.loading ? (
          <LoadingState label="Loading dream cycles…" />
        ) : list.error && !list.data ? (
          <ErrorState
            title="Could not load the dream cycles"
            error={list.error}
            onRetry={list.reload}
          />
        ) : cycles.length === 0 ? (
          <EmptyState
            icon="dreams"
            title="No dream yet"
            action={{ label: 'Dry run', icon: 'eye', onClick: () => void start(true) }}
          >
            <p>
              A dream replays what was used together, finds clusters, cools arousal, fades what goes
              unused, lets procedures compete, and proposes summaries, links and merges for your
              review. Start with a dry run: it shows what would change and changes nothing.
            </p>
          </EmptyState>
        ) : (
          <div className="dr-split">
            <CycleTimeline cycles={cycles} selected={shown} onSelect={setSelected} />
            {shown ? <CycleDetail key={shown} store={store} id={shown} /> : null}
          </div>
        )}
      </Tabs>
    </div>
  );
}
