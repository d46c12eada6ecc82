// Linking this memory to another: find the other by recall as you type (arrows and Enter
// pick, as in the command palette), choose the link's type, direction and weight, create.
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { RecallHit } from '../../../../shared/api';
import type { LinkType } from '../../../../shared/schemas';
import { usePaletteSearch } from '../../app/usePaletteSearch';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { KindBadge } from '../../components/KindBadge';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { LINK_TYPE_LABELS, LINK_TYPES } from './model';

export function LinkPicker({
  memory,
  onClose,
}: {
  memory: { id: string; title: string };
  onClose: () => void;
}) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store);
  const [input, setInput] = useState('');
  const [active, setActive] = useState(0);
  const [picked, setPicked] = useState<RecallHit | null>(null);
  const [type, setType] = useState<LinkType>('related');
  const [outgoing, setOutgoing] = useState(true);
  const [weight, setWeight] = useState(0.5);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const search = usePaletteSearch(input, store);
  const ids = useId();
  const hits = input.trim() ? (search.result?.results ?? []).filter((h) => h.id !== memory.id) : [];
  const current = Math.min(active, Math.max(0, hits.length - 1));
  useEffect(() => setActive(0), [input, search.result]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!hits.length) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((current + 1) % hits.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current - 1 + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      setPicked(hits[current] ?? null);
    }
  };

  const create = async () => {
    if (!picked) return;
    setBusy(true);
    setError(null);
    try {
      await client.call('link.create', {
        ...(store ? { store } : {}),
        from: outgoing ? memory.id : picked.id,
        to: outgoing ? picked.id : memory.id,
        type,
        weight,
      });
      useUiStore.getState().toast({ message: `Linked to “${picked.title}”.`, tone: 'success' });
      onClose();
    } catch (err) {
      setError(toLociError(err).message);
      setBusy(false);
    }
  };

  const status = !input.trim()
    ? 'Type to find the memory to link to.'
    : search.status === 'error'
      ? `Search failed: ${search.error?.message ?? 'unknown error'}`
      : search.status === 'loading' && !search.result
        ? 'Searching…'
        : hits.length === 0
          ? 'No memory matches.'
          : `${hits.length} found`;

  return (
    <Dialog open onClose={onClose} title="Link to another memory" className="mem-dialog mem-linker">
      <div className="mem-dialog-body">
        {picked ? (
          <div className="mem-link-picked">
            <span className="mem-link-picked-title">
              <KindBadge kind={picked.kind} /> {picked.title}
            </span>
            <Button size="sm" variant="ghost" onClick={() => setPicked(null)}>
              Change
            </Button>
          </div>
        ) : (
          <>
            <div className="mem-search">
              <Icon name="search" />
              <input
                className="mem-search-input"
                role="combobox"
                aria-label="Find a memory"
                aria-expanded={hits.length > 0}
                aria-controls={`${ids}-list`}
                aria-autocomplete="list"
                aria-activedescendant={hits.length ? `${ids}-o${current}` : undefined}
                placeholder="Find a memory…"
                autoComplete="off"
                value={input}
                onChange={(e) => setInput(e.target.value)}
                onKeyDown={onKeyDown}
              />
            </div>
            <div
              id={`${ids}-list`}
              role="listbox"
              aria-label="Memories"
              className="mem-link-results"
            >
              {hits.map((hit, i) => (
                <div
                  key={hit.id}
                  id={`${ids}-o${i}`}
                  role="option"
                  aria-selected={i === current}
                  className="mem-link-option"
                  onMouseMove={() => i !== current && setActive(i)}
                  onClick={() => setPicked(hit)}
                >
                  <span className="truncate">{hit.title}</span>
                  <KindBadge kind={hit.kind} />
                </div>
              ))}
            </div>
            <p className="muted mem-link-status" role="status">
              {status}
            </p>
          </>
        )}
        <div className="mem-link-options">
          <label className="mem-field">
            <span className="mem-field-label">Direction</span>
            <select
              value={outgoing ? 'out' : 'in'}
              onChange={(e) => setOutgoing(e.target.value === 'out')}
            >
              <option value="out">This memory → the other</option>
              <option value="in">The other → this memory</option>
            </select>
          </label>
          <label className="mem-field">
            <span className="mem-field-label">Type</span>
            <select value={type} onChange={(e) => setType(e.target.value as LinkType)}>
              {LINK_TYPES.map((t) => (
                <option key={t} value={t}>
                  {LINK_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
          <label className="mem-field">
            <span className="mem-field-label">Weight {weight.toFixed(1)}</span>
            <input
              type="range"
              min={0}
              max={1}
              step={0.1}
              value={weight}
              onChange={(e) => setWeight(Number(e.target.value))}
            />
          </label>
        </div>
        {picked ? (
          <p className="mem-link-sentence">
            “{outgoing ? memory.title : picked.title}” <strong>{LINK_TYPE_LABELS[type]}</strong> “
            {outgoing ? picked.title : memory.title}”
          </p>
        ) : null}
        {error ? (
          <p className="mem-form-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="mem-dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="primary"
          icon="link"
          disabled={!picked}
          busy={busy}
          onClick={() => void create()}
        >
          Create link
        </Button>
      </div>
    </Dialog>
  );
}
