// A client token's policy in words, as the CLI (`loci clients list`) and the Connect
// view say it.
import type { ClientPolicy } from './api/security';

export function policyWords(p: ClientPolicy): string[] {
  const out = [p.read_only ? 'read-only' : 'read and write'];
  out.push(p.stores ? `stores: ${p.stores.join(', ')}` : 'every store');
  if (!p.read_only && !p.ingest) out.push('no ingest');
  if (!p.read_only && !p.forget) out.push('no forget');
  if (p.shared_only) out.push('shared memories only');
  return out;
}
