// Arguments of the sync methods: a store joins a PostgreSQL hub or a synced folder,
// syncs now, lists the devices, leaves.
import { z } from 'zod';
import { StoreNameSchema } from './common';

export const SyncConnectArgsSchema = z
  .strictObject({
    store: StoreNameSchema.optional(),
    /** postgres://user[:password]@host[:port]/database[?sslmode=…] (libpq's URL form). */
    url: z.string().min(1).max(4096).optional(),
    /** A folder synced by Syncthing, Dropbox, iCloud Drive or a git repository. */
    folder: z.string().min(1).max(4096).optional(),
    /** The hub password, when it is not in the URL (kept in the OS keychain or a private file). */
    password: z.string().max(1024).optional(),
  })
  .refine((a) => (a.url === undefined) !== (a.folder === undefined), {
    message: 'give either url (a PostgreSQL hub) or folder (a synced folder), not both',
    path: ['url'],
  });
export type SyncConnectArgs = z.infer<typeof SyncConnectArgsSchema>;

export const SyncStoreArgsSchema = z.strictObject({ store: StoreNameSchema.optional() });
export const SyncStatusArgsSchema = z.strictObject({ store: StoreNameSchema.optional() });
