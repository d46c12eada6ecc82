// The read-only facts of a memory: how strong it is now (activation, retrievability, the
// FSRS schedule, appraisal), how it has been used (access history), and where it came
// from (source, owner, trust, validity, evidence). Numbers carry a line on what they mean.
import { routeHref } from '../../lib/router';
import { useState } from 'react';
import type { MemoryView } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { TimeAgo } from '../../components/TimeAgo';
import { formatCount } from '../../lib/format';
import { describeSource } from './model';

const EVIDENCE_HINTS: Record<string, string> = {
  USER: 'said by a person',
  TOOL: 'returned by a tool',
  ACT: 'observed from an action',
  SELF: "the agent's own inference",
};

const RECENT_SHOWN = 8;

function Percent({ value }: { value: number }) {
  const pct = Math.round(value * 100);
  return (
    <span className="mem-meter">
      <span className="bar" aria-hidden>
        <span className="bar-fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="num">{pct}%</span>
    </span>
  );
}

export function StrengthSection({ memory }: { memory: MemoryView }) {
  const { fsrs } = memory;
  const [allAccess, setAllAccess] = useState(false);
  const recent = allAccess ? memory.access.recent : memory.access.recent.slice(0, RECENT_SHOWN);
  return (
    <section className="mem-section" aria-labelledby="mem-strength">
      <h3 id="mem-strength" className="mem-section-title">
        Strength and use
      </h3>
      <dl className="mem-pairs">
        <dt title="The chance it would be recalled now (FSRS)">Retrievability</dt>
        <dd data-field="retrievability">
          {memory.pinned ? (
            <span>pinned: always kept</span>
          ) : memory.retrievability === null ? (
            '—'
          ) : (
            <Percent value={memory.retrievability} />
          )}
        </dd>
        <dt title="ACT-R base-level activation: higher means used more, and more recently">
          Activation
        </dt>
        <dd className="num" data-field="activation">
          {memory.activation === null ? '—' : memory.activation.toFixed(2)}
        </dd>
        <dt>Schedule</dt>
        <dd>
          {fsrs.state}, stability {fsrs.stability.toFixed(1)} d, due <TimeAgo iso={fsrs.due} />
        </dd>
        <dt>Reviews</dt>
        <dd className="num">
          {fsrs.reps} · {fsrs.lapses} {fsrs.lapses === 1 ? 'lapse' : 'lapses'}
        </dd>
        <dt title="How important it seemed when written (0–1)">Salience</dt>
        <dd className="num">{memory.salience.toFixed(2)}</dd>
        <dt title="Emotional tone (−1 to 1) and intensity (0–1)">Valence · arousal</dt>
        <dd className="num">
          {memory.valence.toFixed(2)} · {memory.arousal.toFixed(2)}
        </dd>
        <dt>Used</dt>
        <dd data-field="access-count">
          {memory.access.count === 0 ? (
            'never recalled yet'
          ) : (
            <>
              {formatCount(memory.access.count)} {memory.access.count === 1 ? 'time' : 'times'}
              {memory.access.last_at ? (
                <>
                  , last <TimeAgo iso={memory.access.last_at} />
                </>
              ) : null}
            </>
          )}
        </dd>
      </dl>
      {recent.length ? (
        <>
          <h4 className="mem-subtitle">Recent uses</h4>
          <ol className="mem-access">
            {recent.map((at, i) => (
              <li key={`${at}-${i}`}>
                <TimeAgo iso={at} />
              </li>
            ))}
          </ol>
          {memory.access.recent.length > RECENT_SHOWN ? (
            <Button size="sm" variant="ghost" onClick={() => setAllAccess(!allAccess)}>
              {allAccess ? 'Show fewer' : `Show all ${memory.access.recent.length}`}
            </Button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

export function ProvenanceSection({
  memory,
  onShowSession,
}: {
  memory: MemoryView;
  /** Lists the session's turns in order (the Memories view's filters). */
  onShowSession?: (session: string) => void;
}) {
  return (
    <section className="mem-section" aria-labelledby="mem-provenance">
      <h3 id="mem-provenance" className="mem-section-title">
        Provenance
      </h3>
      <dl className="mem-pairs">
        <dt>Source</dt>
        <dd>
          {describeSource(memory.source)} <code className="mem-code">{memory.source}</code>
        </dd>
        {memory.speaker ? (
          <>
            <dt>Said by</dt>
            <dd>{memory.speaker}</dd>
          </>
        ) : null}
        {memory.occurred_at ? (
          <>
            <dt>Happened</dt>
            <dd>
              <time dateTime={memory.occurred_at} title={memory.occurred_at}>
                {new Date(memory.occurred_at).toLocaleString()}
              </time>
            </dd>
          </>
        ) : null}
        {memory.session ? (
          <>
            <dt>Session</dt>
            <dd>
              <code className="mem-code">{memory.session}</code>{' '}
              {onShowSession ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => onShowSession(memory.session as string)}
                >
                  Show the whole session
                </Button>
              ) : null}
            </dd>
          </>
        ) : null}
        <dt>Written</dt>
        <dd>
          <TimeAgo iso={memory.created_at} />
        </dd>
        <dt>Changed</dt>
        <dd>
          <TimeAgo iso={memory.updated_at} /> · version {memory.version}
        </dd>
        <dt>Visibility</dt>
        <dd>
          {memory.visibility === 'private'
            ? `private to ${memory.owner ? describeSource(memory.owner.replace(/^mcp:/, 'agent:')) : 'its writer'}`
            : 'shared with every agent'}
        </dd>
        <dt>Trust</dt>
        <dd>{memory.trust === 'quarantined' ? 'quarantined (kept from agents)' : 'trusted'}</dd>
        <dt>Layer</dt>
        <dd>{memory.layer.replace('_', ' ')}</dd>
        {memory.aliases?.length ? (
          <>
            <dt>Also known as</dt>
            <dd>{memory.aliases.join(' · ')}</dd>
          </>
        ) : null}
        {memory.valid_from || memory.valid_to ? (
          <>
            <dt>Valid</dt>
            <dd>
              {memory.valid_from ? new Date(memory.valid_from).toLocaleDateString() : '…'} –{' '}
              {memory.valid_to ? new Date(memory.valid_to).toLocaleDateString() : 'now'}
            </dd>
          </>
        ) : null}
        <dt>Id</dt>
        <dd>
          <code className="mem-code">{memory.id}</code>
        </dd>
        <dt>Content hash</dt>
        <dd>
          <code className="mem-code" title={memory.content_hash}>
            {memory.content_hash.slice(0, 16)}…
          </code>
        </dd>
      </dl>
      <h4 className="mem-subtitle">Evidence</h4>
      {memory.evidence.length === 0 ? (
        <p className="muted">No evidence was given when it was written.</p>
      ) : (
        <ul className="mem-evidence">
          {memory.evidence.map((e, i) => (
            <li key={i}>
              <span className="mem-evidence-class" title={EVIDENCE_HINTS[e.class]}>
                {e.class}
              </span>
              <blockquote>{e.quote}</blockquote>
              {e.source ? <EvidenceSource source={e.source} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Where a quote came from; a session's turn (`journal:<id>#<turn>`) opens in Journals. */
function EvidenceSource({ source }: { source: string }) {
  const m = /^journal:([0-9A-HJKMNP-TV-Z]{26})#(\d+)$/.exec(source);
  if (!m) return <span className="muted mem-evidence-source">{source}</span>;
  return (
    <a
      className="muted mem-evidence-source"
      href={routeHref(`/journals/${m[1]}`, { turn: m[2] as string })}
    >
      Session turn {m[2]}
    </a>
  );
}
