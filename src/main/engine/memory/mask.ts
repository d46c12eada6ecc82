// Secrets on screen: a quarantined memory is shown with its credential masked wherever it
// appears (lists, the detail, the Atlas, recall, history, the activity feed), until a person
// reveals it (audited as `memory.reveal`) or redacts it (redact.ts). Where the credential
// sits is found by the same scan as the write path (write/secrets.ts, off this thread);
// when the scan cannot say where (it went past its budget), the whole text is masked.
import type { Actor, MemoryView } from '../../../shared/api';
import { SECRET_MASK } from '../../../shared/constants';
import { LociError } from '../../../shared/errors';
import type { Trust } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import type { SecretSpan } from '../write/secretRules';
import { scanSecretsMany } from '../write/scanHost';
import { actorName, isPerson } from './model';

export { SECRET_MASK };

export interface MaskedText {
  text: string;
  /** Credentials masked in it (1 when the whole text is). */
  hidden: number;
}

/** `text` with each span replaced by the mask; the whole text when the spans are unknown. */
export function applyMask(text: string, spans: readonly SecretSpan[] | undefined): MaskedText {
  if (!spans) return { text: text.length ? SECRET_MASK : text, hidden: text.length ? 1 : 0 };
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + SECRET_MASK;
    at = Math.max(at, s.end);
  }
  return { text: out + text.slice(at), hidden: spans.length };
}

/** Masks the credentials in many texts at once (one scan request). */
export async function maskTexts(texts: readonly string[]): Promise<MaskedText[]> {
  const scans = await scanSecretsMany(texts);
  return texts.map((t, i) => applyMask(t, scans[i]?.spans));
}

type Masked<T> = T & { secrets_hidden?: number };

/**
 * The quarantined items among `items`, their `fields` masked and `secrets_hidden` set to how
 * many credentials that hid (in the field with the most); other items are returned as they are. A quarantined memory's
 * title is derived from its first words, so the title is always among the fields.
 */
export async function maskQuarantined<T extends { trust: Trust }>(
  items: readonly T[],
  fields: readonly (keyof T & string)[],
): Promise<Masked<T>[]> {
  const texts: string[] = [];
  const where: [number, keyof T & string][] = [];
  items.forEach((item, i) => {
    if (item.trust !== 'quarantined') return;
    for (const f of fields) {
      const v = item[f];
      if (typeof v === 'string' && v.length > 0) {
        texts.push(v);
        where.push([i, f]);
      }
    }
  });
  if (texts.length === 0) return [...items];
  const masked = await maskTexts(texts);
  const out: Masked<T>[] = items.map((item) => ({ ...item }));
  masked.forEach((m, k) => {
    const [i, f] = where[k] as [number, keyof T & string];
    const item = out[i] as Masked<T>;
    (item as Record<string, unknown>)[f] = m.text;
    // The title repeats the first words of the content: the count is the larger field's.
    item.secrets_hidden = Math.max(item.secrets_hidden ?? 0, m.hidden);
  });
  return out;
}

/**
 * Every string inside a JSON value with the credentials in it masked, whatever the memory's
 * trust (for what an agent sent or was answered, shown in the activity feed). Only strings
 * long enough to hold a credential are scanned.
 */
export async function maskDeep<T>(value: T): Promise<T> {
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.length >= 8) strings.push(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  if (strings.length === 0) return value;
  const scans = await scanSecretsMany(strings);
  if (scans.every((s) => s.rules.length === 0)) return value;
  let k = 0;
  const rebuild = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length < 8) return v;
      const scan = scans[k++];
      return scan && scan.rules.length > 0 ? applyMask(v, scan.spans).text : v;
    }
    if (Array.isArray(v)) return v.map(rebuild);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([key, x]) => [key, rebuild(x)]));
    return v;
  };
  return rebuild(value) as T;
}

/**
 * A person is about to see a quarantined memory in clear: refused for anyone else, and
 * written to the audit chain (who, which memory, which version) for a person.
 */
export function noteReveal(store: OpenStore, actor: Actor, view: MemoryView, now: number): void {
  if (!isPerson(actor)) {
    throw new LociError('forbidden', 'Only a person can reveal a quarantined memory.', {
      id: view.id,
    });
  }
  store.audit.append(
    {
      actor: actorName(actor),
      action: 'memory.reveal',
      target: view.id,
      data: { version: view.version, rules: view.quarantine_reasons },
    },
    now,
  );
}
