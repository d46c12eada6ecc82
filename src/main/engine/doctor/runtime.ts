// Checks of the running process and its surroundings: the lock file and its owner, the
// HTTP endpoint (reachable, loopback only, token), each MCP client's configuration, free
// disk space and the process's memory.
import { existsSync, renameSync, statSync, chmodSync } from 'node:fs';
import { SETUP_CLIENTS } from '../../../shared/constants';
import type { ClientId } from '../setup/clients';
import { check as setupCheck, write as setupWrite } from '../setup/setup';
import { describeOwner, isProcessAlive, readLock } from '../store/lock';
import { lockFile } from '../store/paths';
import { tokenPath } from '../store/token';
import { scannerStatus } from '../write/scanHost';
import { bytes, finding, ok, type CheckDefinition, type Finding } from './types';

/** 42 s, 7 min, 3 h: how long ago, as the memory check says it. */
function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

export const runtimeChecks: CheckDefinition[] = [
  {
    id: 'lock.owner',
    group: 'Process',
    title: 'Lock file and owner',
    run({ engine }) {
      const mine = engine.lockInfo;
      const file = lockFile(engine.dataDir);
      const found = readLock(engine.dataDir);
      if (!found) {
        return finding(
          'warn',
          existsSync(file)
            ? `The lock file ${file} is unreadable.`
            : `The lock file ${file} is gone: another Loci could open this data directory too.`,
          'Write the lock file again for this process (safe).',
          true,
        );
      }
      if (found.nonce === mine.nonce) return ok(`Held by ${describeOwner(found)}, alive.`);
      if (!isProcessAlive(found.pid)) {
        return finding(
          'fail',
          `The lock names ${describeOwner(found)}, which is not running: a stale lock.`,
          'Clear the stale lock and take it for this process (safe: its owner is gone).',
          true,
        );
      }
      return finding(
        'fail',
        `The lock names ${describeOwner(found)}, a live process other than this one: two writers.`,
        'Stop one of the two Loci processes; the doctor will not take a live owner’s lock.',
      );
    },
    fix({ engine }) {
      const found = readLock(engine.dataDir);
      const file = lockFile(engine.dataDir);
      if (found && found.nonce !== engine.lockInfo.nonce) {
        if (isProcessAlive(found.pid)) {
          return `Left alone: ${describeOwner(found)} is alive.`;
        }
        // Kept for the curious, like DataDirLock.acquire does.
        renameSync(file, `${file}.stale-${found.pid}`);
      }
      engine.rewriteLock();
      return `Lock file ${file} now names this process (pid ${process.pid}).`;
    },
  },
  {
    id: 'http.reachable',
    group: 'Endpoint',
    title: 'HTTP endpoint reachable',
    async run({ engine, fetch, limits }) {
      const info = engine.servedAt;
      if (!info) {
        return finding(
          'warn',
          'No daemon serves this data directory: agents using the HTTP endpoint get no answer.',
          'Start `loci serve` or the desktop app.',
        );
      }
      try {
        const r = await fetch(`${info.url}/health`, {
          signal: AbortSignal.timeout(limits.httpTimeoutMs),
        });
        if (r.status !== 200) {
          return finding('fail', `${info.url}/health answered ${r.status}.`, 'Restart Loci.');
        }
        return ok(`${info.url} answers.`);
      } catch (err) {
        return finding(
          'fail',
          `${info.url} does not answer (${(err as Error).message}).`,
          'Restart Loci; check that no firewall blocks loopback.',
        );
      }
    },
  },
  {
    id: 'http.loopback',
    group: 'Endpoint',
    title: 'Listening on loopback only',
    async run({ engine }) {
      const host = engine.servingHost();
      if (host === null) return ok('Not listening (nothing to expose).');
      if (LOOPBACK.has(host)) return ok(`Bound to ${host}: only this machine can connect.`);
      return finding(
        'warn',
        `Bound to ${host}: other machines on the network can reach the endpoint (the token still guards it).`,
        'Restart with `loci serve` without --host unless you meant to share it.',
      );
    },
  },
  {
    id: 'http.token',
    group: 'Endpoint',
    title: 'Bearer token',
    run({ engine }) {
      const path = tokenPath(engine.dataDir);
      if (!existsSync(path)) {
        return finding(
          'warn',
          'No token file yet: it is created when the daemon first starts.',
          'Start `loci serve`, or run `loci token show`.',
        );
      }
      const mode = statSync(path).mode & 0o777;
      if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
        return finding(
          'fail',
          `The token file ${path} is readable by others (mode ${mode.toString(8)}).`,
          'Make it readable by you only (chmod 600; safe).',
          true,
        );
      }
      return ok(`Token set in ${path}, readable by you only.`);
    },
    fix({ engine }) {
      const path = tokenPath(engine.dataDir);
      chmodSync(path, 0o600);
      return `${path} is now mode 600.`;
    },
  },
  {
    id: 'clients',
    group: 'MCP clients',
    title: 'Client configurations',
    run({ engine }) {
      const env = engine.setupEnv();
      const clients = setupCheck(env);
      const endpoint = env.endpoint.url;
      return clients.map((c): Finding => {
        const base = { id: `client.${c.client}`, title: c.name };
        const problems = c.problems.join('; ');
        switch (c.status) {
          case 'ok':
            return { ...base, ...ok(`${c.file} points at ${endpoint} with the current token.`) };
          case 'not-installed':
            return { ...base, ...ok(`${c.name} is not installed.`) };
          case 'missing':
            return {
              ...base,
              ...finding(
                'warn',
                `${c.name} is installed but ${c.file} has no Loci entry.`,
                `Add the Loci entry to ${c.file} (a backup is kept).`,
                true,
              ),
            };
          case 'stale':
            return {
              ...base,
              ...finding(
                'warn',
                `${c.file}: ${problems || 'the Loci entry is out of date'}.`,
                `Rewrite the Loci entry with this port and token (a backup is kept).`,
                true,
              ),
            };
          case 'duplicate':
            return {
              ...base,
              ...finding(
                'warn',
                `${c.file}: ${problems || 'more than one Loci entry'}.`,
                `Remove the extra entries by hand in ${c.file}; Loci will not guess which to keep.`,
              ),
            };
          default:
            return {
              ...base,
              ...finding(
                'fail',
                `${c.file} cannot be read: ${problems}.`,
                `Fix the file by hand (Loci never rewrites a file it cannot parse).`,
              ),
            };
        }
      });
    },
    fix({ engine }, id) {
      const client = id.replace(/^client\./, '');
      if (!(SETUP_CLIENTS as readonly string[]).includes(client)) {
        throw new Error(`unknown client ${client}`);
      }
      const r = setupWrite(engine.setupEnv(), client as ClientId);
      return `Wrote the Loci entry to ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}.`;
    },
  },
  {
    id: 'disk.free',
    group: 'Disk',
    title: 'Free disk space',
    async run({ engine, statfs, limits }) {
      const s = await statfs(engine.dataDir);
      const free = s.bavail * s.bsize;
      const line = `${bytes(free)} free of ${bytes(s.blocks * s.bsize)} where the data lives`;
      if (free < limits.diskFailBytes) {
        return finding('fail', `Only ${line}: writes will soon fail.`, 'Free some disk space.');
      }
      if (free < limits.diskWarnBytes) {
        return finding('warn', `${line}.`, 'Free some disk space before it runs out.');
      }
      return ok(`${line}.`);
    },
  },
  {
    id: 'process.memory',
    group: 'Process',
    title: 'Process memory',
    run({ memoryUsage, limits, engine, now }) {
      const m = memoryUsage();
      const trim = engine.footprint.lastTrim;
      // What the last trim gave back (engine/footprint.ts), so a figure read just after a
      // burst of work is not taken for what Loci keeps.
      const trimmed = trim
        ? `; last given back ${ago(now - trim.at)} ago, when ${trim.reason === 'pressure' ? 'memory was short' : 'quiet'} (${bytes(trim.rssBefore)} → ${bytes(trim.rssAfter)})`
        : '';
      const line = `${bytes(m.rss)} resident, ${bytes(m.heapUsed)} JavaScript heap${trimmed}`;
      if (m.rss > limits.rssFailBytes) {
        return finding('fail', `${line}: far more than expected.`, 'Restart Loci.');
      }
      if (m.rss > limits.rssWarnBytes) {
        return finding('warn', `${line}.`, 'Restart Loci if it keeps growing.');
      }
      return ok(`${line}.`);
    },
  },
  {
    id: 'scan.worker',
    group: 'Process',
    title: 'Credential scanning',
    run() {
      const s = scannerStatus();
      if (s.mode === 'in-thread') {
        return finding(
          'warn',
          `Credential scans run on the thread that answers clients (${s.reason ?? 'no worker'}): a huge write can slow every client down.`,
          'Reinstall Loci (its scan worker is missing from this installation).',
        );
      }
      const past = s.timeouts
        ? ` ${s.timeouts} scan${s.timeouts === 1 ? '' : 's'} went past the time budget since start (those memories are quarantined).`
        : '';
      return ok(
        `Credential scans run in their own thread${s.mode === 'idle' ? ' (not started yet)' : ''}.${past}`,
      );
    },
  },
];
