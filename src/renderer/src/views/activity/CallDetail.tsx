// One call of the feed, opened (`activity.get`): who made it, how it ended, the arguments
// it sent, and exactly what the client received — the text as the agent read it and the
// structured content. A recall's results are also drawn as cards linking to the memories,
// with a way to run the same query in the Recall lab as that client, and to mark it for
// the quality lab (a result that was wrong, a memory it missed).
import { useState } from 'react';
import type { ActivityItem } from '../../../../shared/api';
import type { MemoryKind } from '../../../../shared/schemas';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { navigate } from '../../lib/router';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { HitCard } from '../recall/HitCard';
import {
  actorLabel,
  asRecallStructured,
  formatDuration,
  isShortened,
  readReceived,
  type RecallStructured,
} from './activityModel';
import { JsonTree } from './JsonTree';
import { MissedDialog, useRecallMarks, WrongButton, type MarkTarget } from './MarkRecall';

function ReceivedRecall({
  recall,
  target,
}: {
  recall: RecallStructured;
  target: MarkTarget | null;
}) {
  return target ? (
    <MarkableRecall recall={recall} target={target} />
  ) : (
    <RecallResults recall={recall} />
  );
}

function MarkableRecall({ recall, target }: { recall: RecallStructured; target: MarkTarget }) {
  const marks = useRecallMarks(target);
  const [missing, setMissing] = useState(false);
  return (
    <>
      <RecallResults recall={recall} marks={marks} />
      <section className="act-section act-mark" aria-labelledby="act-mark-title">
        <h3 id="act-mark-title" className="act-section-title">
          Quality lab
        </h3>
        <p className="muted">
          Was a result wrong, or is a memory missing? Mark it: <code>loci eval</code> and the
          Quality view then measure every run against what you marked.
          {marks.expected.size + marks.wrong.size > 0
            ? ` Marked for this query: ${marks.expected.size} missed, ${marks.wrong.size} wrong.`
            : ''}
        </p>
        <Button size="sm" icon="search" onClick={() => setMissing(true)} data-testid="mark-missed">
          This recall missed a memory…
        </Button>
        {missing ? (
          <MissedDialog
            open
            onClose={() => setMissing(false)}
            target={target}
            marks={marks}
            returned={recall.results.map((r) => r.id)}
          />
        ) : null}
      </section>
    </>
  );
}

function RecallResults({
  recall,
  marks,
}: {
  recall: RecallStructured;
  marks?: ReturnType<typeof useRecallMarks>;
}) {
  return (
    <section className="act-section" aria-labelledby="act-recall-title">
      <h3 id="act-recall-title" className="act-section-title">
        Recall results
      </h3>
      <p className="act-recall-facts">
        <span className="rl-pill rl-how-hybrid">{recall.how}</span>
        <span className={recall.semantic === 'on' ? 'rl-pill rl-ok' : 'rl-pill rl-warn'}>
          semantic {recall.semantic}
        </span>
        <span className={recall.abstained ? 'rl-pill rl-warn' : 'rl-pill rl-ok'}>
          {recall.abstained
            ? 'abstained'
            : `${recall.results.length} result${recall.results.length === 1 ? '' : 's'}`}
        </span>
        {recall.omitted ? (
          <span className="muted">{recall.omitted} left out for max_tokens</span>
        ) : null}
      </p>
      {recall.results.length ? (
        <ol className="rl-hits">
          {recall.results.map((hit, i) => (
            <HitCard
              key={hit.id}
              hit={{ ...hit, kind: hit.kind as MemoryKind, tags: hit.tags ?? [] }}
              rank={i + 1}
              titles={new Map(recall.results.map((h) => [h.id, h.title]))}
              {...(marks
                ? { actions: <WrongButton marks={marks} id={hit.id} title={hit.title || hit.id} /> }
                : {})}
            />
          ))}
        </ol>
      ) : (
        <p className="muted">The client was told nothing relevant is in memory.</p>
      )}
    </section>
  );
}

/** What a recall call can be marked as, for the quality lab (its query and store). */
function markTarget(item: ActivityItem): MarkTarget | null {
  const args = (item.args ?? {}) as { query?: unknown; store?: unknown };
  if (typeof args.query !== 'string' || args.query.trim() === '') return null;
  return {
    query: args.query,
    store: typeof args.store === 'string' ? args.store : undefined,
    callId: item.id,
  };
}

