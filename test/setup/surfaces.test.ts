// `loci setup` through the API (setup.plan, setup.write, setup.check) and the CLI, against
// a temporary home folder.
// Nothing here may read or write the real home folder (helpers/setupHome.ts).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SetupCheckResult, SetupPlanResult, SetupWriteResult } from '../../src/shared/api';
import { EXIT_CODES, EXIT_FINDINGS, runCli } from '../../src/main/cli/program';
import { rotateToken } from '../../src/main/engine/store/token';
import { openTestEngine, tempDir, type TestEngine } from '../helpers/engine';
import {
  home,
  stdio,
  snapshot,
  put,
  read,
  json,
  backups,
  useSetupSandbox,
} from '../helpers/setupHome';

useSetupSandbox();

describe('through the API', () => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openTestEngine({ setupHome: home });
  });
  afterEach(async () => {
    await t.close();
  });
  const ctx = { actor: { kind: 'cli' as const } };
  const dispatch = <T>(method: string, args: unknown) =>
    t.handlers.dispatch(method, args, ctx) as Promise<T>;

  it('plans, writes and checks in the given home folder', async () => {
    mkdirSync(join(home, '.cursor'));
    const planned = await dispatch<SetupPlanResult>('setup.plan', {});
    expect(planned.clients.map((p) => [p.client, p.installed, p.action])).toEqual([
      ['claude-code', false, 'add'],
      ['claude-desktop', false, 'add'],
      ['cursor', true, 'add'],
      ['vscode', false, 'add'],
      ['windsurf', false, 'add'],
      ['zed', false, 'add'],
    ]);
    for (const p of planned.clients) expect(p.file.startsWith(home)).toBe(true);
    // A plan shows where each client's own token will go; none is made yet.
    expect(planned.clients[2]?.after).toMatchObject({
      env: { LOCI_TOKEN: '<new-token-for-cursor>' },
    });
    expect((await dispatch<{ clients: unknown[] }>('clients.tokens', {})).clients).toEqual([]);
    expect(snapshot()).toEqual({});
    // The daemon's token (made on first use): no editor gets it.
    const token = read(join(t.dir, 'token')).trim();

    // No daemon: the stdio entry, starting this installation's `loci mcp`.
    const w = await dispatch<SetupWriteResult>('setup.write', { client: 'cursor' });
    expect(w).toEqual({
      client: 'cursor',
      file: join(home, '.cursor', 'mcp.json'),
      backup: null,
      action: 'add',
    });
    const cursorToken = (json(w.file) as { mcpServers: { loci: { env: { LOCI_TOKEN: string } } } })
      .mcpServers.loci.env.LOCI_TOKEN;
    expect(json(w.file)).toEqual({
      mcpServers: { loci: { ...stdio, env: { LOCI_TOKEN: expect.stringMatching(/^loci_c_/) } } },
    });
    expect(t.engine.access.grants.verify(cursorToken)?.name).toBe('cursor');

    // A daemon on port 5151 (its lock names the port): HTTP with VS Code's own token.
    t.engine.updateLock({ port: 5151 });
    const h = await dispatch<SetupWriteResult>('setup.write', {
      client: 'vscode',
      transport: 'http',
    });
    expect(json(h.file)).toEqual({
      servers: {
        loci: {
          type: 'http',
          url: 'http://127.0.0.1:5151/mcp',
          headers: { Authorization: expect.stringMatching(/^Bearer loci_c_/) },
        },
      },
    });
    const vscodeHeader = (
      json(h.file) as { servers: { loci: { headers: { Authorization: string } } } }
    ).servers.loci.headers.Authorization;
    expect(vscodeHeader).not.toContain(token);
    expect(t.engine.access.grants.verify(vscodeHeader.slice(7))?.name).toBe('vscode');
    const checked = await dispatch<SetupCheckResult>('setup.check', {});
    expect(checked.endpoint).toBe('http://127.0.0.1:5151/mcp');
    expect(checked.clients.map((c) => [c.client, c.status])).toEqual([
      ['claude-code', 'not-installed'],
      ['claude-desktop', 'not-installed'],
      ['cursor', 'ok'],
      ['vscode', 'ok'],
      ['windsurf', 'not-installed'],
      ['zed', 'not-installed'],
    ]);

    // The owner token's rotation leaves the editors alone (they have their own).
    rotateToken(t.dir);
    expect(
      (await dispatch<SetupCheckResult>('setup.check', {})).clients.find(
        (c) => c.client === 'vscode',
      )?.status,
    ).toBe('ok');
    // Rotating VS Code's token makes its entry stale; writing again fixes it, with a backup.
    await dispatch('clients.rotate', { name: 'vscode' });
    const stale = await dispatch<SetupCheckResult>('setup.check', {});
    expect(stale.clients.find((c) => c.client === 'vscode')).toMatchObject({
      status: 'stale',
      problems: ['"loci" has an old or revoked token'],
    });
    const again = await dispatch<SetupWriteResult>('setup.write', { client: 'vscode' });
    expect(again.action).toBe('update');
    expect(again.backup).toMatch(/mcp\.json\.loci-backup-/);
    expect(
      (await dispatch<SetupCheckResult>('setup.check', {})).clients.find(
        (c) => c.client === 'vscode',
      )?.status,
    ).toBe('ok');
  });

  it('validates arguments and refuses an invalid file', async () => {
    await expect(dispatch('setup.write', {})).rejects.toMatchObject({ code: 'invalid-args' });
    await expect(dispatch('setup.plan', { client: 'emacs' })).rejects.toMatchObject({
      code: 'invalid-args',
    });
    await expect(dispatch('setup.check', { client: 'cursor' })).rejects.toMatchObject({
      code: 'invalid-args',
    });
    await expect(
      dispatch('setup.write', { client: 'zed', transport: 'http' }),
    ).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringMatching(/Zed takes only a stdio/),
    });
    const file = put('.cursor/mcp.json', '{ "mcpServers": ');
    await expect(dispatch('setup.write', { client: 'cursor' })).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringContaining(`${file} is not valid JSON`),
    });
    expect(read(file)).toBe('{ "mcpServers": ');
    expect(backups(file)).toEqual([]);
  });
});

