// The daemon (system.info: where it serves, its data directory, version, process and
// platform; the token itself lives on the Connect page) and About (what Loci is, its
// licence and where its documentation is).
import type { SystemInfo } from '../../../../shared/api';
import { Icon } from '../../components/Icon';
import { routeHref } from '../../lib/router';
import { CopyButton } from '../connect/CopyButton';

export function DaemonCard({ info }: { info: SystemInfo }) {
  return (
    <section className="card" aria-labelledby="sv-daemon">
      <h2 id="sv-daemon" className="card-title">
        <Icon name="monitor" /> Daemon
      </h2>
      <dl className="pairs sv-pairs" data-testid="system-info">
        <dt>Address</dt>
        <dd>{info.url ? <code className="mono">{info.url}</code> : 'not served over HTTP'}</dd>
        <dt>Port</dt>
        <dd data-stat="system.port">{info.port ?? '—'}</dd>
        <dt>Token</dt>
        <dd>
          {info.token_path ? (
            <>
              <a href={routeHref('/connect')}>Show, copy or rotate on Connect</a>
              <span className="sv-sub mono">{info.token_path}</span>
            </>
          ) : (
            'none (requests need no token)'
          )}
        </dd>
        <dt>Data directory</dt>
        <dd className="sv-copyable">
          <code className="mono" data-stat="system.data_dir">
            {info.data_dir}
          </code>
          <CopyButton text={info.data_dir} what="the data directory" variant="ghost" />
        </dd>
        <dt>Runs as</dt>
        <dd>
          {info.owner} · pid {info.pid}
        </dd>
        <dt>Loci</dt>
        <dd data-stat="system.version">{info.version}</dd>
        <dt>Node.js</dt>
        <dd>{info.node}</dd>
        <dt>SQLite</dt>
        <dd>{info.sqlite}</dd>
        <dt>Platform</dt>
        <dd>{info.platform}</dd>
      </dl>
      <p className="card-note">
        The port and address are chosen when the daemon starts (<code>loci serve --port</code>,
        default 4747, or a free one when it is taken).
      </p>
    </section>
  );
}

export function AboutCard({ version }: { version: string | undefined }) {
  return (
    <section className="card" aria-labelledby="sv-about">
      <h2 id="sv-about" className="card-title">
        <Icon name="loci" /> About
      </h2>
      <p>
        <strong>Loci</strong> {version ? <span className="muted">{version}</span> : null} is a
        long-term memory for AI agents that lives on your machine: one engine with full-text and
        vector indexes and a local embedding model, reached by every editor over MCP. Every change
        is versioned and written to a tamper-evident audit chain; credentials are held back before
        any agent can read them.
      </p>
      <dl className="pairs sv-pairs">
        <dt>Licence</dt>
        <dd>MIT</dd>
        <dt>Using it</dt>
        <dd>
          <code className="mono">README.md</code>{' '}
          <span className="muted">(Connect an editor, The daemon, Embedding models)</span>
        </dd>
        <dt>Developing it</dt>
        <dd>
          <code className="mono">DEVELOPERS.md</code>
        </dd>
        <dt>Command line</dt>
        <dd>
          <code>loci --help</code>
        </dd>
      </dl>
      <p className="card-note">The documents are in the folder Loci was installed from.</p>
    </section>
  );
}
