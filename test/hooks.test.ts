// `loci hook <event>` against a running daemon on loopback: the session start's
// bootstrap, a prompt's relevant memories (only above the confidence bar), the
// transcript imported at the end of a session — and failing open: no daemon, bad input,
// an unknown event all print nothing and exit 0, as a spawned process within a second.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessClient } from '../src/main/api';
import { runHook } from '../src/main/cli/hook';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { writeSessions } from './fixtures/transcripts/sessions';
import { tempDir } from './helpers/engine';

const ROOT = new URL('..', import.meta.url).pathname;
let daemon: Daemon;
let home: string;
const env = () => ({ LOCI_HOME: home });

beforeAll(async () => {
  home = tempDir('loci-hooks-');
  daemon = await startDaemon({ dataDir: home, port: 0, env: {}, engine: { embedWrites: 'await' } });
  const cli = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
  await cli.call('memory.remember', {
    content: 'Staging deploys go through the ops bastion, never from a laptop.',
    title: 'Staging deploys go through the ops bastion',
    pinned: true,
  });
  await cli.call('memory.remember', {
    content: 'The billing service stores every amount in integer cents.',
  });
});
afterAll(async () => {
  await daemon.close();
  rmSync(home, { recursive: true, force: true });
});

const parse = (stdout: string) =>
  JSON.parse(stdout) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };

describe('loci hook', () => {
  it('session-start: the bootstrap as added context', async () => {
    const r = await runHook(
      'session-start',
      JSON.stringify({ session_id: 's1', source: 'startup' }),
      env(),
    );
    const out = parse(r.stdout).hookSpecificOutput;
    expect(out.hookEventName).toBe('SessionStart');
    expect(out.additionalContext).toContain('Staging deploys go through the ops bastion');
  });

  it('prompt-submit: the memories that bear on the prompt, with their ids; nothing for an unrelated one', async () => {
    const r = await runHook(
      'prompt-submit',
      JSON.stringify({ prompt: 'How are amounts stored in the billing service?' }),
      env(),
    );
    const out = parse(r.stdout).hookSpecificOutput;
    expect(out.hookEventName).toBe('UserPromptSubmit');
    expect(out.additionalContext).toMatch(/- \[[0-9A-Z]{26}\] .*integer cents/);
    const none = await runHook(
      'prompt-submit',
      JSON.stringify({ prompt: 'Write a haiku about autumn leaves falling' }),
      env(),
    );
    expect(none).toEqual({ stdout: '', code: 0 });
  });

  it("speaks for Claude Code: its reads are in the read log, and another agent's private memory or a quarantined one never reaches it", async () => {
    const cli = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
    const cursor = createInProcessClient(daemon.handlers, {
      actor: { kind: 'mcp', client: 'cursor', transport: 'stdio' },
    });
    await cursor.call('memory.remember', {
      content: 'Cursor notes: the billing amounts rounding helper lives in money.ts.',
      visibility: 'private',
    });
    const r = await runHook(
      'prompt-submit',
      JSON.stringify({ prompt: 'Where does the billing service round amounts in cents?' }),
      env(),
    );
    const text = r.stdout ? parse(r.stdout).hookSpecificOutput.additionalContext : '';
    expect(text).not.toContain('money.ts');
    const access = await cli.call('audit.access', {});
    expect(access.groups.map((g) => g.client)).toContain('mcp:claude-code');
  });

  it('session-end and pre-compact: the transcript imported (and re-imported only when it grew)', async () => {
    const files = writeSessions(tempDir('loci-hook-sessions-'));
    const input = JSON.stringify({ transcript_path: files.claude, hook_event_name: 'SessionEnd' });
    expect(await runHook('session-end', input, env())).toEqual({ stdout: '', code: 0 });
    expect(await runHook('pre-compact', input, env())).toEqual({ stdout: '', code: 0 });
    const cli = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
    const journals = (await cli.call('journal.list', {})).journals;
    expect(journals.map((j) => j.source)).toEqual([files.claude]);
  });

  it('fails open: bad input, an unknown event, no daemon', async () => {
    expect(await runHook('prompt-submit', 'not json', env())).toEqual({ stdout: '', code: 0 });
    expect(await runHook('prompt-submit', '[1,2]', env())).toEqual({ stdout: '', code: 0 });
    expect(await runHook('teleport', '{}', env())).toEqual({ stdout: '', code: 0 });
    const empty = tempDir('loci-hooks-nodaemon-');
    const t0 = performance.now();
    expect(
      await runHook('prompt-submit', JSON.stringify({ prompt: 'anything at all here' }), {
        LOCI_HOME: empty,
      }),
    ).toEqual({
      stdout: '',
      code: 0,
    });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('as the editor runs it (bin/loci.js hook), with no daemon: exit 0, nothing on stdout', () => {
    const built = join(ROOT, 'out/main/hook.js');
    expect(existsSync(built), 'the build (npm run build) makes out/main/hook.js').toBe(true);
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/loci.js'), 'hook', 'prompt-submit'], {
      input: JSON.stringify({ prompt: 'How do we deploy to staging?' }),
      env: { ...process.env, LOCI_HOME: tempDir('loci-hooks-spawn-') },
      timeout: 10_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe('');
  });
});
