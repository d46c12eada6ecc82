// `loci dream` and `loci review` through the real CLI (in process): a dry run, a cycle,
// the inbox listed, accepted and rejected, and bad phases refused in one line.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { cli } from '../../../test/helpers/cli';
import { tempDir } from '../../../test/helpers/engine';

let home: string;
beforeEach(() => {
  home = tempDir('loci-cli-dream-');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('loci dream and loci review', () => {
  it('dreams, dry or not, and decides on the inbox', async () => {
    const text = 'The release checklist lives in docs/release.md and is reviewed by two people';
    expect((await cli(home, ['remember', text])).code).toBe(0);
    expect((await cli(home, ['remember', `${text} before tagging`])).code).toBe(0);

    const dry = await cli(home, ['dream', '--dry-run', '--phases', 'merge,retention']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run \w{26} \(default\): done/);
    expect(dry.stdout).toMatch(/merge +done +2 +1 +1/);
    expect(dry.stdout).toContain('1 proposals would go to the review inbox');
    expect((await cli(home, ['review'])).stdout).toContain('The review inbox is empty');

    const real = await cli(home, ['--json', 'dream', '--phases', 'merge']);
    const report = JSON.parse(real.stdout) as { id: string; totals: { proposals: number } };
    expect(report.totals.proposals).toBe(1);
    const listed = await cli(home, ['dream', 'list']);
    expect(listed.stdout).toContain(report.id);
    expect(listed.stdout).toContain('1 review items pending');
    expect((await cli(home, ['dream', 'show', report.id])).stdout).toMatch(/merge proposal/);

    const inbox = JSON.parse((await cli(home, ['--json', 'review', 'list'])).stdout) as {
      items: { id: string; kind: string }[];
    };
    expect(inbox.items.map((i) => i.kind)).toEqual(['merge']);
    const accepted = await cli(home, [
      'review',
      'accept',
      inbox.items[0]!.id,
      '--title',
      'Release checklist',
    ]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/^Accepted \w{26} → \w{26}, \w{26}\n$/);
    const again = await cli(home, ['review', 'reject', inbox.items[0]!.id]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^loci: Review item \w{26} was already accepted by cli/);
  });

  it('refuses an unknown phase in one line', async () => {
    const r = await cli(home, ['dream', '--phases', 'replay,nap']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('"nap" is not a phase');
  });
});
