// Audit: the store's hash-chained audit trail. The chain paged newest first with filters
// by actor, action and time; a Verify button with progress that marks the first broken
// entry and shows the anchor to keep; the MCP clients' reads per day; export as JSON Lines.
import { useState } from 'react';
import type { AuditExportResult } from '../../../shared/api';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { useEngineClient } from '../lib/engineContext';
import { toLociError, useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { AccessPanel } from './audit/AccessPanel';
import {
  actorLabel,
  inStore,
  isFiltered,
  joinExport,
  listArgs,
  NO_FILTERS,
  shortHash,
  type AuditFilters,
} from './audit/auditModel';
import { ChainTable } from './audit/ChainTable';
import { VerifyCard } from './audit/VerifyCard';
import { Tabs } from './connect/Tabs';
import type { ViewProps } from './index';
import './connect/connect.css';
import './audit/audit.css';

function download(name: string, text: string): boolean {
  if (typeof URL.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return true;
}

export default function AuditView({ query }: ViewProps) {
  const store = useUiStore((s) => s.store) ?? undefined;
  const client = useEngineClient();
  const [tab, setTab] = useState(query.get('tab') === 'reads' ? 'reads' : 'chain');
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  /** Cursors of the pages before this one (newest first): empty on the first page. */
  const [cursors, setCursors] = useState<(number | null)[]>([]);
  const [before, setBefore] = useState<number | null>(null);
  const [brokenSeq, setBrokenSeq] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  const page = useEngineQuery('audit.list', listArgs(store, filters, before), {
    refreshOn: before === null ? ['memory.changed', 'link.changed'] : [],
  });

  const setFilter = (patch: Partial<AuditFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setCursors([]);
    setBefore(null);
  };
  const older = () => {
    if (!page.data?.next_before) return;
    setCursors((c) => [...c, before]);
    setBefore(page.data.next_before);
  };
  const newer = () => {
    setBefore(cursors[cursors.length - 1] ?? null);
    setCursors((c) => c.slice(0, -1));
  };
  const showEntry = (seq: number) => {
    setTab('chain');
    setFilters(NO_FILTERS);
    setCursors([null]);
    setBefore(seq + 1);
    setTimeout(() => document.getElementById(`audit-entry-${seq}`)?.scrollIntoView?.(), 50);
  };

  const exportChain = async () => {
    setExporting(true);
    const toast = useUiStore.getState().toast;
    try {
      const pages: AuditExportResult[] = [];
      let after = 0;
      for (;;) {
        const p = await client.call('audit.export', inStore(store, { after_seq: after }));
        pages.push(p);
        if (p.next_after === null) break;
        after = p.next_after;
      }
      const entries = pages.reduce((n, p) => n + p.entries, 0);
      const name = `loci-audit-${store ?? 'default'}-${new Date().toISOString().slice(0, 10)}.jsonl`;
      if (!download(name, joinExport(pages))) {
        toast({
          message: 'This browser cannot save files; use `loci audit export`.',
          tone: 'error',
        });
      } else {
        toast({ message: `Exported ${entries} entries to ${name}.`, tone: 'success' });
      }
    } catch (err) {
      toast({ message: `Export failed: ${toLociError(err).message}`, tone: 'error' });
    } finally {
      setExporting(false);
    }
  };

  const head = page.data?.head;
  return (
    <div className="view au-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Audit</h1>
          <p className="view-subtitle">
            {head ? (
              <>
                <strong>{head.seq.toLocaleString()}</strong> entries · head{' '}
                <code title={head.hash}>{shortHash(head.hash)}</code> · every change, signed and
                chained
              </>
            ) : (
              'Every change, signed and chained'
            )}
          </p>
        </div>
        <Button icon="download" busy={exporting} onClick={() => void exportChain()}>
          Export JSON Lines
        </Button>
      </header>

      <VerifyCard
        store={store}
        onResult={(r) => setBrokenSeq(r.first_broken?.seq ?? null)}
        onShowEntry={showEntry}
      />

      <Tabs
        label="Audit"
        idPrefix="au"
        items={[
          { id: 'chain', label: 'Chain' },
          { id: 'reads', label: 'Reads by clients' },
        ]}
        selected={tab}
        onSelect={setTab}
      >
        {tab === 'reads' ? (
          <AccessPanel store={store} />
        ) : (
          <>
            <div className="au-filters" role="group" aria-label="Filter the chain">
              <label className="au-field">
                <span>Actor</span>
                <select
                  value={filters.actor}
                  onChange={(e) => setFilter({ actor: e.target.value })}
                >
                  <option value="">Anyone</option>
                  {(page.data?.actors ?? []).map((a) => (
                    <option key={a} value={a}>
                      {actorLabel(a)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="au-field">
                <span>Action</span>
                <select
                  value={filters.action}
                  onChange={(e) => setFilter({ action: e.target.value })}
                >
                  <option value="">Any action</option>
                  {(page.data?.actions ?? []).map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </select>
              </label>
              <label className="au-field">
                <span>From</span>
                <input
                  type="date"
                  value={filters.since}
                  onChange={(e) => setFilter({ since: e.target.value })}
                />
              </label>
              <label className="au-field">
                <span>To</span>
                <input
                  type="date"
                  value={filters.until}
                  onChange={(e) => setFilter({ until: e.target.value })}
                />
              </label>
              {isFiltered(filters) ? (
                <Button size="sm" variant="ghost" onClick={() => setFilter(NO_FILTERS)}>
                  Clear filters
                </Button>
              ) : null}
            </div>

            {page.loading ? (
              <LoadingState label="Loading the chain…" />
            ) : page.error && !page.data ? (
              <ErrorState
                title="Could not load the chain"
                error={page.error}
                onRetry={page.reload}
              />
            ) : !page.data || page.data.entries.length === 0 ? (
              isFiltered(filters) ? (
                <EmptyState
                  icon="search"
                  title="No entry matches these filters"
                  action={{ label: 'Clear filters', onClick: () => setFilter(NO_FILTERS) }}
                />
              ) : (
                <EmptyState icon="audit" title="The chain is empty">
                  <p>
                    Every change to a memory — created, edited, forgotten, erased, linked, imported
                    — adds one signed entry here, with who made it.
                  </p>
                </EmptyState>
              )
            ) : (
              <>
                <ChainTable entries={page.data.entries} brokenSeq={brokenSeq} />
                <nav className="au-pager" aria-label="Pages of the chain">
                  <Button size="sm" disabled={cursors.length === 0} onClick={newer}>
                    Newer
                  </Button>
                  <span className="au-muted" aria-live="polite">
                    Entries {page.data.entries[0]?.seq} – {page.data.entries.at(-1)?.seq} ·{' '}
                    {page.data.total.toLocaleString()} {isFiltered(filters) ? 'matching' : 'in all'}
                  </span>
                  <Button size="sm" disabled={page.data.next_before === null} onClick={older}>
                    Older
                  </Button>
                </nav>
              </>
            )}
          </>
        )}
      </Tabs>
    </div>
  );
}
