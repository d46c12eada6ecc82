// The engine's access control: the client tokens (grants.ts) and, for every call, the
// decision of policy.ts. A refusal is an error naming the permission and an entry in the
// store's audit chain (`access.denied`, by the client), so the owner sees what a client
// tried.
import type { Actor, MethodName } from '../../../shared/api';
import { actorName } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { ClientGrants } from './grants';
import { refusal, refusalError, type Refusal } from './policy';

export interface AccessHost {
  readonly dataDir: string;
  now(): number;
  storeExists(name: string): boolean;
  store(name: string | undefined): Promise<OpenStore>;
}

export class AccessControl {
  readonly grants: ClientGrants;

  constructor(private readonly host: AccessHost) {
    this.grants = new ClientGrants(host.dataDir, () => host.now());
  }

  /**
   * Throws `forbidden` (after auditing it) when the caller's policy refuses the call.
   * An allowed call returns at once, synchronously: the handler starts in the same tick
   * as it would without access control.
   */
  authorize(method: MethodName, args: unknown, actor: Actor): Promise<void> | undefined {
    const r = refusal(method, args, actor);
    if (!r) return undefined;
    return this.refuse(method, r, actor);
  }

  private async refuse(method: MethodName, r: Refusal, actor: Actor): Promise<void> {
    const store = r.store ?? 'default';
    if (this.host.storeExists(store)) {
      try {
        const open = await this.host.store(store);
        open.db.transaction(() =>
          open.audit.append(
            {
              actor: actorName(actor),
              action: 'access.denied',
              target: null,
              data: { method, permission: r.permission },
            },
            this.host.now(),
          ),
        )();
      } catch {
        /* a store that cannot open (locked, damaged): the refusal still stands */
      }
    }
    throw refusalError(r);
  }
}
