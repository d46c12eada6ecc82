// Checks of a store's encryption at rest: whether it is encrypted and how its key is
// kept, the audit keyring sealed with it, and plaintext left behind (backups or copies
// from before the encryption, a half-written copy, files staged for ingestion).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AuditKeyring } from '../audit/keyring';
import { fileHeader } from '../store/cipher';
import { reencryptCopies } from '../store/encryption';
import { bytes, finding, ok, type CheckDefinition } from './types';

const WHERE = {
  keychain: 'sealed by the OS keychain',
  keyring: 'in the OS keyring',
  keyfile: 'in a key file only you can read',
  passphrase: 'derived from a passphrase (scrypt)',
} as const;

/** Every file under a folder, with its path. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

export const encryptionChecks: CheckDefinition[] = [
  {
    id: 'encryption.status',
    group: 'Encryption',
    title: 'Encryption at rest',
    run({ engine, store }) {
      const d = engine.registry.vault.descriptor(store.name);
      const flag = store.name === 'default' ? '' : ` ${store.name}`;
      if (!store.key) {
        if (d?.current && !d.decrypting) {
          return finding(
            'fail',
            `Store "${store.name}" is marked encrypted (key ${WHERE[d.current.source]}), but its database is a plain file anyone who can read it can open.`,
            `Encrypt it again with \`loci encrypt${flag}\` (or \`loci decrypt${flag}\` if it should be plain).`,
          );
        }
        return ok(
          `Store "${store.name}" is not encrypted: its database is a plain SQLite file. \`loci encrypt${flag}\` encrypts it in place.`,
        );
      }
      const record = d?.current;
      if (!record) {
        return finding(
          'warn',
          `Store "${store.name}" is encrypted, but its key is still in the pending slot (an encryption was cut short).`,
          'Open the store again (restart Loci): it finishes the change.',
        );
      }
      if (record.source === 'keyfile') {
        // Not a warning: on a machine without a keyring it is the default, and it keeps
        // the database, its backups and exports unreadable on their own.
        return ok(
          `Store "${store.name}" is encrypted (ChaCha20-Poly1305), its key ${WHERE.keyfile} in the data directory's keys/ folder: the database, its backups and exports are unreadable without it, but a copy of the whole data directory carries the key along. For a key that never lies on the disk, \`loci rekey${flag} --key passphrase\`.`,
        );
      }
      return ok(
        `Store "${store.name}" is encrypted (ChaCha20-Poly1305), its key ${WHERE[record.source]}, since ${record.created_at}.`,
      );
    },
  },
  {
    id: 'encryption.keyring',
    group: 'Encryption',
    title: 'Audit keys sealed',
    run({ engine, store }) {
      const sealed = AuditKeyring.isSealed(engine.dataDir, store.name);
      if (!store.key || sealed === null) {
        return ok(
          store.key
            ? 'This store has no audit key file yet.'
            : 'The store is plain: its audit keys are a file only you can read.',
        );
      }
      if (!sealed) {
        return finding(
          'fail',
          `The audit key file of the encrypted store "${store.name}" is not sealed: anyone who can read it could sign a forged audit chain.`,
          "Seal it with the store's key (safe).",
          true,
        );
      }
      return ok("The audit key file is sealed with the store's key.");
    },
    fix({ engine, store }) {
      AuditKeyring.reseal(engine.dataDir, store.name, null, store.key);
      return "Sealed the audit key file with the store's key.";
    },
  },
  {
    id: 'encryption.leftovers',
    group: 'Encryption',
    title: 'Plaintext left behind',
    run({ store }) {
      if (!store.key) return ok('The store is plain: nothing to leave behind.');
      const plain = filesUnder(store.dir).filter(
        (f) => !f.endsWith('.json') && fileHeader(f) === 'plain',
      );
      if (plain.length > 0) {
        return finding(
          'fail',
          `${plain.length} plain database file${plain.length === 1 ? '' : 's'} beside the encrypted store: ${plain.slice(0, 3).join(', ')}${plain.length > 3 ? ', …' : ''}.`,
          "Re-encrypt the backups with the store's key (safe: each is checked, then swapped in one rename); delete any other file by hand once you no longer need it.",
          true,
        );
      }
      return ok('No plaintext copy of the store lies beside it.');
    },
    async fix({ engine, store }) {
      const r = await reencryptCopies(engine.dataDir, store.name, [], store.key);
      return `Re-encrypted ${r.changed.length} backup${r.changed.length === 1 ? '' : 's'}${r.skipped.length ? `; left ${r.skipped.length} alone (${r.skipped.map((s) => s.path).join(', ')})` : ''}.`;
    },
  },
  {
    id: 'encryption.staging',
    group: 'Encryption',
    title: 'Uploads staged in clear',
    run({ engine, store }) {
      if (!store.key) return ok('The store is plain.');
      const dir = join(engine.dataDir, 'ingest-staging');
      const staged = filesUnder(dir);
      if (staged.length === 0) return ok('No upload waits in clear for ingestion.');
      const total = staged.reduce((n, f) => n + statSync(f).size, 0);
      return finding(
        'warn',
        `${staged.length} uploaded file${staged.length === 1 ? '' : 's'} (${bytes(total)}) wait${staged.length === 1 ? 's' : ''} for ingestion in clear in ${dir}.`,
        'They are removed once ingested, or after a day; ingest or cancel the upload to remove them now.',
      );
    },
  },
];
