import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { LociError } from '../../../shared/errors';
import { DataDirLock, readLock } from './lock';
import { lockFile } from './paths';

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('DataDirLock', () => {
  it('records the owner and refuses a second writer, naming it', () => {
    const dir = fresh();
    const lock = DataDirLock.acquire(dir, 'serve');
    lock.update({ port: 4545 });
    expect(readLock(dir)).toMatchObject({ pid: process.pid, kind: 'serve', port: 4545 });
    let error: unknown;
    try {
      DataDirLock.acquire(dir, 'cli');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(LociError);
    expect((error as LociError).code).toBe('store-locked');
    expect((error as LociError).message).toMatch(
      new RegExp(`\`loci serve\` \\(pid ${process.pid}, port 4545`),
    );
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('takes over a lock left by a dead process', () => {
    const dir = fresh();
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(child.stdout.toString());
    writeFileSync(
      lockFile(dir),
      JSON.stringify({
        pid: deadPid,
        kind: 'serve',
        started_at: 'then',
        hostname: hostname(),
        nonce: 'old',
      }),
    );
    const lock = DataDirLock.acquire(dir, 'cli');
    expect(readLock(dir)?.pid).toBe(process.pid);
    expect(existsSync(`${lockFile(dir)}.stale-${deadPid}`)).toBe(true);
    lock.release();
  });

  it('does not remove a lock that another owner has taken since', () => {
    const dir = fresh();
    const lock = DataDirLock.acquire(dir, 'cli');
    const other = {
      pid: process.pid,
      kind: 'serve',
      started_at: 'now',
      hostname: hostname(),
      nonce: 'someone-else',
    };
    writeFileSync(lockFile(dir), JSON.stringify(other));
    lock.release();
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8')).nonce).toBe('someone-else');
  });
});
