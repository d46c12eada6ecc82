import { describe, expect, it } from 'vitest';
import { safeStorageBox } from './secrets';

/** safeStorage as Electron offers it, with a reversible "encryption" standing in for the OS. */
function fakeSafeStorage(available: boolean, backend = 'gnome_libsecret') {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend as 'gnome_libsecret',
    encryptString: (s: string) => Buffer.from(`sealed:${Buffer.from(s).toString('base64')}`),
    decryptString: (b: Buffer) => {
      const text = b.toString();
      if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext');
      return Buffer.from(text.slice(7), 'base64').toString();
    },
  };
}

describe("safeStorage as the engine's keychain", () => {
  it('seals and opens a key through safeStorage', () => {
    const box = safeStorageBox(fakeSafeStorage(true), 'darwin');
    expect(box.available()).toBe(true);
    const sealed = box.encrypt('ab'.repeat(32));
    expect(sealed.toString()).not.toContain('ab'.repeat(32));
    expect(box.decrypt(sealed)).toBe('ab'.repeat(32));
    expect(() => box.decrypt(Buffer.from('tampered'))).toThrow(/decrypting/);
  });

  it('is not available where safeStorage is not, or only obfuscates (Linux basic_text)', () => {
    expect(safeStorageBox(fakeSafeStorage(false), 'win32').available()).toBe(false);
    expect(safeStorageBox(fakeSafeStorage(true, 'basic_text'), 'linux').available()).toBe(false);
    expect(safeStorageBox(fakeSafeStorage(true, 'kwallet5'), 'linux').available()).toBe(true);
  });
});
