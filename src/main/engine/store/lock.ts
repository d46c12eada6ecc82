// One writer per data directory: the process that opens the engine holds `loci.lock`
// (pid, kind, later port and token location). A second writer gets an error naming the
// owner. A lock left by a dead process is taken over; a live owner never is.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { LociError } from '../../../shared/errors';
import { lockFile } from './paths';

export type OwnerKind = 'cli' | 'serve' | 'app' | 'mcp' | 'test' | 'bench';

export interface LockInfo {
  pid: number;
  kind: OwnerKind;
  started_at: string;
  hostname: string;
  nonce: string;
  port?: number;
  token_path?: string;
}

/** Opening the engine is synchronous up to here; a short blocking wait is acceptable. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(dataDir: string): LockInfo | null {
  try {
    const parsed = JSON.parse(readFileSync(lockFile(dataDir), 'utf8')) as Partial<LockInfo>;
    if (typeof parsed.pid !== 'number' || typeof parsed.kind !== 'string') return null;
    return parsed as LockInfo;
  } catch {
    return null;
  }
}

const KIND_NAMES: Record<OwnerKind, string> = {
  cli: 'a `loci` command',
  serve: '`loci serve`',
  app: 'the Loci desktop app',
  mcp: '`loci mcp`',
  test: 'a test',
  bench: 'a benchmark',
};

export function describeOwner(info: LockInfo): string {
  const port = info.port ? `, port ${info.port}` : '';
  return `${KIND_NAMES[info.kind] ?? info.kind} (pid ${info.pid}${port}, since ${info.started_at})`;
}

export class DataDirLock {
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(
    readonly dataDir: string,
    private info: LockInfo,
  ) {
    process.once('exit', this.onExit);
  }

  get current(): LockInfo {
    return { ...this.info };
  }

  static acquire(dataDir: string, kind: OwnerKind): DataDirLock {
    const info: LockInfo = {
      pid: process.pid,
      kind,
      started_at: new Date().toISOString(),
      hostname: hostname(),
      nonce: randomBytes(8).toString('hex'),
    };
    const file = lockFile(dataDir);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        try {
          writeSync(fd, JSON.stringify(info, null, 2));
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        return new DataDirLock(dataDir, info);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const owner = readLock(dataDir);
      if (owner && owner.hostname === info.hostname && !isProcessAlive(owner.pid)) {
        // Stale: keep a copy for the curious, then retry. A rename is atomic, so two
        // processes racing for a stale lock cannot both remove a fresh one.
        try {
          renameSync(file, `${file}.stale-${owner.pid}`);
        } catch {
          /* another process took it over first; loop and look again */
        }
        continue;
      }
      if (owner) {
        throw new LociError(
          'store-locked',
          `The data directory ${dataDir} is in use by ${describeOwner(owner)}. Only one process may write to it; stop that one or use its endpoint.`,
          { owner: { pid: owner.pid, kind: owner.kind, port: owner.port ?? null } },
        );
      }
      // Unreadable lock (being written this instant, or damaged): give the writer a moment.
      sleepSync(200);
      if (attempt === 2) {
        throw new LociError(
          'store-locked',
          `The lock file ${file} exists but cannot be read. If no Loci process is running, remove it and try again.`,
        );
      }
    }
    throw new LociError('store-locked', `Could not take the lock ${file}.`);
  }

  /** Records more about the owner (the daemon's port, where its token is). */
  update(patch: Partial<Pick<LockInfo, 'port' | 'token_path' | 'kind'>>): void {
    if (this.released) return;
    this.info = { ...this.info, ...patch };
    const file = lockFile(this.dataDir);
    const tmp = `${file}.${this.info.nonce}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.info, null, 2), { mode: 0o600 });
    renameSync(tmp, file);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    process.removeListener('exit', this.onExit);
    const owner = readLock(this.dataDir);
    if (owner && owner.nonce === this.info.nonce) {
      try {
        unlinkSync(lockFile(this.dataDir));
      } catch {
        /* already gone */
      }
    }
  }
}
