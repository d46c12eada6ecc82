// One tab per MCP client `loci setup` knows: the entry to paste (HTTP with the bearer
// token, masked until revealed, or stdio starting `loci mcp`), where the file is, whether
// it is already there, and "Write config", which writes it after showing the change.
import { useState } from 'react';
import type {
  SetupCheck,
  SetupPlan,
  SetupPlanResult,
  SetupWriteResult,
} from '../../../../shared/api';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import type { EngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { CHECK_TEXT } from './CheckCard';
import { CopyButton } from './CopyButton';
import { maskTokens, snippetOf } from './snippet';
import { Tabs } from './Tabs';
import { WriteConfigDialog } from './WriteConfigDialog';

type Transport = SetupPlan['transport'];

export interface SnippetsCardProps {
  /** The plans asked for HTTP and for stdio: a client that only takes stdio answers stdio to both. */
  http: EngineQuery<SetupPlanResult>;
  stdio: EngineQuery<SetupPlanResult>;
  checks: SetupCheck[] | undefined;
  /** The daemon serves over HTTP (else stdio is the way). */
  served: boolean;
  token: string | null;
  revealed: boolean;
  onReveal(revealed: boolean): void;
  /** After a write: plans and checks are stale. */
  onWritten(): void;
}

const ACTION_TEXT: Record<SetupPlan['action'], string> = {
  add: 'Loci is not in this file yet.',
  update: 'This file has a Loci entry that differs (an old port, token or command).',
  unchanged: 'This file already holds exactly this entry.',
  blocked: 'Loci cannot edit this file.',
};

function TransportChoice({
  plan,
  supportsHttp,
  value,
  onChange,
}: {
  plan: SetupPlan;
  supportsHttp: boolean;
  value: Transport;
  onChange(t: Transport): void;
}) {
  const name = `cv-transport-${plan.client}`;
  return (
    <fieldset className="cv-transport">
      <legend>Transport</legend>
      <label>
        <input
          type="radio"
          name={name}
          value="http"
          checked={value === 'http'}
          disabled={!supportsHttp}
          onChange={() => onChange('http')}
        />
        HTTP
      </label>
      <label>
        <input
          type="radio"
          name={name}
          value="stdio"
          checked={value === 'stdio'}
          onChange={() => onChange('stdio')}
        />
        stdio
      </label>
    </fieldset>
  );
}

function TabLabel({ plan, check }: { plan: SetupPlan; check: SetupCheck | undefined }) {
  const status = check?.status ?? (plan.installed ? undefined : 'not-installed');
  return (
    <>
      <span className={`cv-dot cv-dot-${status ?? 'unknown'}`} aria-hidden />
      {plan.name}
      {status ? <span className="visually-hidden"> ({CHECK_TEXT[status]})</span> : null}
    </>
  );
}

function Panel({
  plan,
  supportsHttp,
  transport,
  onTransport,
  token,
  revealed,
  onReveal,
  onWrite,
  written,
}: {
  plan: SetupPlan;
  supportsHttp: boolean;
  transport: Transport;
  onTransport(t: Transport): void;
  token: string | null;
  revealed: boolean;
  onReveal(r: boolean): void;
  onWrite(): void;
  written: SetupWriteResult | undefined;
}) {
  const snippet = snippetOf(plan);
  const hasSecret = /Bearer\s/.test(snippet);
  const shown = revealed ? snippet : maskTokens(snippet, token);
  const canWrite = plan.action === 'add' || plan.action === 'update';
  return (
    <div className="cv-panel" data-client={plan.client}>
      <div className="cv-panel-head">
        <div className="cv-panel-where">
          <p>
            <strong>{plan.name}</strong>{' '}
            <span className={plan.installed ? 'pill pill-ok' : 'pill cv-pill-muted'}>
              {plan.installed ? 'found on this machine' : 'not found on this machine'}
            </span>
          </p>
          <p className="cv-file">
            <span className="muted">File</span> <code className="mono">{plan.file}</code>
          </p>
        </div>
        <TransportChoice
          plan={plan}
          supportsHttp={supportsHttp}
          value={transport}
          onChange={onTransport}
        />
      </div>
      {!supportsHttp ? (
        <p className="card-note">
          {plan.name} starts local servers from its file, so it takes a stdio entry: it runs{' '}
          <code>loci mcp</code>, which forwards to this daemon.
        </p>
      ) : null}
      <p className={`cv-action cv-action-${plan.action}`}>
        {plan.action === 'unchanged' ? <Icon name="check" /> : null}
        {ACTION_TEXT[plan.action]} {plan.problem ? <span>{plan.problem}</span> : null}
      </p>
      <pre className="cv-snippet" aria-label={`Configuration for ${plan.name}`} tabIndex={0}>
        <code data-testid="snippet">{shown}</code>
      </pre>
      <div className="cv-actions">
        <CopyButton
          text={snippet}
          what={`the ${plan.name} entry`}
          label="Copy entry"
          title={hasSecret ? 'The copy holds the real token' : undefined}
        />
        {hasSecret ? (
          <Button
            size="sm"
            variant="ghost"
            icon={revealed ? 'eyeOff' : 'eye'}
            aria-pressed={revealed}
            onClick={() => onReveal(!revealed)}
          >
            {revealed ? 'Hide token' : 'Show token'}
          </Button>
        ) : null}
        <span className="cv-actions-end">
          {!canWrite ? (
            <span className="card-note" id={`cv-nowrite-${plan.client}`}>
              {plan.action === 'unchanged' ? 'Nothing to write.' : 'Fix the file first.'}
            </span>
          ) : null}
          <Button
            size="sm"
            variant="primary"
            icon="pencil"
            disabled={!canWrite}
            aria-describedby={!canWrite ? `cv-nowrite-${plan.client}` : undefined}
            onClick={onWrite}
          >
            Write config
          </Button>
        </span>
      </div>
      {written ? (
        <p className="cv-written" role="status">
          <Icon name="check" /> Wrote <code className="mono">{written.file}</code>
          {written.backup ? (
            <>
              ; the original is kept at <code className="mono">{written.backup}</code>
            </>
          ) : (
            ' (a new file: there was nothing to back up)'
          )}
          . Restart {plan.name} to connect.
        </p>
      ) : null}
    </div>
  );
}

export function SnippetsCard({
  http,
  stdio,
  checks,
  served,
  token,
  revealed,
  onReveal,
  onWritten,
}: SnippetsCardProps) {
  const [selected, setSelected] = useState<string | null>(null);
  const [transports, setTransports] = useState<Record<string, Transport>>({});
  const [writing, setWriting] = useState<SetupPlan | null>(null);
  const [written, setWritten] = useState<Record<string, SetupWriteResult>>({});

  const httpPlans = http.data?.clients;
  const stdioPlans = stdio.data?.clients;
  const loading = !httpPlans || !stdioPlans;
  const error = http.error ?? stdio.error;

  let body;
  if (loading) {
    body =
      error && !http.loading && !stdio.loading ? (
        <ErrorState
          compact
          title="Could not read the editors' configurations"
          error={error}
          onRetry={() => {
            http.reload();
            stdio.reload();
          }}
        />
      ) : (
        <LoadingState label="Looking for editors…" fill={false} />
      );
  } else {
    const ids = httpPlans.map((p) => p.client);
    const current =
      (selected && ids.includes(selected) ? selected : null) ??
      httpPlans.find((p) => p.installed)?.client ??
      ids[0];
    const httpPlan = httpPlans.find((p) => p.client === current);
    const stdioPlan = stdioPlans.find((p) => p.client === current);
    const supportsHttp = httpPlan?.transport === 'http';
    const transport: Transport =
      (current ? transports[current] : undefined) ?? (served && supportsHttp ? 'http' : 'stdio');
    const plan = transport === 'http' && supportsHttp ? httpPlan : stdioPlan;
    body = (
      <Tabs
        label="Editors"
        idPrefix="cv-clients"
        items={httpPlans.map((p) => ({
          id: p.client,
          label: <TabLabel plan={p} check={checks?.find((c) => c.client === p.client)} />,
        }))}
        selected={current ?? ''}
        onSelect={setSelected}
      >
        {plan && current ? (
          <Panel
            plan={plan}
            supportsHttp={supportsHttp}
            transport={plan.transport}
            onTransport={(t) => setTransports((m) => ({ ...m, [current]: t }))}
            token={token}
            revealed={revealed}
            onReveal={onReveal}
            onWrite={() => setWriting(plan)}
            written={written[current]}
          />
        ) : null}
      </Tabs>
    );
  }

  return (
    <section className="card card-wide" aria-labelledby="cv-snippets">
      <h2 id="cv-snippets" className="card-title">
        <Icon name="settings" /> Editors
      </h2>
      <p className="card-note">
        Pick your editor: paste the entry into its file yourself, or let Loci write it (the same as{' '}
        <code>loci setup</code>).
      </p>
      {body}
      <WriteConfigDialog
        plan={writing}
        token={token}
        revealed={revealed}
        onClose={() => setWriting(null)}
        onWritten={(result) => {
          setWriting(null);
          setWritten((m) => ({ ...m, [result.client]: result }));
          useUiStore.getState().toast({
            message: result.backup
              ? `Wrote ${result.file}. The original is at ${result.backup}.`
              : `Wrote ${result.file}.`,
            tone: 'success',
            durationMs: 8_000,
          });
          onWritten();
        }}
      />
    </section>
  );
}