describe('through the CLI', () => {
  let data: string;
  beforeEach(() => {
    data = tempDir('loci-setup-data-');
  });
  afterEach(() => {
    rmSync(data, { recursive: true, force: true });
  });

  async function loci(args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      stdin: Readable.from(['']),
      // The editors' files are looked for in this home folder only.
      env: { LOCI_HOME: data, HOME: home, USERPROFILE: home },
      interactive: false,
    });
    return { code, stdout, stderr };
  }

  it('says so when no client is found', async () => {
    const r = await loci(['setup']);
    expect(r).toEqual({
      code: 0,
      stdout:
        'No MCP client found on this machine (looked for Claude Code, Claude Desktop, Cursor, VS Code, Windsurf and Zed). Use --client to write one anyway.\n' +
        // No model is installed and nobody is at a terminal: the offer is a hint, no download.
        '\nWithout a model recall matches words and spelling only: a question worded differently from the memory may miss it.\n' +
        'Recall by meaning: `loci models install all-minilm-l6-v2-int8` (all-MiniLM-L6-v2 (int8), about 23 MB, licence Apache-2.0).\n',
      stderr: '',
    });
  });

  it('--dry-run shows the installed clients and writes nothing', async () => {
    mkdirSync(join(home, '.cursor'));
    const original = '{ "mcpServers": { "other": { "command": "o" } } }\n';
    const file = put('.config/zed/settings.json', original);
    const r = await loci(['setup', '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Cursor  ${join(home, '.cursor', 'mcp.json')}\n  add (stdio)\n`);
    expect(r.stdout).toContain(
      `Zed  ${file}\n  add (stdio)\n    context_servers.loci\n    - (none)\n    + {\n`,
    );
    expect(r.stdout).not.toContain('Claude');
    expect(r.stdout).not.toContain('Wrote');
    expect(snapshot()).toEqual({ [join('.config', 'zed', 'settings.json')]: original });
    // Without --yes and without a terminal to ask on, nothing is written either.
    const asked = await loci(['setup']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Nothing written. Run `loci setup --yes` to write.\n');
    expect(snapshot()).toEqual({ [join('.config', 'zed', 'settings.json')]: original });
  });

  it('--client cursor --yes writes that client (installed or not), then check audits', async () => {
    const r = await loci(['setup', '--client', 'cursor', '--yes']);
    const file = join(home, '.cursor', 'mcp.json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Wrote ${file}\n`);
    expect(r.stdout).toContain('Restart the editors');
    expect(json(file)).toEqual({
      mcpServers: { loci: { ...stdio, env: { LOCI_TOKEN: expect.stringMatching(/^loci_c_/) } } },
    });

    const again = await loci(['setup', '--client', 'cursor', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Cursor  ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n  already set up\n`),
    );

    const c = await loci(['setup', 'check', '--json']);
    expect(c.code).toBe(0);
    const result = JSON.parse(c.stdout) as SetupCheckResult;
    expect(result.endpoint).toBe('http://127.0.0.1:4747/mcp');
    expect(result.clients.find((x) => x.client === 'cursor')).toMatchObject({
      installed: true,
      status: 'ok',
    });
    const human = await loci(['setup', 'check']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Cursor +ok +—/);
    expect(human.stdout).toMatch(/Zed +not-installed/);
    expect(human.stdout).toContain('Loci endpoint: http://127.0.0.1:4747/mcp');
  });

  it('--json --yes prints the plan and what was written as JSON', async () => {
    mkdirSync(join(home, '.codeium', 'windsurf'), { recursive: true });
    const r = await loci(['setup', '--yes', '--json', '--transport', 'http']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as SetupPlanResult & { written: SetupWriteResult[] };
    expect(out.clients.map((p) => [p.client, p.transport, p.action])).toEqual([
      ['windsurf', 'http', 'add'],
    ]);
    expect(out.written).toEqual([
      {
        client: 'windsurf',
        file: join(home, '.codeium', 'windsurf', 'mcp_config.json'),
        backup: null,
        action: 'add',
      },
    ]);
    const token = read(join(data, 'token')).trim();
    expect(json(out.written[0]?.file as string)).toEqual({
      mcpServers: {
        loci: {
          serverUrl: 'http://127.0.0.1:4747/mcp',
          headers: { Authorization: expect.stringMatching(/^Bearer loci_c_/) },
        },
      },
    });
    expect(read(out.written[0]?.file as string)).not.toContain(token);
    // The JSON plan shows where the token goes, never a token.
    expect(JSON.stringify(out.clients)).toContain('<new-token-for-windsurf>');
  });

  it('--transport http across clients keeps stdio for Claude Desktop and Zed', async () => {
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    mkdirSync(join(home, '.config', 'zed'), { recursive: true });
    mkdirSync(join(home, '.cursor'));
    const r = await loci(['setup', '--transport', 'http', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(join(home, '.config', 'Claude', 'claude_desktop_config.json'))).toEqual({
      mcpServers: { loci: { ...stdio, env: { LOCI_TOKEN: expect.stringMatching(/^loci_c_/) } } },
    });
    expect(json(join(home, '.config', 'zed', 'settings.json')).context_servers).toEqual({
      loci: { source: 'custom', ...stdio, env: { LOCI_TOKEN: expect.stringMatching(/^loci_c_/) } },
    });
    expect(json(join(home, '.cursor', 'mcp.json')).mcpServers?.loci).toMatchObject({
      url: 'http://127.0.0.1:4747/mcp',
    });
    const one = await loci(['setup', '--client', 'zed', '--transport', 'http', '--yes']);
    expect(one.code).toBe(EXIT_CODES['invalid-args']);
    expect(one.stderr).toBe('loci: Zed takes only a stdio entry from its configuration file.\n');
  });

  it('fails with a clear message on an invalid file, writes the others, and never touches it', async () => {
    mkdirSync(join(home, '.cursor'));
    const bad = put('.config/Code/User/mcp.json', '{ "servers": { "a": } }');
    const r = await loci(['setup', '--yes']);
    expect(r.code).toBe(EXIT_CODES['invalid-args']);
    expect(r.stderr).toMatch(
      new RegExp(
        `^loci: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(with comments\\): ValueExpected at line 1, column 21; Loci will not edit it\\. Fix it, or add the entry by hand\\.\\n$`,
      ),
    );
    expect(r.stdout).toContain(`Wrote ${join(home, '.cursor', 'mcp.json')}`);
    expect(read(bad)).toBe('{ "servers": { "a": } }');
    expect(backups(bad)).toEqual([]);

    const only = await loci(['setup', '--client', 'vscode', '--yes']);
    expect(only.code).toBe(EXIT_CODES['invalid-args']);
    expect(only.stderr).toContain(`${bad} is not valid JSON`);

    const c = await loci(['setup', 'check']);
    // A check that finds something to fix says so in its exit code.
    expect(c.code).toBe(EXIT_FINDINGS);
    expect(c.stdout).toMatch(/VS Code +invalid/);
    expect(read(bad)).toBe('{ "servers": { "a": } }');

    const usage = await loci(['setup', '--client', 'emacs']);
    expect(usage.code).toBe(EXIT_CODES.usage);
  });
});
