// `loci eval`: the quality lab from the command line, in process on a temporary data
// directory — marking by hand, running with two configurations, the history, and bad input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/main/cli/program';
import { cli } from './helpers/cli';
import { tempDir } from './helpers/engine';

let home: string;
let files: string;
beforeEach(() => {
  home = tempDir('loci-eval-cli-');
  files = mkdtempSync(join(home, 'files-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const json = async (args: string[]) => {
  const r = await cli(home, [...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('loci eval', () => {
  it('marks, runs two configurations with their paired difference, and keeps the trend', async () => {
    const deploy = await json(['remember', 'Deploys go out through the ops pipeline on Tuesdays.']);
    const coffee = await json(['remember', 'The coffee machine is on the third floor.']);
    const marked = await json([
      'eval',
      'mark',
      '--query',
      'when do deploys go out',
      '--missed',
      deploy.id,
      '--wrong',
      coffee.id,
    ]);
    expect(marked.expected.map((m: { id: string }) => m.id)).toEqual([deploy.id]);

    const human = await cli(home, ['eval']);
    expect(human.stderr).toBe('');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/store configuration +1 +1\.000 \[1\.000, 1\.000\]/);
    expect(human.stdout).toMatch(/Saved as run [0-9A-Z]{26}/);

    writeFileSync(join(files, 'a.json'), JSON.stringify({ recall: { use_vectors: false } }));
    writeFileSync(join(files, 'b.json'), JSON.stringify({ weights: { relevance: 1 } }));
    const compared = await json([
      'eval',
      '--config',
      join(files, 'a.json'),
      '--against',
      join(files, 'b.json'),
      '--no-save',
    ]);
    expect(compared.run.label).toBe('vectors off');
    expect(compared.against.label).toBe('weights relevance 1');
    expect(compared.run.id).toBeNull();
    expect(compared.difference.ndcg10).toMatchObject({ mean: 0, n: 1 });
    const table = await cli(home, [
      'eval',
      'run',
      '--config',
      join(files, 'a.json'),
      '--against',
      join(files, 'b.json'),
    ]);
    expect(table.stdout).toContain('Paired difference, weights relevance 1 − vectors off');

    const runs = await json(['eval', 'runs']);
    expect(runs.runs.map((r: { label: string }) => r.label)).toEqual([
      'store configuration',
      'vectors off',
      'weights relevance 1',
    ]);
    const cases = await cli(home, ['eval', 'cases']);
    expect(cases.stdout).toContain('when do deploys go out');
    expect((await json(['eval', 'remove', marked.id])).removed).toBe(true);
    expect((await cli(home, ['eval', 'cases'])).stdout).toMatch(/No cases yet/);
  });

  it('names the problem with bad input', async () => {
    const none = await cli(home, ['eval']);
    expect(none.code).toBe(EXIT_CODES['invalid-args']);
    expect(none.stderr).toMatch(/no eval cases yet: mark recalls/);

    writeFileSync(join(files, 'bad.json'), JSON.stringify({ recall: { use_vector: false } }));
    const bad = await cli(home, ['eval', '--config', join(files, 'bad.json')]);
    expect(bad.code).toBe(EXIT_CODES['invalid-args']);
    expect(bad.stderr).toContain('bad.json');
    expect(bad.stderr).toContain('use_vector');

    const missing = await cli(home, ['eval', '--config', join(files, 'nope.json')]);
    expect(missing.stderr).toMatch(/nope\.json: no such file/);

    writeFileSync(join(files, 'broken.json'), '{ not json');
    expect((await cli(home, ['eval', '--config', join(files, 'broken.json')])).stderr).toMatch(
      /broken\.json is not valid JSON/,
    );

    const unknown = await cli(home, [
      'eval',
      'mark',
      '--query',
      'x',
      '--missed',
      '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    ]);
    expect(unknown.code).toBe(EXIT_CODES['not-found']);
    expect(unknown.stderr).toContain('01ARZ3NDEKTSV4RRFFQ69G5FAV');
  });
});