function Payload({ item }: { item: ActivityItem }) {
  const received = readReceived(item.result);
  const recall = item.ok && item.tool === 'recall' ? asRecallStructured(received.structured) : null;
  const args = item.args;
  const argsShortened = isShortened(args) ? args : null;
  return (
    <>
      <section className="act-section" aria-labelledby="act-args-title">
        <h3 id="act-args-title" className="act-section-title">
          Arguments
        </h3>
        {argsShortened ? (
          <p className="card-note">
            Shortened by the engine: {argsShortened.chars.toLocaleString()} characters, the first{' '}
            {argsShortened.head.length.toLocaleString()} kept.
          </p>
        ) : null}
        {argsShortened ? (
          <pre className="act-pre" tabIndex={0}>
            {argsShortened.head}
          </pre>
        ) : args && typeof args === 'object' && Object.keys(args).length === 0 ? (
          <p className="muted">No arguments.</p>
        ) : (
          <JsonTree value={args} label="Arguments" />
        )}
      </section>

      <section className="act-section" aria-labelledby="act-text-title">
        <h3 id="act-text-title" className="act-section-title">
          {item.ok ? 'What the client received: text' : 'What the client received: the error'}
        </h3>
        {received.shortened ? (
          <p className="card-note">
            The engine shortened this answer ({received.shortened.chars.toLocaleString()}{' '}
            characters): what is shown is its beginning.
          </p>
        ) : null}
        {received.text !== null ? (
          <pre
            className={item.ok ? 'act-pre act-received' : 'act-pre act-received is-error'}
            tabIndex={0}
            aria-label="The text the client received"
            data-testid="received-text"
          >
            {received.text}
          </pre>
        ) : received.shortened ? (
          <pre className="act-pre" tabIndex={0}>
            {received.shortened.head}
          </pre>
        ) : (
          <p className="muted">No text.</p>
        )}
      </section>

      {recall ? <ReceivedRecall recall={recall} target={markTarget(item)} /> : null}

      {item.ok && received.structured !== undefined ? (
        <section className="act-section" aria-labelledby="act-structured-title">
          <h3 id="act-structured-title" className="act-section-title">
            What the client received: structured content
          </h3>
          <JsonTree value={received.structured} label="Structured content" depth={recall ? 1 : 2} />
        </section>
      ) : null}
    </>
  );
}

export function CallDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const { data: item, error, loading, reload } = useEngineQuery('activity.get', { id });
  const args = (item?.args ?? {}) as { query?: unknown };
  const query = typeof args.query === 'string' ? args.query : null;
  const client = item ? actorLabel(item.actor) : '';
  return (
    <section
      className="card act-detail"
      aria-labelledby="act-detail-title"
      data-testid="call-detail"
    >
      <header className="act-detail-head">
        <div className="act-detail-titles">
          <h2 id="act-detail-title" className="act-detail-title">
            {item ? (
              <>
                <code>{item.tool}</code> <span className="muted">by</span> {client}
              </>
            ) : (
              `Call #${id}`
            )}
          </h2>
          {item ? (
            <p className="act-detail-meta">
              <span className={item.ok ? 'rl-pill rl-ok' : 'rl-pill act-err'}>
                {item.ok ? 'ok' : (item.error_code ?? 'error')}
              </span>
              <span className="num">{formatDuration(item.duration_ms)}</span>
              <span>{item.transport}</span>
              <TimeAgo iso={item.at} />
              <span className="muted num">#{item.id}</span>
            </p>
          ) : null}
        </div>
        <button type="button" className="icon-btn" aria-label="Close the call" onClick={onClose}>
          <Icon name="close" size={14} />
        </button>
      </header>
      {item && item.tool === 'recall' && query ? (
        <Button
          size="sm"
          icon="recall"
          className="act-lab"
          onClick={() =>
            navigate('/recall', {
              query: { q: query, ...(item.actor.startsWith('mcp:') ? { as_client: client } : {}) },
            })
          }
        >
          Run it in the Recall lab as {client}
        </Button>
      ) : null}
      {loading ? (
        <LoadingState label="Loading the call…" fill={false} />
      ) : !item ? (
        <ErrorState compact title="Could not load this call" error={error} onRetry={reload} />
      ) : (
        <Payload item={item} />
      )}
    </section>
  );
}
