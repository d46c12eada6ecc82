import { describe, expect, it } from 'vitest';
import { BENIGN, SECRETS } from '../../../../test/fixtures/secretsCorpus';
import { scanSecrets } from './secrets';
import { entropy, isPlaceholder } from './secretRules';

describe('the credential corpus', () => {
  it('has at least 40 secrets and 40 benign look-alikes', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(40);
    expect(BENIGN.length).toBeGreaterThanOrEqual(40);
  });

  it('quarantines every real-format secret', async () => {
    const missed: string[] = [];
    for (const item of SECRETS) {
      if ((await scanSecrets(item.text)).rules.length === 0) missed.push(item.label);
    }
    expect(missed).toEqual([]);
  });

  it('lets every benign look-alike through', async () => {
    const flagged: string[] = [];
    for (const item of BENIGN) {
      const { rules } = await scanSecrets(item.text);
      if (rules.length > 0) flagged.push(`${item.label}: ${rules.join(', ')}`);
    }
    expect(flagged).toEqual([]);
  });
});

describe('scanSecrets', () => {
  it('reports rule ids only, never the matched value', async () => {
    const token = `ghp_${'aB3'.repeat(12)}`;
    const scan = await scanSecrets(`my token ${token}`);
    expect(scan.rules).toContain('github-token');
    expect(JSON.stringify(scan)).not.toContain(token.slice(4));
  });

  it('leaves nothing behind in the process-wide performance timeline, however many scans', async () => {
    for (let i = 0; i < 200; i++) await scanSecrets(`note ${i} about the deploy`);
    await new Promise((r) => setTimeout(r, 10));
    expect(performance.getEntriesByType('mark')).toHaveLength(0);
    expect(performance.getEntriesByType('measure')).toHaveLength(0);
  });
});

describe('helpers', () => {
  it('recognises placeholders', () => {
    for (const v of [
      '<token>',
      '${DB_PASSWORD}',
      '$TOKEN',
      '%API_KEY%',
      'xxxxxxxx',
      '********',
      'your-key',
      'changeme',
      'password',
    ]) {
      expect(isPlaceholder(v), v).toBe(true);
    }
    for (const v of ['hunter2hunter2', 'Tr0ub4dor&3', 'a8f5f167f44f4964'])
      expect(isPlaceholder(v), v).toBe(false);
  });

  it('computes Shannon entropy', () => {
    expect(entropy('aaaa')).toBe(0);
    expect(entropy('abcd')).toBe(2);
  });
});
