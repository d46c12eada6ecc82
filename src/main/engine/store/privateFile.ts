// One way to write a file only its owner may read (tokens, keys, the clients' hashes):
// through a temporary name, mode 0600 (chmod too: the umask may have widened it), then
// renamed over the old one, so a crash leaves the old file or the new one.
import { chmodSync, renameSync, writeFileSync } from 'node:fs';

export function writePrivateFile(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
