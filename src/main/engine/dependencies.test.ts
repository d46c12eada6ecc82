import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3-multiple-ciphers';
import { compareVersions, MIN_SQLITE_VERSION } from './store/database';
import { assertDependencyVersions, installedVersion, REQUIRED_VERSIONS } from './dependencies';

describe('dependency versions asserted at start', () => {
  it('finds the installed versions, all at or above their bounds', () => {
    for (const dep of REQUIRED_VERSIONS) {
      const v = installedVersion(dep.name, dep.entry);
      expect(v, dep.name).toMatch(/^\d+\.\d+\.\d+/);
      expect(compareVersions(v as string, dep.min), dep.name).toBeGreaterThanOrEqual(0);
    }
    expect(() => assertDependencyVersions()).not.toThrow();
    const db = new Database(':memory:');
    const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    db.close();
    expect(compareVersions(sqlite, MIN_SQLITE_VERSION)).toBeGreaterThanOrEqual(0);
  });

  it('refuses an old or missing package with a message naming it and the fix', () => {
    const old = (name: string) => (name === 'pdfjs-dist' ? '4.2.66' : '1.40.0');
    expect(() => assertDependencyVersions(old)).toThrow(
      /pdfjs-dist 4\.2\.66 is too old: Loci needs 4\.2\.67 or newer \(.*CVE-2024-4367\)/,
    );
    const oldSdk = (name: string) => (name === 'pdfjs-dist' ? '5.0.0' : '1.23.9');
    expect(() => assertDependencyVersions(oldSdk)).toThrow(
      /@modelcontextprotocol\/sdk 1\.23\.9 is too old: Loci needs 1\.24\.0/,
    );
    expect(() => assertDependencyVersions(() => null)).toThrow(/pdfjs-dist is not installed/);
    // Pre-release suffixes compare by their release number.
    expect(() => assertDependencyVersions(() => '9.0.0-beta.1')).not.toThrow();
  });
});
