// What a client token may do, decided here for every call of every transport (the
// handler registry asks before any handler runs). Each method of the contract has one
// permission; a client's policy allows or refuses it, and a refusal names the
// permission it lacked. Calls with the owner's token (the CLI, the observatory, an
// agent configured without a token of its own) are not held to a policy.
import type { Actor, ClientPolicy, MethodName } from '../../../shared/api';
import { LociError } from '../../../shared/errors';

/**
 * - `read`: reads a store's memories (or what is derived from them);
 * - `write`: changes memories, links, reviews, conflicts;
 * - `forget`: forgets or erases memories (a write too);
 * - `ingest`: reads files or transcripts into memories (a write too);
 * - `info`: about the installation, no memory in it;
 * - `owner`: settings, tokens, stores, keys, backups, exports, other clients' activity —
 *   never a client token's.
 */
export type Permission = 'read' | 'write' | 'forget' | 'ingest' | 'info' | 'owner';

/** Every method's permission: a new method does not compile until it has one. */
export const METHOD_PERMISSIONS: Record<MethodName, Permission> = {
  'memory.remember': 'write',
  'memory.rememberMany': 'write',
  'memory.recall': 'read',
  'memory.get': 'read',
  'memory.list': 'read',
  'memory.update': 'write',
  'memory.tag': 'write',
  'memory.forget': 'forget',
  'memory.restore': 'write',
  'memory.erase': 'forget',
  'memory.promote': 'write',
  'memory.redact': 'owner',
  'memory.history': 'read',
  'memory.titles': 'read',
  'memory.complete': 'read',
  'link.create': 'write',
  'link.remove': 'write',
  'link.createMany': 'write',
  'graph.neighbors': 'read',
  'memory.timeline': 'read',
  'memory.map': 'read',
  'memory.bootstrap': 'read',
  'procedure.recordOutcome': 'write',
  'procedure.find': 'read',
  'activity.list': 'owner',
  'activity.get': 'owner',
  'activity.stats': 'owner',
  'memory.revert': 'write',
  'graph.atlas': 'read',
  'store.rename': 'owner',
  'stats.attention': 'read',
  'stats.overview': 'read',
  'system.info': 'info',
  'token.rotate': 'owner',
  'clients.list': 'owner',
  'clients.add': 'owner',
  'clients.tokens': 'owner',
  'clients.revoke': 'owner',
  'clients.rotate': 'owner',
  'setup.plan': 'owner',
  'setup.write': 'owner',
  'setup.check': 'owner',
  'setup.hooks': 'owner',
  'store.list': 'info',
  'store.create': 'owner',
  'store.reset': 'owner',
  'store.backup': 'owner',
  'store.backups': 'owner',
  'store.export': 'owner',
  'store.import': 'owner',
  'store.encryption': 'owner',
  'store.encrypt': 'owner',
  'store.rekey': 'owner',
  'store.decrypt': 'owner',
  'store.unlock': 'owner',
  'stats.get': 'read',
  'recall.calibrate': 'read',
  'embedding.backfill': 'write',
  'models.list': 'info',
  'models.install': 'owner',
  'models.remove': 'owner',
  'models.use': 'owner',
  'models.decline': 'owner',
  'ingest.files': 'ingest',
  'ingest.upload': 'ingest',
  'ingest.cancel': 'ingest',
  'ingest.undo': 'ingest',
  'ingest.redo': 'ingest',
  'ingest.list': 'read',
  'ingest.folders': 'info',
  'ingest.setFolders': 'owner',
  'audit.list': 'owner',
  'audit.verify': 'read',
  'audit.anchor': 'owner',
  'audit.export': 'owner',
  'audit.access': 'owner',
  'audit.rotateKey': 'owner',
  'doctor.run': 'read',
  'doctor.fix': 'owner',
  'dream.run': 'write',
  'dream.cancel': 'write',
  'dream.list': 'read',
  'dream.get': 'read',
  'review.list': 'read',
  'review.accept': 'write',
  'review.reject': 'write',
  'eval.mark': 'owner',
  'eval.cases': 'owner',
  'eval.remove': 'owner',
  'eval.run': 'owner',
  'eval.runs': 'owner',
  'transcript.import': 'ingest',
  'journal.list': 'read',
  'journal.get': 'read',
  'journal.propose': 'write',
  'conflict.list': 'read',
  'conflict.resolve': 'write',
  'conflict.reopen': 'write',
  'conflict.scan': 'write',
  'memory.verify': 'read',
  'journal.window': 'read',
  'journal.distill': 'write',
  // Where a store's memories go beyond this machine is the owner's decision.
  'sync.connect': 'owner',
  'sync.status': 'owner',
  'sync.now': 'owner',
  'sync.devices': 'owner',
  'sync.leave': 'owner',
};

