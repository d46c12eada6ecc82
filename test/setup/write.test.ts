// `loci setup`: what it writes into each editor's file (backups, comments and other
// servers kept, each client's own entry shape, the audit), and the files it refuses.
// Nothing here may read or write the real home folder (helpers/setupHome.ts).
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { type ClientId } from '../../src/main/engine/setup/clients';
import { check, plan, pointsAtLoci, write } from '../../src/main/engine/setup/setup';
import {
  TOKEN,
  NOW,
  STAMP,
  NODE,
  SCRIPT,
  windows,
  home,
  envFor,
  stdio,
  http,
  snapshot,
  put,
  read,
  json,
  backups,
  thrown,
  useSetupSandbox,
} from '../helpers/setupHome';

useSetupSandbox();

describe('write', () => {
  it('creates a missing configuration, private to the user, without a backup', () => {
    const r = write(envFor(), 'cursor', undefined, NOW);
    const file = join(home, '.cursor', 'mcp.json');
    expect(r).toEqual({ client: 'cursor', file, backup: null, action: 'add' });
    expect(read(file)).toBe(`${JSON.stringify({ mcpServers: { loci: stdio } }, null, 2)}\n`);
    if (!windows) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(snapshot())).toEqual([join('.cursor', 'mcp.json')]);
  });

  it('writes each client its own documented shape', () => {
    const e = envFor({ daemonRunning: true, port: 5151 });
    const url = 'http://127.0.0.1:5151/mcp';
    const headers = { Authorization: `Bearer ${TOKEN}` };
    const cases: [ClientId, 'http' | 'stdio', string, Record<string, unknown>][] = [
      ['claude-code', 'http', 'mcpServers', { type: 'http', url, headers }],
      ['claude-code', 'stdio', 'mcpServers', { type: 'stdio', ...stdio }],
      ['claude-desktop', 'stdio', 'mcpServers', stdio],
      ['cursor', 'http', 'mcpServers', { url, headers }],
      ['cursor', 'stdio', 'mcpServers', stdio],
      ['vscode', 'http', 'servers', { type: 'http', url, headers }],
      ['vscode', 'stdio', 'servers', { type: 'stdio', ...stdio }],
      ['windsurf', 'http', 'mcpServers', { serverUrl: url, headers }],
      ['windsurf', 'stdio', 'mcpServers', stdio],
      ['zed', 'stdio', 'context_servers', { source: 'custom', ...stdio, env: {} }],
    ];
    for (const [id, transport, container, entry] of cases) {
      rmSync(home, { recursive: true, force: true });
      mkdirSync(home);
      const r = write(e, id, transport, NOW);
      expect(r.action, `${id} ${transport}`).toBe('add');
      expect(json(r.file), `${id} ${transport}`).toEqual({ [container]: { loci: entry } });
      expect(pointsAtLoci(entry)).toBe(true);
    }
  });

  it('backs up the original, then keeps the other servers, the comments and the trailing commas', () => {
    const original = [
      '{',
      '  // My servers',
      '  "servers": {',
      '    "github": {',
      '      "type": "http",',
      '      "url": "https://api.githubcopilot.com/mcp/", // remote',
      '    },',
      '  },',
      '  "inputs": [],',
      '}',
      '',
    ].join('\n');
    const file = put('.config/Code/User/mcp.json', original);
    const r = write(envFor({ daemonRunning: true }), 'vscode', undefined, NOW);
    expect(r).toEqual({
      client: 'vscode',
      file,
      backup: `${file}.loci-backup-${STAMP}`,
      action: 'add',
    });
    expect(read(r.backup as string)).toBe(original);
    expect(read(file)).toBe(
      [
        '{',
        '  // My servers',
        '  "servers": {',
        '    "github": {',
        '      "type": "http",',
        '      "url": "https://api.githubcopilot.com/mcp/", // remote',
        '    },',
        '    "loci": {',
        '      "type": "http",',
        '      "url": "http://127.0.0.1:4747/mcp",',
        '      "headers": {',
        `        "Authorization": "Bearer ${TOKEN}"`,
        '      }',
        '    },',
        '  },',
        '  "inputs": [],',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('adds a Zed context server beside the settings, leaving one-line entries as they were', () => {
    const original = [
      '// Zed settings',
      '{',
      '  "theme": "One Dark",',
      '  /* servers */',
      '  "context_servers": {',
      '    "other": { "source": "custom", "command": "other-mcp", "args": [], "env": {} },',
      '  },',
      '}',
      '',
    ].join('\n');
    const file = put('.config/zed/settings.json', original);
    const r = write(envFor({ daemonRunning: true }), 'zed', undefined, NOW);
    expect(read(r.backup as string)).toBe(original);
    const text = read(file);
    expect(text).toBe(
      [
        '// Zed settings',
        '{',
        '  "theme": "One Dark",',
        '  /* servers */',
        '  "context_servers": {',
        '    "other": { "source": "custom", "command": "other-mcp", "args": [], "env": {} },',
        '    "loci": {',
        '      "source": "custom",',
        `      "command": ${JSON.stringify(NODE)},`,
        '      "args": [',
        `        ${JSON.stringify(SCRIPT)},`,
        '        "mcp"',
        '      ],',
        '      "env": {}',
        '    },',
        '  },',
        '}',
        '',
      ].join('\n'),
    );
    expect(parse(text, [], { allowTrailingComma: true })).toEqual({
      theme: 'One Dark',
      context_servers: {
        other: { source: 'custom', command: 'other-mcp', args: [], env: {} },
        loci: { source: 'custom', ...stdio, env: {} },
      },
    });
  });

  it('accepts comments in a Cursor file and keeps them', () => {
    const original =
      '{\n  // servers I use\n  "mcpServers": {\n    "db": { "command": "db-mcp" }, // local db\n  },\n}\n';
    const file = put('.cursor/mcp.json', original);
    const r = write(envFor(), 'cursor', undefined, NOW);
    expect(r.action).toBe('add');
    const text = read(file);
    expect(text).toContain('// servers I use');
    expect(text).toContain('// local db');
    expect(text).toContain('"db": { "command": "db-mcp" },');
    expect(parse(text, [], { allowTrailingComma: true })).toEqual({
      mcpServers: { db: { command: 'db-mcp' }, loci: stdio },
    });
  });

  it("keeps the rest of Claude Code's file untouched", () => {
    const data = {
      numStartups: 41,
      projects: { '/src/app': { mcpServers: { local: { command: 'x' } } } },
      mcpServers: { playwright: { type: 'stdio', command: 'npx', args: ['@playwright/mcp'] } },
      userID: 'abc',
    };
    const file = put('.claude.json', JSON.stringify(data, null, 2));
    write(envFor({ daemonRunning: true }), 'claude-code', undefined, NOW);
    expect(json(file)).toEqual({
      ...data,
      mcpServers: { ...data.mcpServers, loci: { type: 'http', ...http() } },
    });
  });

  it('keeps tabs, CRLF line ends and a byte-order mark', () => {
    const original = '\uFEFF{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "x"}\r\n\t}\r\n}\r\n';
    const file = put('.codeium/windsurf/mcp_config.json', original);
    write(envFor(), 'windsurf', undefined, NOW);
    const expected = [
      '\uFEFF{',
      '\t"mcpServers": {',
      '\t\t"a": {"command": "x"},',
      '\t\t"loci": {',
      `\t\t\t"command": ${JSON.stringify(NODE)},`,
      '\t\t\t"args": [',
      `\t\t\t\t${JSON.stringify(SCRIPT)},`,
      '\t\t\t\t"mcp"',
      '\t\t\t]',
      '\t\t}',
      '\t}',
      '}',
      '',
    ].join('\r\n');
    expect(read(file)).toBe(expected);
    // Read back with its BOM, the file is current.
    expect(plan(envFor(), 'windsurf')[0]?.action).toBe('unchanged');
  });

  it('is idempotent: a second write changes nothing and makes no second backup', () => {
    const file = put('.cursor/mcp.json', '{ "mcpServers": { "other": { "command": "o" } } }\n');
    const first = write(envFor(), 'cursor', undefined, NOW);
    expect(first.action).toBe('add');
    const after = read(file);
    const second = write(envFor(), 'cursor', undefined, new Date('2026-03-02T00:00:00Z'));
    expect(second).toEqual({ client: 'cursor', file, backup: null, action: 'unchanged' });
    expect(read(file)).toBe(after);
    expect(backups(file)).toEqual([`mcp.json.loci-backup-${STAMP}`]);
    expect(Object.keys(json(file).mcpServers ?? {})).toEqual(['other', 'loci']);
  });

  it('updates in place, never overwriting an earlier backup made in the same instant', () => {
    const original = '{ "mcpServers": {} }\n';
    const file = put('.cursor/mcp.json', original);
    const a = write(envFor(), 'cursor', 'stdio', NOW);
    const afterStdio = read(file);
    const b = write(envFor(), 'cursor', 'http', NOW);
    expect(b.action).toBe('update');
    expect(b.backup).not.toBe(a.backup);
    expect(read(a.backup as string)).toBe(original);
    expect(read(b.backup as string)).toBe(afterStdio);
    expect(json(file)).toEqual({ mcpServers: { loci: http() } });
    expect(backups(file).sort()).toEqual([
      `mcp.json.loci-backup-${STAMP}`,
      `mcp.json.loci-backup-${STAMP}-1`,
    ]);
  });

  it('updates a Loci entry the user named differently instead of adding a duplicate', () => {
    const file = put(
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { memory: http(4700, 'old-token') } }, null, 2),
    );
    const [p] = plan(envFor({ daemonRunning: true }), 'cursor');
    expect(p).toMatchObject({ entry: 'memory', action: 'update' });
    expect(p?.diff.split('\n')[0]).toBe('mcpServers.memory');
    write(envFor({ daemonRunning: true }), 'cursor', undefined, NOW);
    expect(json(file)).toEqual({ mcpServers: { memory: http() } });
    expect(check(envFor({ daemonRunning: true })).find((c) => c.client === 'cursor')).toMatchObject(
      { status: 'ok', problems: [] },
    );
  });

  it.skipIf(windows)('keeps the mode of an existing file', () => {
    const file = put('.cursor/mcp.json', '{}\n');
    chmodSync(file, 0o640);
    write(envFor(), 'cursor', undefined, NOW);
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it.skipIf(windows)('edits the target of a symlinked configuration, keeping the link', () => {
    const target = put('dotfiles/cursor-mcp.json', '{ "mcpServers": {} }\n');
    mkdirSync(join(home, '.cursor'));
    const link = join(home, '.cursor', 'mcp.json');
    symlinkSync(target, link);
    const r = write(envFor(), 'cursor', undefined, NOW);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(json(target)).toEqual({ mcpServers: { loci: stdio } });
    expect(read(r.backup as string)).toBe('{ "mcpServers": {} }\n');
  });

  it('treats an empty file as an empty configuration', () => {
    const file = put('.cursor/mcp.json', '  \n');
    const r = write(envFor(), 'cursor', undefined, NOW);
    expect(r.action).toBe('add');
    expect(read(r.backup as string)).toBe('  \n');
    expect(json(file)).toEqual({ mcpServers: { loci: stdio } });
  });
});

describe('invalid configurations', () => {
  const cases: [string, ClientId, string, RegExp][] = [
    [
      'broken JSON',
      'cursor',
      '.cursor/mcp.json',
      /mcp\.json is not valid JSON \(with comments\): InvalidSymbol at line 2, column 3; Loci will not edit it/,
    ],
    [
      'a comment in a strict-JSON file',
      'claude-desktop',
      '.config/Claude/claude_desktop_config.json',
      /claude_desktop_config\.json is not valid JSON: InvalidCommentToken at line 1, column 3/,
    ],
    [
      'a trailing comma in a strict-JSON file',
      'claude-code',
      '.claude.json',
      /\.claude\.json is not valid JSON: (PropertyNameExpected|ValueExpected)/,
    ],
    ['an array', 'windsurf', '.codeium/windsurf/mcp_config.json', /does not hold a JSON object/],
    [
      'a server list that is not an object',
      'vscode',
      '.config/Code/User/mcp.json',
      /mcp\.json has a "servers" that is not an object/,
    ],
  ];
  const texts: Record<string, string> = {
    'broken JSON': '{\n  mcpServers: {}\n}\n',
    'a comment in a strict-JSON file': '{ // mine\n  "mcpServers": {}\n}\n',
    'a trailing comma in a strict-JSON file': '{ "mcpServers": {}, }\n',
    'an array': '[]\n',
    'a server list that is not an object': '{ "servers": [] }\n',
  };

  for (const [what, id, rel, message] of cases) {
    it(`refuses ${what}: named in plan, write and check, and never touched`, () => {
      const original = texts[what] as string;
      const file = put(rel, original);
      const before = snapshot();
      const [p] = plan(envFor(), id);
      expect(p).toMatchObject({ action: 'blocked', before: null, diff: '' });
      expect(p?.problem).toContain(file);
      expect(p?.problem).toMatch(message);
      const err = thrown(() => write(envFor(), id, undefined, NOW));
      expect(err.code).toBe('invalid-args');
      expect(err.message).toBe(p?.problem);
      const c = check(envFor()).find((x) => x.client === id);
      expect(c).toMatchObject({ status: 'invalid', problems: [p?.problem] });
      // No backup, no temporary file, the bytes as they were.
      expect(snapshot()).toEqual(before);
      expect(read(file)).toBe(original);
    });
  }
});
