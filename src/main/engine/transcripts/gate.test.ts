// The gate's rules, one case each: exact quotes pass; a paraphrase, a quote spanning two
// turns, a measurement quoted from the agent, a decision quoted from a tool, and a
// quarantined turn are refused with their reasons; the agent's own prose passes only as
// its judgement.
import { describe, expect, it } from 'vitest';
import { extractCandidates, type ExtractTurn } from './extract';
import { gateCandidate, type GateTurn } from './gate';

const turns: GateTurn[] = [
  {
    seq: 0,
    line: 1,
    class: 'USER',
    text: 'From now on use pnpm, never npm. We decided that amounts are stored in cents.',
    quarantined: false,
  },
  { seq: 1, line: 2, class: 'ACT', text: 'shell: pnpm build', quarantined: false },
  {
    seq: 2,
    line: 3,
    class: 'TOOL',
    text: 'vite v8.3.8 building for production...\n✓ built in 3.2 s',
    quarantined: false,
  },
  {
    seq: 3,
    line: 4,
    class: 'SELF',
    text: 'The build took 3.2 s and the user decided to keep vite.',
    quarantined: false,
  },
  {
    seq: 4,
    line: 5,
    class: 'SELF',
    text: 'I think the date library is the likely cause.',
    quarantined: false,
  },
  { seq: 5, line: 6, class: 'TOOL', text: 'AWS_SECRET_ACCESS_KEY=…', quarantined: true },
];

describe('gateCandidate', () => {
  it('accepts exact quotes that license the claim, with class and place', () => {
    const v = gateCandidate(turns, {
      content: 'Use pnpm, never npm, in this project.',
      quotes: ['From now on use pnpm, never npm.'],
    });
    expect(v).toEqual({
      accepted: true,
      judgement: false,
      quotes: [
        { quote: 'From now on use pnpm, never npm.', class: 'USER', seq: 0, line: 1, offset: 0 },
      ],
    });
    expect(
      gateCandidate(turns, {
        content: 'The production build takes 3.2 s.',
        quotes: ['✓ built in 3.2 s'],
      }),
    ).toMatchObject({ accepted: true });
  });

  it('refuses a paraphrased quote', () => {
    const v = gateCandidate(turns, {
      content: 'Use pnpm.',
      quotes: ['From now on, use pnpm and not npm.'],
    });
    expect(v).toMatchObject({ accepted: false });
    expect(v.accepted ? [] : v.reasons).toEqual([
      expect.stringMatching(/quote 1 .* does not stand character for character in one turn/),
    ]);
  });

  it('refuses a quote that spans two turns', () => {
    const v = gateCandidate(turns, {
      content: 'The build is pnpm build.',
      quotes: ['shell: pnpm build\nvite v8.3.8'],
    });
    expect(v.accepted).toBe(false);
  });

  it('refuses a measurement quoted from the agent instead of the tool', () => {
    const v = gateCandidate(turns, {
      content: 'The build takes 3.2 s.',
      quotes: ['The build took 3.2 s and the user decided to keep vite.'],
    });
    expect(v.accepted ? [] : v.reasons).toContain(
      'the measurement "3.2 s" is quoted from no TOOL output',
    );
  });

  it("refuses a decision quoted from a tool's output instead of the person", () => {
    const v = gateCandidate(turns, {
      content: 'The user decided to build with vite.',
      quotes: ['vite v8.3.8 building for production...'],
    });
    expect(v.accepted ? [] : v.reasons).toEqual([
      "what the person decided, asked or prefers needs the person's own words (a USER quote)",
    ]);
  });

  it('refuses that something was done on the agent’s word alone, and a quarantined turn', () => {
    const done = gateCandidate(turns, {
      content: 'The date library was upgraded.',
      quotes: ['I think the date library is the likely cause.'],
    });
    expect(done.accepted ? [] : done.reasons).toEqual([
      'that something was done needs the invocation or its output (an ACT or TOOL quote)',
    ]);
    const secret = gateCandidate(turns, {
      content: 'The CI key.',
      quotes: ['AWS_SECRET_ACCESS_KEY'],
    });
    expect(secret.accepted ? [] : secret.reasons).toEqual([
      'quote 1 comes from a turn quarantined for a credential',
    ]);
  });

  it("passes the agent's own prose only as its judgement", () => {
    expect(
      gateCandidate(turns, {
        content: 'The date library is the likely cause of the timetable bug.',
        quotes: ['I think the date library is the likely cause.'],
      }),
    ).toMatchObject({ accepted: true, judgement: true });
    expect(gateCandidate(turns, { content: 'Something.', quotes: [] })).toMatchObject({
      accepted: false,
      reasons: ['it quotes nothing from the journal'],
    });
  });
});

describe('configuration values stated by a tool', () => {
  const turn = (
    seq: number,
    cls: ExtractTurn['class'],
    text: string,
    extra: Partial<ExtractTurn> = {},
  ): ExtractTurn => ({
    seq,
    line: seq + 1,
    class: cls,
    text,
    at: null,
    tool: cls === 'ACT' ? 'shell' : null,
    exit: null,
    quarantined: false,
    ...extra,
  });
  const run = (seq: number, command: string, out: string, exit = 0) => [
    turn(seq, 'ACT', command, { command, callId: `c${seq}` }),
    turn(seq + 1, 'TOOL', out, { callId: `c${seq}`, exit }),
  ];

  it('keeps the settings of a configuration file read, and a version printed, quoted from TOOL', () => {
    const turns = [
      ...run(0, 'cat .env.local', 'PORT=8081\nAPI_TOKEN=abc\n# note\nLOG_LEVEL=debug'),
      ...run(2, 'python3 --version', 'Python 3.12.4'),
    ];
    const found = extractCandidates(turns).filter((c) => c.extractor === 'config');
    expect(found.map((c) => c.content)).toEqual([
      '.env.local sets PORT=8081; LOG_LEVEL=debug.',
      '`python3 --version` prints "Python 3.12.4".',
    ]);
    for (const c of found) expect(gateCandidate(turns, c)).toMatchObject({ accepted: true });
  });

  it('leaves files that are not configuration, failed reads and quarantined output', () => {
    const turns = [
      ...run(0, 'cat notes.md', 'port = 1'),
      ...run(2, 'cat app.toml', 'port = 2', 1),
      ...run(4, 'cat app.yaml', 'port: 3'),
    ];
    turns[5]!.quarantined = true;
    expect(extractCandidates(turns).filter((c) => c.extractor === 'config')).toEqual([]);
  });
});
