// Store names as the engine accepts them (StoreNameSchema in src/shared/schemas.ts; the
// renderer does not load zod for one regex). The engine checks again and has the last word.

const STORE_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const STORE_NAME_HINT =
  '1–63 characters: lowercase letters, digits, "-" and "_", starting with a letter or digit.';

/** Why a name cannot be a store's name, or null when it can. */
export function storeNameProblem(name: string, taken: readonly string[] = []): string | null {
  if (name === '') return 'Give the store a name.';
  if (!STORE_NAME.test(name)) return `Not a valid store name: ${STORE_NAME_HINT}`;
  if (taken.includes(name)) return `A store named “${name}” already exists.`;
  return null;
}

/** The store every call without a store name uses; it keeps its name (store.rename refuses). */
export const DEFAULT_STORE = 'default';
