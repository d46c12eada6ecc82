// Full-screen pages for when the observatory cannot work yet: no token or a refused one
// (what happened, how to get a working link, a field to paste a token), and a daemon
// that does not answer (retrying on its own, with a button to retry now).
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../components/Button';
import { Icon } from '../components/Icon';
import { parseTokenInput } from '../lib/token';
import { useConnectionStore } from '../stores/connectionStore';

function Commands() {
  return (
    <ol className="connect-steps">
      <li>
        In a terminal, run <code>loci serve</code>. It prints the observatory's address with the
        token: <code className="nowrap">Observatory: http://127.0.0.1:4747/#token=…</code>. Open
        that link.
      </li>
      <li>
        Or run <code>loci token show</code> and paste the token below. If the daemon is already
        running, this is the quickest way.
      </li>
    </ol>
  );
}

export function ConnectScreen() {
  const problem = useConnectionStore((s) => s.problem);
  const detail = useConnectionStore((s) => s.detail);
  const setToken = useConnectionStore((s) => s.setToken);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const fieldId = useId();
  const hintId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const token = parseTokenInput(value);
    if (!token) {
      setInvalid(true);
      return;
    }
    setValue('');
    setToken(token);
  };

  return (
    <main className="splash">
      <section className="connect-card" aria-labelledby="connect-title">
        <div className="connect-brand" aria-hidden>
          <Icon name="loci" size={28} />
        </div>
        <h1 id="connect-title">Connect to Loci</h1>
        {problem === 'rejected' ? (
          <p className="connect-lead" role="alert">
            The Loci daemon refused this page's token. It may have been replaced with{' '}
            <code>loci token rotate</code>, or belong to another data directory.
            {detail ? <span className="muted"> The daemon said: {detail}</span> : null}
          </p>
        ) : (
          <p className="connect-lead">
            The observatory needs the daemon's access token. It keeps your memories private from
            other programs and web pages on this machine.
          </p>
        )}
        <Commands />
        <form className="connect-form" onSubmit={submit} noValidate>
          <label htmlFor={fieldId}>Access token</label>
          <div className="connect-row">
            <input
              id={fieldId}
              type="password"
              className="input"
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setInvalid(false);
              }}
              autoComplete="off"
              spellCheck={false}
              placeholder="Paste the token or the whole observatory link"
              aria-invalid={invalid || undefined}
              aria-describedby={hintId}
              required
            />
            <Button type="submit" variant="primary" disabled={!value.trim()}>
              Connect
            </Button>
          </div>
          <p id={hintId} className={invalid ? 'field-hint field-error' : 'field-hint'}>
            {invalid
              ? 'That is not a token: paste the output of `loci token show`, or the link `loci serve` printed.'
              : 'Kept for this browser tab only, and never sent anywhere but the daemon.'}
          </p>
        </form>
      </section>
    </main>
  );
}

export function OfflineScreen() {
  const detail = useConnectionStore((s) => s.detail);
  const retry = useConnectionStore((s) => s.retry);
  return (
    <main className="splash">
      <section className="connect-card" aria-labelledby="offline-title">
        <div className="connect-brand connect-brand-warn" aria-hidden>
          <Icon name="connect" size={28} />
        </div>
        <h1 id="offline-title">Loci is not answering</h1>
        <p className="connect-lead" role="status">
          {detail ?? 'The Loci daemon does not answer.'} The observatory keeps trying; it connects
          as soon as the daemon is back.
        </p>
        <p>
          Start it again with <code>loci serve</code> (if it moved to another port, open the new
          link it prints).
        </p>
        <Button icon="refresh" onClick={retry}>
          Retry now
        </Button>
      </section>
    </main>
  );
}
