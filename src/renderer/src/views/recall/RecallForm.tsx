// The Recall lab's query bar and options: limit, kinds, tags, "as of", max tokens and
// "as client" (a known MCP client from the dropdown, or any name typed in). The form
// holds drafts; the lab runs a recall only on submit.
import { useId, useState, type FormEvent } from 'react';
import type { MemoryKind } from '../../../../shared/schemas';
import { Button } from '../../components/Button';
import { KIND_HINTS, KINDS } from '../../components/KindBadge';
import {
  LIMIT_MAX,
  MAX_TOKENS_MAX,
  MAX_TOKENS_MIN,
  optionLabels,
  parseTags,
  QUERY_MAX,
  type RecallOptions,
} from './recallOptions';

export interface RecallFormProps {
  query: string;
  options: RecallOptions;
  onQuery: (query: string) => void;
  onOptions: (options: RecallOptions) => void;
  onSubmit: () => void;
  running: boolean;
  /** Names of MCP clients seen by this daemon, for the "as client" suggestions. */
  clients: string[];
  /** A problem with the draft, shown under the bar. */
  problem: string | null;
}

export function RecallForm({
  query,
  options,
  onQuery,
  onOptions,
  onSubmit,
  running,
  clients,
  problem,
}: RecallFormProps) {
  const id = useId();
  // Tags are edited as text: "deploy, ops" parses on every change, but the text stays as typed.
  const [tagText, setTagText] = useState(options.tags.join(', '));
  const [tagsFor, setTagsFor] = useState(options.tags);
  if (tagsFor !== options.tags && parseTags(tagText).join(',') !== options.tags.join(',')) {
    setTagsFor(options.tags);
    setTagText(options.tags.join(', '));
  }
  const set = <K extends keyof RecallOptions>(key: K, value: RecallOptions[K]) =>
    onOptions({ ...options, [key]: value });
  const toggleKind = (kind: MemoryKind) =>
    set(
      'kinds',
      options.kinds.includes(kind)
        ? options.kinds.filter((k) => k !== kind)
        : [...options.kinds, kind],
    );
  const active = optionLabels(options);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form className="rl-form" onSubmit={submit} role="search" aria-label="Recall">
      <div className="rl-querybar">
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Query
        </label>
        <input
          id={`${id}-q`}
          className="input rl-query"
          type="search"
          value={query}
          maxLength={QUERY_MAX}
          placeholder="Ask as an agent would: “how do we deploy?”"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onQuery(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        <Button type="submit" variant="primary" icon="recall" busy={running}>
          Recall
        </Button>
      </div>
      {problem ? (
        <p id={`${id}-problem`} className="rl-problem" role="alert">
          {problem}
        </p>
      ) : null}

      <details className="rl-options">
        <summary>
          Options
          {active.length ? (
            <span className="rl-options-active">
              {active.map((a) => (
                <span key={a} className="rl-option-chip">
                  {a}
                </span>
              ))}
            </span>
          ) : (
            <span className="muted"> · limit 10, every kind, as the observatory</span>
          )}
        </summary>
        <div className="rl-options-grid">
          <label className="rl-field">
            <span>Limit</span>
            <input
              className="input"
              type="number"
              min={1}
              max={LIMIT_MAX}
              value={Number.isNaN(options.limit) ? '' : options.limit}
              onChange={(e) => set('limit', e.target.value === '' ? NaN : Number(e.target.value))}
            />
          </label>
          <label className="rl-field">
            <span>Max tokens</span>
            <input
              className="input"
              type="number"
              min={MAX_TOKENS_MIN}
              max={MAX_TOKENS_MAX}
              placeholder="no limit"
              value={options.max_tokens ?? ''}
              onChange={(e) =>
                set('max_tokens', e.target.value === '' ? null : Number(e.target.value))
              }
            />
          </label>
          <label className="rl-field">
            <span>As of</span>
            <input
              className="input"
              type="datetime-local"
              value={options.as_of}
              onChange={(e) => set('as_of', e.target.value)}
            />
          </label>
          <label className="rl-field">
            <span>As client</span>
            <input
              className="input"
              list={`${id}-clients`}
              placeholder="the observatory"
              value={options.as_client}
              maxLength={100}
              autoComplete="off"
              onChange={(e) => set('as_client', e.target.value)}
            />
            <datalist id={`${id}-clients`}>
              {clients.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </label>
          <label className="rl-field rl-field-wide">
            <span>Tags (all of them)</span>
            <input
              className="input"
              placeholder="deploy, ops"
              value={tagText}
              onChange={(e) => {
                setTagText(e.target.value);
                const tags = parseTags(e.target.value);
                setTagsFor(tags);
                set('tags', tags);
              }}
            />
          </label>
          <fieldset className="rl-field rl-field-wide rl-kinds">
            <legend>Kinds</legend>
            {KINDS.map((kind) => (
              <label key={kind} className="rl-kind" title={KIND_HINTS[kind]}>
                <input
                  type="checkbox"
                  checked={options.kinds.includes(kind)}
                  onChange={() => toggleKind(kind)}
                />
                <span className={`kind-dot rl-kind-dot-${kind}`} aria-hidden />
                {kind}
              </label>
            ))}
          </fieldset>
        </div>
        <p className="card-note">
          The lab always asks for the verbose answer with its trace, and never counts a recall as a
          use of what it returns. “As client” shows what that MCP client would get: its private
          memories too, never quarantined ones.
        </p>
      </details>
    </form>
  );
}
