// Arguments of the security methods: a store's encryption at rest and the passphrase
// that unlocks it.
import { z } from 'zod';
import { StoreNameSchema } from './common';

export const KEY_SOURCE_NAMES = ['keychain', 'keyring', 'keyfile', 'passphrase'] as const;

/** A passphrase as typed: at least 8 characters, at most 1,024. */
const PassphraseSchema = z
  .string()
  .min(8, 'a passphrase has at least 8 characters')
  .max(1024, 'a passphrase has at most 1,024 characters');

export const StoreEncryptArgsSchema = z.strictObject({
  store: StoreNameSchema.optional(),
  /** Where the key is kept (default: the keychain in the app, the OS keyring, else a key file). */
  source: z.enum(KEY_SOURCE_NAMES).optional(),
  /** For `source: passphrase`: the passphrase the key is derived from (scrypt). */
  passphrase: PassphraseSchema.optional(),
});

export const StoreDecryptArgsSchema = z.strictObject({ store: StoreNameSchema.optional() });

export const StoreUnlockArgsSchema = z.strictObject({
  store: StoreNameSchema.optional(),
  passphrase: z.string().min(1).max(1024),
});

export type StoreEncryptArgs = z.input<typeof StoreEncryptArgsSchema>;

export const StoreExportArgsSchema = z.strictObject({
  store: StoreNameSchema.optional(),
  /** An encrypted store's bundle in clear (a person only); it is sealed otherwise. */
  plaintext: z.boolean().optional(),
});

/** A client's name: what it is called in the audit chain (`mcp:<name>`). */
export const ClientNameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,63}$/,
    'a client name is 1–64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

export const ClientAddArgsSchema = z.strictObject({
  name: ClientNameSchema,
  read_only: z.boolean().optional(),
  /** The stores it may use (default: all). */
  stores: z.array(StoreNameSchema).min(1).max(100).optional(),
  no_ingest: z.boolean().optional(),
  no_forget: z.boolean().optional(),
  shared_only: z.boolean().optional(),
});

export const ClientNameArgsSchema = z.strictObject({ name: ClientNameSchema });
