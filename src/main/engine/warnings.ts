// The daemon's warnings. Each goes to the daemon's log (process warnings, which the CLI
// and the app print); one raised while a call runs — in the call or in work it started —
// also goes to that call's caller, when its transport relays it (MCP log notifications).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallLogLevel } from '../../shared/api';

export type CallLog = (level: CallLogLevel, message: string) => void;

const callLogs = new AsyncLocalStorage<CallLog>();

/** Runs `fn` with `log` as the caller's sink for everything it (and what it starts) warns. */
export function withCallLog<T>(log: CallLog | undefined, fn: () => T): T {
  return log ? callLogs.run(log, fn) : fn();
}

/**
 * A warning for the daemon's log and, within a call, for its caller: `forCaller` when
 * the log's text holds more than a caller should see (a stack, a path of the machine).
 */
export function warn(message: string, forCaller: string = message): void {
  process.emitWarning(message);
  tellCaller('warning', forCaller);
}

/** Something only the caller is told (the daemon's log keeps nothing of it). */
export function tellCaller(level: CallLogLevel, message: string): void {
  const log = callLogs.getStore();
  if (!log) return;
  try {
    log(level, message);
  } catch {
    // A caller gone away: its notes have nowhere to go.
  }
}
