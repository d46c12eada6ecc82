// The bearer token that guards /api and /mcp: generated on first run, kept in the data
// directory readable by its owner only (mode 0600), replaced with `loci token rotate`.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LociError } from '../../../shared/errors';
import { writePrivateFile } from './privateFile';

export function tokenPath(dataDir: string): string {
  return join(dataDir, 'token');
}

function write(file: string, token: string): void {
  writePrivateFile(file, `${token}\n`);
}

export function loadOrCreateToken(dataDir: string): {
  token: string;
  path: string;
  created: boolean;
} {
  const path = tokenPath(dataDir);
  if (existsSync(path)) {
    const token = readFileSync(path, 'utf8').trim();
    if (!/^[A-Za-z0-9_-]{32,}$/.test(token)) {
      throw new LociError(
        'environment',
        `The token file ${path} is damaged. Run \`loci token rotate\` to make a new one.`,
      );
    }
    return { token, path, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  write(path, token);
  return { token, path, created: true };
}

export function rotateToken(dataDir: string): { token: string; path: string } {
  const path = tokenPath(dataDir);
  const token = randomBytes(32).toString('base64url');
  write(path, token);
  return { token, path };
}

/**
 * The current token, re-read when the file changes, so `loci token rotate` takes effect
 * in a running daemon at once (the old token stops working).
 */
export function tokenSource(dataDir: string): () => string {
  const path = tokenPath(dataDir);
  let cached = loadOrCreateToken(dataDir).token;
  let stamp = statSync(path).mtimeMs;
  return () => {
    try {
      const now = statSync(path).mtimeMs;
      if (now !== stamp) {
        cached = loadOrCreateToken(dataDir).token;
        stamp = now;
      }
    } catch {
      /* removed: keep serving with the token we had */
    }
    return cached;
  };
}
