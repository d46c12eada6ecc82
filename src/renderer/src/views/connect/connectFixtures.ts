// Contract-shaped answers for the Connect view's tests (and the Overview's clients card).
import type {
  ClientListResult,
  SetupCheckResult,
  SetupPlan,
  SetupPlanResult,
  SystemInfo,
} from '../../../../shared/api';

export const TOKEN = 'tok_0123456789abcdefghijklmnopqrstuv';

export function systemInfoFixture(overrides: Partial<SystemInfo> = {}): SystemInfo {
  return {
    version: '0.1.0',
    data_dir: '/home/me/.config/Loci',
    url: 'http://127.0.0.1:4747',
    port: 4747,
    token_path: '/home/me/.config/Loci/token',
    owner: 'serve',
    pid: 4242,
    node: 'v20.19.0',
    sqlite: '3.53.0',
    platform: 'linux x64',
    ...overrides,
  };
}

const NODE = '/usr/bin/node';
const BIN = '/opt/loci/bin/loci.js';

function httpEntry(client: string, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  if (client === 'windsurf') return { serverUrl: 'http://127.0.0.1:4747/mcp', headers };
  if (client === 'cursor') return { url: 'http://127.0.0.1:4747/mcp', headers };
  return { type: 'http', url: 'http://127.0.0.1:4747/mcp', headers };
}

const CLIENTS: [id: string, name: string, file: string, container: string, installed: boolean][] = [
  ['claude-code', 'Claude Code', '/home/me/.claude.json', 'mcpServers', false],
  [
    'claude-desktop',
    'Claude Desktop',
    '/home/me/.config/Claude/claude_desktop_config.json',
    'mcpServers',
    false,
  ],
  ['cursor', 'Cursor', '/home/me/.cursor/mcp.json', 'mcpServers', true],
  ['vscode', 'VS Code', '/home/me/.config/Code/User/mcp.json', 'servers', true],
];

const STDIO_ONLY = new Set(['claude-desktop']);

export function planFixture(
  transport: 'http' | 'stdio',
  token = TOKEN,
  overrides: Partial<Record<string, Partial<SetupPlan>>> = {},
): SetupPlanResult {
  return {
    clients: CLIENTS.map(([client, name, file, container, installed]) => {
      const t = STDIO_ONLY.has(client) ? 'stdio' : transport;
      const after = t === 'http' ? httpEntry(client, token) : { command: NODE, args: [BIN, 'mcp'] };
      const diff = [
        `${container}.loci`,
        '- (none)',
        ...JSON.stringify(after, null, 2)
          .split('\n')
          .map((l) => `+ ${l}`),
      ].join('\n');
      return {
        client,
        name,
        installed,
        file,
        transport: t,
        entry: 'loci',
        action: 'add' as const,
        before: null,
        after,
        diff,
        problem: null,
        ...overrides[client],
      };
    }),
  };
}

export function checkFixture(): SetupCheckResult {
  return {
    endpoint: 'http://127.0.0.1:4747/mcp',
    clients: [
      {
        client: 'claude-code',
        name: 'Claude Code',
        installed: false,
        file: '/home/me/.claude.json',
        status: 'not-installed',
        problems: [],
      },
      {
        client: 'claude-desktop',
        name: 'Claude Desktop',
        installed: false,
        file: '/home/me/.config/Claude/claude_desktop_config.json',
        status: 'not-installed',
        problems: [],
      },
      {
        client: 'cursor',
        name: 'Cursor',
        installed: true,
        file: '/home/me/.cursor/mcp.json',
        status: 'stale',
        problems: ['"loci" has an old token'],
      },
      {
        client: 'vscode',
        name: 'VS Code',
        installed: true,
        file: '/home/me/.config/Code/User/mcp.json',
        status: 'ok',
        problems: [],
      },
    ],
  };
}

export function clientsFixture(connected = true): ClientListResult {
  const now = Date.now();
  const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
  return {
    sessions: connected
      ? [
          {
            id: 's1',
            client: 'cursor',
            transport: 'http',
            connected_at: iso(600_000),
            last_seen: iso(5_000),
            calls: 12,
          },
          {
            id: 's2',
            client: 'claude-code',
            transport: 'stdio',
            connected_at: iso(120_000),
            last_seen: iso(60_000),
            calls: 3,
          },
        ]
      : [],
    last_calls: [
      {
        id: 40,
        at: iso(5_000),
        actor: 'mcp:cursor',
        transport: 'http',
        tool: 'recall',
        ok: true,
        error_code: null,
        duration_ms: 14,
      },
      {
        id: 38,
        at: iso(60_000),
        actor: 'mcp:claude-code',
        transport: 'stdio',
        tool: 'remember',
        ok: true,
        error_code: null,
        duration_ms: 9,
      },
      {
        id: 12,
        at: iso(3_600_000),
        actor: 'mcp:windsurf',
        transport: 'http',
        tool: 'map',
        ok: false,
        error_code: 'not-found',
        duration_ms: 3,
      },
    ],
  };
}
