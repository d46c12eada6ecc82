// The MCP clients Loci knows how to connect (Claude Code, Claude Desktop, Cursor,
// VS Code, Windsurf, Zed): where each keeps its configuration on each OS, and the entry
// each expects for an HTTP or a stdio server.
import { isAbsolute, join } from 'node:path';

export type ClientId = 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode' | 'windsurf' | 'zed';
export type SetupTransport = 'http' | 'stdio';

export interface SetupContext {
  home: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

export interface Endpoint {
  /** http://127.0.0.1:<port>/mcp */
  url: string;
  token: string | null;
  /** How to start `loci mcp`: the node binary and the bin script of this installation. */
  command: string;
  args: string[];
  /** For stdio entries: the client's own token as LOCI_TOKEN (`loci clients`). */
  env?: Record<string, string>;
}

export interface ClientDefinition {
  id: ClientId;
  name: string;
  /** The configuration file to edit. */
  file(ctx: SetupContext): string;
  /** Files or folders whose presence means the client is installed. */
  markers(ctx: SetupContext): string[];
  /**
   * The client reads its file as JSON with comments and trailing commas (VS Code, Cursor
   * and Zed do); otherwise as strict JSON, and a comment makes the file invalid.
   */
  jsonc: boolean;
  /** Where the server entries live in the file. */
  container: string[];
  transports: SetupTransport[];
  entry(transport: SetupTransport, endpoint: Endpoint): Record<string, unknown>;
}

function appData(ctx: SetupContext): string {
  return ctx.env.APPDATA || join(ctx.home, 'AppData', 'Roaming');
}

function userConfigDir(ctx: SetupContext): string {
  if (ctx.platform === 'darwin') return join(ctx.home, 'Library', 'Application Support');
  if (ctx.platform === 'win32') return appData(ctx);
  // The XDG spec: an empty or relative XDG_CONFIG_HOME is ignored.
  const xdg = ctx.env.XDG_CONFIG_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(ctx.home, '.config');
}

/** Zed keeps ~/.config/zed on macOS too, but follows XDG_CONFIG_HOME on Linux. */
function zedDir(ctx: SetupContext): string {
  if (ctx.platform === 'win32') return join(appData(ctx), 'Zed');
  if (ctx.platform === 'darwin') return join(ctx.home, '.config', 'zed');
  return join(userConfigDir(ctx), 'zed');
}

const auth = (e: Endpoint) => (e.token ? { Authorization: `Bearer ${e.token}` } : {});
/** A stdio entry's environment, when the client has a token of its own. */
const env = (e: Endpoint) => (e.env ? { env: e.env } : {});

export const CLIENTS: ClientDefinition[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    file: (ctx) => join(ctx.home, '.claude.json'),
    markers: (ctx) => [join(ctx.home, '.claude.json'), join(ctx.home, '.claude')],
    jsonc: false,
    container: ['mcpServers'],
    transports: ['http', 'stdio'],
    entry: (t, e) =>
      t === 'http'
        ? { type: 'http', url: e.url, headers: auth(e) }
        : { type: 'stdio', command: e.command, args: e.args, ...env(e) },
  },
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    file: (ctx) => join(userConfigDir(ctx), 'Claude', 'claude_desktop_config.json'),
    markers: (ctx) => [join(userConfigDir(ctx), 'Claude')],
    jsonc: false,
    container: ['mcpServers'],
    // Claude Desktop starts local servers from its config file; remote ones are added in its UI.
    transports: ['stdio'],
    entry: (_t, e) => ({ command: e.command, args: e.args, ...env(e) }),
  },
  {
    id: 'cursor',
    name: 'Cursor',
    file: (ctx) => join(ctx.home, '.cursor', 'mcp.json'),
    markers: (ctx) => [join(ctx.home, '.cursor')],
    jsonc: true,
    container: ['mcpServers'],
    transports: ['http', 'stdio'],
    entry: (t, e) =>
      t === 'http'
        ? { url: e.url, headers: auth(e) }
        : { command: e.command, args: e.args, ...env(e) },
  },
  {
    id: 'vscode',
    name: 'VS Code',
    file: (ctx) => join(userConfigDir(ctx), 'Code', 'User', 'mcp.json'),
    markers: (ctx) => [join(userConfigDir(ctx), 'Code')],
    jsonc: true,
    container: ['servers'],
    transports: ['http', 'stdio'],
    entry: (t, e) =>
      t === 'http'
        ? { type: 'http', url: e.url, headers: auth(e) }
        : { type: 'stdio', command: e.command, args: e.args, ...env(e) },
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    file: (ctx) => join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json'),
    markers: (ctx) => [join(ctx.home, '.codeium', 'windsurf')],
    jsonc: false,
    container: ['mcpServers'],
    transports: ['http', 'stdio'],
    entry: (t, e) =>
      t === 'http'
        ? { serverUrl: e.url, headers: auth(e) }
        : { command: e.command, args: e.args, ...env(e) },
  },
  {
    id: 'zed',
    name: 'Zed',
    file: (ctx) => join(zedDir(ctx), 'settings.json'),
    markers: (ctx) => [zedDir(ctx)],
    jsonc: true,
    container: ['context_servers'],
    transports: ['stdio'],
    entry: (_t, e) => ({ source: 'custom', command: e.command, args: e.args, env: e.env ?? {} }),
  },
];
