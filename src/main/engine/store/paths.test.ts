import { describe, expect, it } from 'vitest';
import { resolveDataDir } from './paths';

describe('resolveDataDir', () => {
  const home = '/home/ada';
  it('honours LOCI_HOME', () => {
    expect(resolveDataDir({ env: { LOCI_HOME: '/data/loci' }, platform: 'linux', home })).toBe(
      '/data/loci',
    );
  });

  it("matches Electron's userData folder for an app named Loci", () => {
    expect(resolveDataDir({ env: {}, platform: 'linux', home })).toBe('/home/ada/.config/Loci');
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: '/xdg' }, platform: 'linux', home })).toBe(
      '/xdg/Loci',
    );
    expect(resolveDataDir({ env: {}, platform: 'darwin', home })).toBe(
      '/home/ada/Library/Application Support/Loci',
    );
    expect(
      resolveDataDir({
        env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
        platform: 'win32',
        home,
      }),
    ).toMatch(/Roaming.Loci$/);
  });

  it('ignores a relative XDG_CONFIG_HOME, as the XDG spec requires', () => {
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: 'relative' }, platform: 'linux', home })).toBe(
      '/home/ada/.config/Loci',
    );
  });
});
