// Redact: a person replaces the credential in a quarantined memory with a placeholder
// that keeps a keyed fingerprint (`[redacted github-token 3f9a…]`: the same secret always
// gives the same fingerprint in this store, and nobody can get the secret back from it), in
// the current text and in every earlier version, and releases the rest to agents. One
// transaction, audited as `memory.redact` with the rules and fingerprints (never a value).
import type { Actor, MutationResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import type { SecretSpan } from '../write/secretRules';
import { scanSecretsMany } from '../write/scanHost';
import { isPerson } from './model';
import { applyChange, stateOf } from './mutate';
import { loadRow, requireRow } from './read';

export interface Redaction {
  rule: string;
  fingerprint: string;
}

interface VersionText {
  version: number;
  title: string;
  content: string;
}

/** The placeholder for a credential: its rule and a keyed fingerprint of the value. */
function placeholder(store: OpenStore, rule: string, value: string): Redaction & { text: string } {
  const fingerprint = store.audit.fingerprint({ redacted: value }).slice(0, 16);
  return {
    rule,
    fingerprint,
    text: `[redacted ${rule.replace(/^secretlint:/, '')} ${fingerprint}]`,
  };
}

function redactText(
  store: OpenStore,
  text: string,
  spans: readonly SecretSpan[],
  found: Map<string, Redaction>,
): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    const p = placeholder(store, s.rule, text.slice(s.start, s.end));
    found.set(`${p.rule} ${p.fingerprint}`, { rule: p.rule, fingerprint: p.fingerprint });
    out += text.slice(at, s.start) + p.text;
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

export async function redactMemory(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: () => number,
): Promise<MutationResult & { redacted: Redaction[] }> {
  if (!isPerson(actor)) {
    throw new LociError(
      'forbidden',
      'Only a person (the observatory or the CLI) can redact a quarantined memory.',
    );
  }
  const row = requireRow(store, actor, id);
  if (row.trust !== 'quarantined') {
    throw new LociError(
      'conflict',
      `Memory ${id} is not quarantined: there is nothing to redact.`,
      {
        id,
      },
    );
  }
  const versions = stmt(
    store.db,
    'SELECT version, title, content FROM memory_version WHERE rid = ? ORDER BY version',
  ).all(row.rid) as VersionText[];
  const texts = [row.title, row.content, ...versions.flatMap((v) => [v.title, v.content])];
  const scans = await scanSecretsMany(texts);
  if (scans.some((s) => s.rules.length > 0 && !s.spans)) {
    throw new LociError(
      'unavailable',
      `The credential scan of ${id} did not finish, so where the secret sits is not known: edit the memory by hand, or try again.`,
      { id },
    );
  }
  const found = new Map<string, Redaction>();
  const redacted = texts.map((t, i) => redactText(store, t, scans[i]?.spans ?? [], found));
  const [title, content] = redacted as [string, string];
  if (title === row.title && content === row.content) {
    throw new LociError(
      'conflict',
      `No credential could be located in the text of ${id} (it was quarantined for ${JSON.parse(row.quarantine_reasons).join(', ') || 'a reason not in its text'}): edit it, or promote it if it is safe.`,
      { id },
    );
  }
  // What is left must be clean for the memory to go to agents; otherwise it stays quarantined.
  const [rescan] = await scanSecretsMany([`${title}\n${content}`]);
  const current = loadRow(store, id);
  if (!current || current.version !== row.version || current.deleted_at !== null) {
    throw new LociError(
      'conflict',
      `Memory ${id} changed while it was being redacted: look at it again and redact it once more.`,
      { id },
    );
  }
  const rules = rescan?.rules ?? [];
  const list = [...found.values()];
  let result: MutationResult | undefined;
  store.db.transaction(() => {
    result = applyChange(
      store,
      actor,
      current,
      {
        ...stateOf(current),
        title,
        content,
        trust: rules.length ? 'quarantined' : 'trusted',
        quarantine_reasons: rules,
        owner: current.owner,
      },
      now(),
      'memory.redact',
      { redacted: list },
    );
    // The versions before (the one just saved included) hold the secret too.
    const put = stmt(
      store.db,
      'UPDATE memory_version SET title = ?, content = ? WHERE rid = ? AND version = ?',
    );
    versions.forEach((v, i) =>
      put.run(redacted[2 + i * 2], redacted[3 + i * 2], current.rid, v.version),
    );
    put.run(title, content, current.rid, current.version);
  })();
  return { ...(result as MutationResult), redacted: list };
}
