// The desktop app keeps each encrypted store's key sealed by the OS keychain, through
// Electron's safeStorage (macOS Keychain, Windows DPAPI, the Secret Service or kwallet
// on Linux). The engine sees only this box (engine/store/keys.ts, source `keychain`).
import type { SafeStorage } from 'electron';
import type { SecretBox } from '../engine/store/keys';

/**
 * safeStorage as a SecretBox. On Linux, safeStorage falls back to a hard-coded password
 * when no keyring answers ("basic_text"): that is no protection, so the box then says
 * it is not available and the engine picks another source.
 */
export function safeStorageBox(
  safeStorage: Pick<
    SafeStorage,
    'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
  >,
  platform: NodeJS.Platform = process.platform,
): SecretBox {
  const available = () => {
    if (!safeStorage.isEncryptionAvailable()) return false;
    if (platform !== 'linux') return true;
    const backend = safeStorage.getSelectedStorageBackend();
    return backend !== 'basic_text' && backend !== 'unknown';
  };
  return {
    available,
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => safeStorage.decryptString(sealed),
  };
}
