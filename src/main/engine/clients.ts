// Which clients are connected right now (MCP sessions on any transport), for the Connect
// view and the tray. Transports register their sessions here; the engine only keeps the
// list, so it stays ignorant of how clients connect. It says when the list changed (a
// session opened or closed, or a client said its name), not on every call.
import type { ClientSession } from '../../shared/api';

export class ClientRegistry {
  private readonly sessions = new Map<string, ClientSession>();

  constructor(private readonly onChange: (connected: number) => void = () => undefined) {}

  connect(session: Omit<ClientSession, 'connected_at' | 'last_seen' | 'calls'>): void {
    const now = new Date().toISOString();
    this.sessions.set(session.id, { ...session, connected_at: now, last_seen: now, calls: 0 });
    this.onChange(this.sessions.size);
  }

  /** Updates a session's client name (known after `initialize`) or counts a call. */
  touch(id: string, patch: { client?: string; call?: boolean } = {}): void {
    const s = this.sessions.get(id);
    if (!s) return;
    const renamed = !!patch.client && patch.client !== s.client;
    if (patch.client) s.client = patch.client;
    if (patch.call) s.calls++;
    s.last_seen = new Date().toISOString();
    if (renamed) this.onChange(this.sessions.size);
  }

  disconnect(id: string): void {
    if (this.sessions.delete(id)) this.onChange(this.sessions.size);
  }

  list(): ClientSession[] {
    return [...this.sessions.values()].sort((a, b) => b.last_seen.localeCompare(a.last_seen));
  }
}
