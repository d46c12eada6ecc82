// electron-builder.yml cannot be tried here (no Electron binary to pack): it is checked
// against electron-builder's own schema and for what issue 9 requires of it, and the
// afterPack hook's fuses and paths are checked too.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FuseV1Options } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FUSES, packedLayout, type PackContext } from '../scripts/packaging/afterPack.mjs';

const root = join(import.meta.dirname, '..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
  string,
  unknown
>;

type Target = string | { target: string; arch?: string[] };
const targets = (platform: string) =>
  ((config[platform] as { target: Target[] }).target ?? []).map((t) =>
    typeof t === 'string' ? { target: t, arch: undefined } : t,
  );

describe('electron-builder.yml', () => {
  it("passes electron-builder's own configuration schema", async () => {
    const { validateConfiguration } =
      (await import('app-builder-lib/out/util/config/config.js')) as {
        validateConfiguration: (c: unknown, l: unknown) => Promise<void>;
      };
    const { DebugLogger } = (await import('builder-util/out/util.js')) as {
      DebugLogger: new (enabled: boolean) => unknown;
    };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...config, mac: { notAnOption: true } }, new DebugLogger(false)),
    ).rejects.toThrow(/configuration/);
  });

  it('builds AppImage and deb, dmg for arm64 and x64, and nsis', () => {
    expect(targets('linux').map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(targets('mac')).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(targets('win').map((t) => t.target)).toEqual(['nsis']);
  });

  it('bundles the models, unpacks native files, keeps node_modules on Node’s ABI', () => {
    expect(config.extraResources).toEqual(
      expect.arrayContaining([expect.objectContaining({ from: 'models', to: 'models' })]),
    );
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining(['**/*.node', 'node_modules/better-sqlite3-multiple-ciphers/**']),
    );
    expect(config.npmRebuild).toBe(false);
    expect(existsSync(join(root, config.afterPack as string))).toBe(true);
    const files = config.files as string[];
    expect(files).toEqual(expect.arrayContaining(['out/**/*', 'resources/**/*', 'package.json']));
    for (const icon of [
      'icon.png',
      'tray-idle.png',
      'tray-busy.png',
      'tray-warning.png',
      'tray-error.png',
    ])
      expect(existsSync(join(root, 'resources', icon)), icon).toBe(true);
  });

  it('the afterPack hook turns RunAsNode, NODE_OPTIONS and --inspect off, asar integrity on', () => {
    expect(FUSES[FuseV1Options.RunAsNode]).toBe(false);
    expect(FUSES[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(FUSES[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
    expect(FUSES[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(FUSES[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
  });

  it('finds the packed executable and resources on each platform', () => {
    const ctx = (platform: string): PackContext => ({
      appOutDir: '/dist/app',
      electronPlatformName: platform,
      arch: 1,
      packager: {
        appInfo: { productFilename: 'Loci' },
        executableName: 'loci-desktop',
        config: {},
        info: { projectDir: root, framework: { version: '40.10.2' } },
      },
    });
    expect(packedLayout(ctx('darwin'))).toEqual({
      binary: join('/dist/app', 'Loci.app', 'Contents', 'MacOS', 'Loci'),
      resources: join('/dist/app', 'Loci.app', 'Contents', 'Resources'),
    });
    expect(packedLayout(ctx('win32'))).toEqual({
      binary: join('/dist/app', 'Loci.exe'),
      resources: join('/dist/app', 'resources'),
    });
    expect(packedLayout(ctx('linux'))).toEqual({
      binary: join('/dist/app', 'loci-desktop'),
      resources: join('/dist/app', 'resources'),
    });
  });
});