/** The flag of `loci clients add` that refuses each permission, for the message. */
const FLAG: Record<Permission, string> = {
  read: '--stores',
  write: '--read-only',
  forget: '--no-forget',
  ingest: '--no-ingest',
  info: '',
  owner: '',
};

export interface Refusal {
  permission: Permission | 'store' | 'private';
  message: string;
  store: string | null;
}

/** The store a call is about (absent: `default`), for methods that take one. */
function storeOf(args: unknown): string {
  const s = (args as { store?: unknown } | null)?.store;
  return typeof s === 'string' ? s : 'default';
}

/** Why a client may not make this call, or null when it may. */
export function refusal(method: MethodName, args: unknown, actor: Actor): Refusal | null {
  const grant = actor.grant;
  if (!grant) return null;
  const p: ClientPolicy = grant.policy;
  const permission = METHOD_PERMISSIONS[method];
  const who = `Client "${grant.name}"`;
  const deny = (perm: Refusal['permission'], why: string, store: string | null = null) => ({
    permission: perm,
    message: `${who} may not ${why}.`,
    store,
  });
  if (permission === 'owner') {
    return deny(
      'owner',
      `call ${method}: it is the owner's (the CLI and the observatory), never a client token's`,
    );
  }
  if (permission === 'info') return null;
  // Completing store names or kinds reads no store (the names offered are the token's own).
  if (method === 'memory.complete') {
    const field = (args as { field?: unknown } | null)?.field;
    if (field === 'store' || field === 'kind') return null;
  }
  const store = storeOf(args);
  if (p.stores && !p.stores.includes(store)) {
    return deny(
      'store',
      `use store "${store}": its token allows ${p.stores.map((s) => `"${s}"`).join(', ')} only (permission: stores)`,
      store,
    );
  }
  const flag = FLAG[permission];
  if (p.read_only && permission !== 'read') {
    return deny(
      permission,
      `call ${method}: its token is read-only (permission: ${permission}; \`loci clients add\` without --read-only allows it)`,
      store,
    );
  }
  if (permission === 'forget' && !p.forget) {
    return deny(
      'forget',
      `forget or erase memories (permission: forget; added with ${flag})`,
      store,
    );
  }
  if (permission === 'ingest' && !p.ingest) {
    return deny(
      'ingest',
      `ingest files or transcripts (permission: ingest; added with ${flag})`,
      store,
    );
  }
  if (p.shared_only && permission === 'write' && wantsPrivate(args)) {
    return deny(
      'private',
      'write a private memory: its token is shared-only (permission: private; added with --shared-only)',
      store,
    );
  }
  return null;
}

function wantsPrivate(args: unknown): boolean {
  const a = args as { visibility?: unknown; items?: { visibility?: unknown }[] } | null;
  if (a?.visibility === 'private') return true;
  return Array.isArray(a?.items) && a.items.some((i) => i?.visibility === 'private');
}

/** Throws the refusal as a `forbidden` LociError naming the permission. */
export function refusalError(r: Refusal): LociError {
  return new LociError('forbidden', r.message, {
    permission: r.permission,
    ...(r.store ? { store: r.store } : {}),
  });
}
