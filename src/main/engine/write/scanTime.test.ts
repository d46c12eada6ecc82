// Every credential rule — Loci's own and each rule of secretlint's preset — runs in time
// linear in its input: fed the adversarial shapes of the outside test (a provider prefix
// repeated to 64 KiB, long runs of the characters a token allows, prefixes followed by
// such runs) and random mixes of them, each rule takes at most 50 ms on one 64 KiB text.
// A super-linear rule takes seconds on these shapes, so the bound does not depend on an
// idle machine: each case is timed up to three times and its fastest run is what counts.
import { lintSource } from '@secretlint/core';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from './secretRules';

const SIZE = 64 * 1024;
const LIMIT_MS = 50;

/** Literal starts the rules know, and the words their key-name rules look for. */
const PREFIXES = [
  'pypi-',
  'pypi-AgEIcHlwaS5vcmc',
  'sk-',
  'sk-ant-',
  'sk-ant-api03-',
  'sk-proj-',
  'sk_live_',
  'rk_live_',
  'whsec_',
  'xoxb-',
  'xoxp-',
  'xoxb-1-',
  'xapp-',
  'glpat-',
  'ghp_',
  'github_pat_',
  'AKIA',
  'AIza',
  'npm_',
  'hf_',
  'SG.',
  'eyJ',
  'eyJa.eyJ',
  'dop_v1_',
  'key-',
  'AccountKey=',
  'sig=',
  '&sig=',
  'https://',
  'redis://:',
  'a://b:',
  'postgres://u:p@',
  'curl -u ',
  '-u a:',
  'bot1:',
  '1:AA',
  'password is ',
  'password: ',
  'TOKEN=',
  'export API_KEY=',
  'secret: ',
  '"token": "',
  '"password":"',
  'authorization: bearer ',
  'Authorization: Basic ',
  'x-api-key: ',
  'aws secret ',
  'aws_secret_access_key = ',
  '-----BEGIN ',
  '-----BEGIN RSA PRIVATE KEY-----',
  'hooks.slack.com/services/T',
  'doo_v1_',
  'ATATT3x',
  'hvs.',
  'ntn_',
  'secret_',
  'AAAA',
  'AAAAa:APA91b',
  'AGE-SECRET-KEY-1',
  'client-key-data: ',
  'mysql ',
  ' -p',
  'mysql -u a -p',
  'sshpass -p ',
  'docker login ',
  'docker login -p ',
  '--password ',
  ' -u ',
  ' -u a:',
  'machine a login b password ',
  'https://discord.com/api/webhooks/1/',
  'MTk4.abcdef.',
  'secret ',
  'token is ',
  'api key ',
  'the password for ',
  'pw: ',
  '?sv=1&sig=',
  '@',
  ':',
  '=',
  '/',
  '.',
];
/** Characters tokens are made of. */
const RUNS = ['a', 'A', '0', '-', '_', 'aA0', 'aA0_-', 'f0', ' ', '=', '+/', '%2F'];

const fill = (piece: string) => piece.repeat(Math.ceil(SIZE / piece.length)).slice(0, SIZE);

function shapes(): [string, string][] {
  const out: [string, string][] = [];
  for (const p of PREFIXES) {
    out.push([`${p} repeated`, fill(p)]);
    out.push([`${p} then a run`, (p + fill('aA0_-')).slice(0, SIZE)]);
    out.push([`${p}+run+space repeated`, fill(`${p}${'aA0'.repeat(30)} `)]);
  }
  for (const r of RUNS) out.push([`run of ${JSON.stringify(r)}`, fill(r)]);
  // Random mixes of prefixes and runs (seeded: the same texts every run).
  const piece = fc.oneof(fc.constantFrom(...PREFIXES), fc.constantFrom(...RUNS));
  const mixes = fc.sample(fc.array(piece, { minLength: 2, maxLength: 6 }), {
    numRuns: 12,
    seed: 16,
  });
  mixes.forEach((parts, i) => out.push([`mix ${i}: ${parts.join('|')}`, fill(parts.join(''))]));
  return out;
}

function fastest(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
    if (best <= LIMIT_MS) break;
  }
  return best;
}

async function fastestAsync(run: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await run();
    best = Math.min(best, performance.now() - t0);
    if (best <= LIMIT_MS) break;
  }
  return best;
}

describe('credential rules run in linear time', () => {
  const cases = shapes();

  it(`every one of Loci's rules takes ≤ ${LIMIT_MS} ms on each adversarial 64 KiB text`, () => {
    const slow: string[] = [];
    for (const rule of SECRET_RULES) {
      for (const [label, text] of cases) {
        const ms = fastest(() => {
          for (const m of text.matchAll(rule.pattern)) rule.accept?.(m[rule.valueGroup] ?? m[0]);
        });
        if (ms > LIMIT_MS) slow.push(`${rule.id} on ${label}: ${ms.toFixed(0)} ms`);
      }
    }
    expect(slow).toEqual([]);
  }, 300_000);

  it(`every rule of secretlint's preset takes ≤ ${LIMIT_MS} ms on each adversarial 64 KiB text`, async () => {
    const slow: string[] = [];
    for (const rule of presetRules) {
      const config = { rules: [{ id: rule.meta.id, rule }] };
      for (const [label, text] of cases) {
        const ms = await fastestAsync(() =>
          lintSource({
            source: { content: text, filePath: 'memory.txt', ext: '.txt', contentType: 'text' },
            options: { config, maskSecrets: true, noPhysicFilePath: true },
          }),
        );
        if (ms > LIMIT_MS) slow.push(`${rule.meta.id} on ${label}: ${ms.toFixed(0)} ms`);
      }
    }
    expect(slow).toEqual([]);
  }, 300_000);
});
