// One contradiction candidate: the older and the newer memory side by side (title linking
// to it in Memories, its text with the differing spans marked, when it holds and when it
// was written, which one holds now), how sure the detector is and when it found the
// pair — then either the three decisions, or the decision taken with its Undo.
import { useId, useState, type FormEvent } from 'react';
import type { ConflictView } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { TimeAgo } from '../../components/TimeAgo';
import { routeHref } from '../../lib/router';
import {
  absentSpans,
  CONTEXT_MAX_CHARS,
  contextProblem,
  currentText,
  decisionText,
  detectedByLabel,
  formatWhen,
  highlightSegments,
  localToIso,
  relationHint,
  relationLabel,
  SPAN_KIND_LABEL,
  STATE_LABEL,
  validityText,
  type ResolveChoice,
} from './conflictsModel';

type Side = 'older' | 'newer';

/** A memory's text with the spans that differ marked (colour and a dotted underline). */
function Marked({ conflict, side }: { conflict: ConflictView; side: Side }) {
  const segments = highlightSegments(conflict[side].content, conflict.spans, side);
  return (
    <>
      {segments.map((s, i) =>
        s.mark ? (
          <mark key={i} className={`cf-mark cf-mark-${s.mark}`} title={`Differs (${s.mark})`}>
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

function MemoryPane({ conflict, side }: { conflict: ConflictView; side: Side }) {
  const m = conflict[side];
  const holds =
    conflict.current === m.id || conflict.state === 'scoped' || conflict.state === 'dismissed';
  const replaced = conflict.state === 'superseded' && conflict.current !== m.id;
  const context = conflict.resolution?.contexts?.[side];
  const absent = absentSpans(conflict.spans, side);
  const label = side === 'older' ? 'Older' : 'Newer';
  return (
    <section
      className={`cf-pane${conflict.current === m.id ? ' is-current' : ''}${replaced ? ' is-replaced' : ''}`}
      aria-label={`${label}: ${m.title}`}
      data-side={side}
    >
      <div className="cf-pane-head">
        <span className="cf-side">{label}</span>
        {conflict.current === m.id ? (
          <span className="cf-holds" data-testid={`conflict-${side}-current`}>
            <Icon name="check" size={12} /> holds now
          </span>
        ) : replaced ? (
          <span className="cf-replaced">replaced</span>
        ) : holds && context ? (
          <span className="cf-holds">holds in “{context}”</span>
        ) : null}
        {m.deleted_at ? <span className="mem-flag mem-flag-deleted">forgotten</span> : null}
      </div>
      {m.content.trim() === m.title.trim() ? (
        // A title made from the text: the text itself, marked, is the link.
        <a
          className="cf-title cf-content"
          href={routeHref(`/memories/${m.id}`)}
          data-testid={`conflict-${side}-content`}
        >
          <Marked conflict={conflict} side={side} />
        </a>
      ) : (
        <>
          <a className="cf-title" href={routeHref(`/memories/${m.id}`)}>
            {m.title || m.id}
          </a>
          <p className="cf-content" data-testid={`conflict-${side}-content`}>
            <Marked conflict={conflict} side={side} />
          </p>
        </>
      )}
      {absent.map((s) => (
        <p key={`${s.kind}-${s.older}-${s.newer}`} className="cf-absent">
          <span className="cf-absent-word">{side === 'older' ? s.newer : s.older}</span> is not in
          this one
        </p>
      ))}
      <dl className="cf-dates">
        <div>
          <dt>Holds</dt>
          <dd>{validityText(m.valid_from, m.valid_to)}</dd>
        </div>
        <div>
          <dt>Written</dt>
          <dd>
            {formatWhen(m.created_at)} (<TimeAgo iso={m.created_at} />)
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** "8080 → 9090": what differs, one span at a time. */
export function SpanList({ conflict }: { conflict: ConflictView }) {
  if (!conflict.spans.length) return null;
  return (
    <ul className="cf-spans" aria-label="What differs">
      {conflict.spans.map((s, i) => (
        <li key={i} className="cf-span">
          <span className="cf-span-kind">{SPAN_KIND_LABEL[s.kind]}</span>
          <span className={s.older ? 'cf-span-old' : 'cf-span-none'}>{s.older || 'absent'}</span>
          <Icon name="arrowRight" size={12} />
          <span className={s.newer ? 'cf-span-new' : 'cf-span-none'}>{s.newer || 'absent'}</span>
        </li>
      ))}
    </ul>
  );
}

function SupersedeOptions({
  conflict,
  winner,
  onWinner,
  at,
  onAt,
  reason,
  onReason,
}: {
  conflict: ConflictView;
  winner: Side;
  onWinner: (w: Side) => void;
  at: string;
  onAt: (v: string) => void;
  reason: string;
  onReason: (v: string) => void;
}) {
  const id = useId();
  const badAt = at !== '' && localToIso(at) === null;
  return (
    <div className="cf-options" id={`${id}-options`}>
      <fieldset className="cf-fieldset">
        <legend>Which one holds now</legend>
        <label className="cf-radio">
          <input
            type="radio"
            name={`${id}-winner`}
            checked={winner === 'newer'}
            onChange={() => onWinner('newer')}
          />
          The newer one: “{conflict.newer.title}”
        </label>
        <label className="cf-radio">
          <input
            type="radio"
            name={`${id}-winner`}
            checked={winner === 'older'}
            onChange={() => onWinner('older')}
          />
          The older one: “{conflict.older.title}” (the newer one is wrong)
        </label>
      </fieldset>
      <label className="cf-field">
        <span>
          The {winner === 'newer' ? 'older' : 'newer'} one stopped holding at{' '}
          <span className="muted">(optional: default, when the other began to)</span>
        </span>
        <input
          type="datetime-local"
          className="input"
          value={at}
          aria-invalid={badAt || undefined}
          onChange={(e) => onAt(e.target.value)}
        />
      </label>
      <label className="cf-field">
        <span>
          Why <span className="muted">(optional, kept in the audit log)</span>
        </span>
        <input
          className="input"
          value={reason}
          maxLength={500}
          onChange={(e) => onReason(e.target.value)}
        />
      </label>
    </div>
  );
}

function ScopeForm({
  conflict,
  busy,
  onSubmit,
  onCancel,
}: {
  conflict: ConflictView;
  busy: boolean;
  onSubmit: (contexts: { older: string; newer: string }, reason: string) => void;
  onCancel: () => void;
}) {
  const [older, setOlder] = useState('');
  const [newer, setNewer] = useState('');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const problems = { older: contextProblem(older), newer: contextProblem(newer) };
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (problems.older || problems.newer) return;
    onSubmit({ older: older.trim(), newer: newer.trim() }, reason);
  };
  const field = (side: Side, value: string, set: (v: string) => void, example: string) => (
    <label className="cf-field">
      <span>“{conflict[side].title}” holds in</span>
      <input
        className="input"
        value={value}
        placeholder={example}
        maxLength={CONTEXT_MAX_CHARS}
        aria-invalid={(tried && problems[side] !== null) || undefined}
        aria-describedby={tried && problems[side] ? `${id}-${side}-error` : undefined}
        onChange={(e) => set(e.target.value)}
      />
      {tried && problems[side] ? (
        <span id={`${id}-${side}-error`} className="cf-error">
          {problems[side]}
        </span>
      ) : null}
    </label>
  );
  return (
    <form className="cf-options" aria-label="Both true, in different contexts" onSubmit={submit}>
      <p className="muted">
        Each memory is tagged <code>context:&lt;label&gt;</code>, so recall and agents can tell
        where each one holds.
      </p>
      <div className="cf-scope-grid">
        {field('older', older, setOlder, 'e.g. staging')}
        {field('newer', newer, setNewer, 'e.g. production')}
      </div>
      <label className="cf-field">
        <span>
          Why <span className="muted">(optional, kept in the audit log)</span>
        </span>
        <input
          className="input"
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <div className="cf-actions">
        <Button type="submit" variant="primary" icon="check" busy={busy}>
          Keep both in these contexts
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function OpenActions({
  conflict,
  busy,
  onResolve,
}: {
  conflict: ConflictView;
  busy: string | null;
  onResolve: (choice: ResolveChoice) => void;
}) {
  const [panel, setPanel] = useState<'options' | 'scope' | null>(null);
  const [winner, setWinner] = useState<Side>('newer');
  const [at, setAt] = useState('');
  const [reason, setReason] = useState('');
  const id = useId();
  const badAt = at !== '' && localToIso(at) === null;
  const supersede = () =>
    onResolve({
      resolution: 'supersede',
      ...(winner === 'older' ? { winner: conflict.older.id } : {}),
      ...(at ? { at } : {}),
      ...(reason.trim() ? { reason } : {}),
    });
  return (
    <>
      <div className="cf-actions" role="group" aria-label="Decide">
        <Button
          size="sm"
          variant="primary"
          icon="check"
          busy={busy === 'supersede'}
          disabled={badAt || (busy !== null && busy !== 'supersede')}
          onClick={supersede}
        >
          {winner === 'newer' ? 'Newer replaces older' : 'Older replaces newer'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={panel === 'options'}
          aria-controls={panel === 'options' ? `${id}-panel` : undefined}
          onClick={() => setPanel(panel === 'options' ? null : 'options')}
        >
          {panel === 'options' ? 'Fewer options' : 'Options…'}
        </Button>
        <Button
          size="sm"
          aria-expanded={panel === 'scope'}
          aria-controls={panel === 'scope' ? `${id}-panel` : undefined}
          disabled={busy !== null && busy !== 'scope'}
          onClick={() => setPanel(panel === 'scope' ? null : 'scope')}
        >
          Both true (in different contexts)
        </Button>
        <Button
          size="sm"
          variant="ghost"
          icon="close"
          busy={busy === 'dismiss'}
          disabled={busy !== null && busy !== 'dismiss'}
          onClick={() => onResolve({ resolution: 'dismiss' })}
        >
          Not a conflict
        </Button>
      </div>
      <div id={`${id}-panel`}>
        {panel === 'options' ? (
          <SupersedeOptions
            conflict={conflict}
            winner={winner}
            onWinner={setWinner}
            at={at}
            onAt={setAt}
            reason={reason}
            onReason={setReason}
          />
        ) : panel === 'scope' ? (
          <ScopeForm
            conflict={conflict}
            busy={busy === 'scope'}
            onCancel={() => setPanel(null)}
            onSubmit={(contexts, why) =>
              onResolve({ resolution: 'scope', contexts, ...(why.trim() ? { reason: why } : {}) })
            }
          />
        ) : null}
      </div>
    </>
  );
}

function Decision({
  conflict,
  busy,
  onReopen,
}: {
  conflict: ConflictView;
  busy: boolean;
  onReopen: () => void;
}) {
  const r = conflict.resolution;
  return (
    <div className="cf-decision" data-testid="conflict-decision">
      <p>
        <span className={`cf-state cf-state-${conflict.state}`}>{STATE_LABEL[conflict.state]}</span>{' '}
        {decisionText(conflict)}
        {r ? (
          <span className="muted">
            {' '}
            Decided by {r.by} <TimeAgo iso={r.decided_at} />
            {r.reason ? ` — “${r.reason}”` : ''}.
          </span>
        ) : null}
      </p>
      <Button size="sm" icon="undo" busy={busy} onClick={onReopen}>
        Undo
      </Button>
    </div>
  );
}

export interface ConflictCardProps {
  conflict: ConflictView;
  selected: boolean;
  onSelect: (() => void) | null;
  /** Which action of this card runs ('supersede', 'scope', 'dismiss', 'reopen'), if any. */
  busy: string | null;
  onResolve: (choice: ResolveChoice) => void;
  onReopen: () => void;
  /** The card the address points at (`#/conflicts/<id>`). */
  target?: boolean;
}

export function ConflictCard({
  conflict,
  selected,
  onSelect,
  busy,
  onResolve,
  onReopen,
  target = false,
}: ConflictCardProps) {
  const headingId = `cf-${conflict.id}-title`;
  const open = conflict.state === 'open';
  return (
    <li
      id={`conflict-${conflict.id}`}
      className={`card cf-card${target ? ' is-target' : ''}${selected ? ' is-selected' : ''}`}
      aria-labelledby={headingId}
      data-conflict={conflict.id}
      data-state={conflict.state}
    >
      <div className="cf-card-head">
        {open && onSelect ? (
          <input
            type="checkbox"
            className="cf-check"
            checked={selected}
            onChange={onSelect}
            aria-label={`Select the conflict between “${conflict.older.title}” and “${conflict.newer.title}”`}
          />
        ) : null}
        <div className="cf-card-title">
          <h2 id={headingId} className="cf-h2">
            <span
              className={`cf-relation cf-relation-${conflict.relation}`}
              title={relationHint(conflict.relation)}
            >
              {relationLabel(conflict.relation)}
            </span>
            <span className="truncate">
              {conflict.spans.length
                ? conflict.spans
                    .map((s) => `${s.older || 'absent'} → ${s.newer || 'absent'}`)
                    .join(' · ')
                : `“${conflict.older.title}” and “${conflict.newer.title}”`}
            </span>
          </h2>
          <p className="cf-meta">
            <span className="cf-confidence" title="How sure the detector is that the two conflict">
              <span className="cf-confidence-track" aria-hidden>
                <span
                  className="cf-confidence-fill"
                  style={{ width: `${Math.round(conflict.confidence * 100)}%` }}
                />
              </span>
              <span className="num">{Math.round(conflict.confidence * 100)} %</span> confident
            </span>
            <span>
              · found <TimeAgo iso={conflict.detected_at} /> {detectedByLabel(conflict.detected_by)}
            </span>
          </p>
        </div>
      </div>

      <div className="cf-pair">
        <MemoryPane conflict={conflict} side="older" />
        <span className="cf-pair-arrow" aria-hidden>
          <Icon name="arrowRight" size={18} />
        </span>
        <MemoryPane conflict={conflict} side="newer" />
      </div>

      <div className="cf-foot">
        <SpanList conflict={conflict} />
        <p className="cf-current-text">{currentText(conflict)}</p>
      </div>

      {open ? (
        <OpenActions conflict={conflict} busy={busy} onResolve={onResolve} />
      ) : (
        <Decision conflict={conflict} busy={busy === 'reopen'} onReopen={onReopen} />
      )}
    </li>
  );
}
