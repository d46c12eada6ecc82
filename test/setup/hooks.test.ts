// `loci setup hooks`: Claude Code's hooks for Loci written into ~/.claude/settings.json
// beside the hooks already there, with a backup; a second run changes nothing; an entry
// of another installation is replaced, never doubled; a broken file is left alone; and
// `setup check` reports them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkHooks, installHooks } from '../../src/main/engine/setup/hooks';
import { backups, envFor, home, json, put, snapshot, useSetupSandbox } from '../helpers/setupHome';

useSetupSandbox();

const OTHER = { type: 'command', command: 'prettier --write "$CLAUDE_FILE_PATHS"' };

describe('setup hooks', () => {
  it('adds the four hooks beside the others, after a backup, and a second run changes nothing', () => {
    const file = put(
      '.claude/settings.json',
      JSON.stringify(
        { model: 'opus', hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [OTHER] }] } },
        null,
        2,
      ),
    );
    const before = snapshot();
    const dry = installHooks(envFor(), { dryRun: true });
    expect(dry).toMatchObject({ action: 'update', dry_run: true, backup: null });
    expect(dry.changes).toHaveLength(4);
    expect(dry.changes[0]).toMatch(/^\+ SessionStart: .* hook session-start$/);
    expect(snapshot()).toEqual(before);

    const r = installHooks(envFor(), { dryRun: false, now: new Date('2026-03-01T09:00:00Z') });
    expect(r.action).toBe('update');
    expect(backups(file)).toHaveLength(1);
    const data = json(file) as unknown as {
      model: string;
      hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
    };
    expect(data.model).toBe('opus');
    expect(data.hooks.PostToolUse).toEqual([{ matcher: 'Edit', hooks: [OTHER] }]);
    expect(Object.keys(data.hooks).sort()).toEqual([
      'PostToolUse',
      'PreCompact',
      'SessionEnd',
      'SessionStart',
      'UserPromptSubmit',
    ]);
    expect(data.hooks.UserPromptSubmit![0]!.hooks[0]).toMatchObject({
      timeout: 3,
      command: expect.stringMatching(/loci\.js"? hook prompt-submit$/),
    });
    expect(checkHooks(envFor())).toMatchObject({ status: 'ok', problems: [] });

    const again = installHooks(envFor(), { dryRun: false });
    expect(again).toMatchObject({ action: 'unchanged', changes: [] });
    expect(backups(file)).toHaveLength(1);
  });

  it("replaces another installation's Loci hooks instead of adding a second set", () => {
    const file = put(
      '.claude/settings.json',
      JSON.stringify({
        hooks: {
          SessionStart: [
            {
              hooks: [
                { type: 'command', command: '/old/node /old/loci/bin/loci.js hook session-start' },
                OTHER,
              ],
            },
          ],
        },
      }),
    );
    expect(checkHooks(envFor()).status).toBe('stale');
    installHooks(envFor(), { dryRun: false });
    const start = (json(file) as { hooks: { SessionStart: { hooks: { command: string }[] }[] } })
      .hooks.SessionStart;
    const commands = start.flatMap((m) => m.hooks.map((h) => h.command));
    expect(commands.filter((c) => c.includes(' hook session-start'))).toHaveLength(1);
    expect(commands).toContain(OTHER.command);
    expect(commands.some((c) => c.startsWith('/old/'))).toBe(false);
  });

  it('creates the file when there is none, and refuses a file that is not JSON', () => {
    const r = installHooks(envFor(), { dryRun: false });
    expect(r).toMatchObject({ action: 'add', backup: null });
    expect(readFileSync(r.file, 'utf8')).toMatch(/"UserPromptSubmit"/);
    put('.claude/settings.json', '{ "hooks": { oops }');
    expect(() => installHooks(envFor(), { dryRun: false })).toThrow(/is not valid JSON/);
    expect(home).toBeTruthy();
  });
});
