// electron-builder's afterPack hook (electron-builder.yml): for each packed platform and
// arch, (1) puts better-sqlite3 built for this Electron and arch into
// resources/native/electron/ (node_modules keeps Node's build; npmRebuild is off), and
// (2) flips the Electron fuses: no ELECTRON_RUN_AS_NODE, no NODE_OPTIONS, no
// --inspect, the app only from its asar, and the asar's integrity checked.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';
import { buildElectronSqlite } from '../native-electron.mjs';

// electron-builder's Arch enum: ia32 0, x64 1, armv7l 2, arm64 3, universal 4.
const ARCHES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

export const FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.EnableCookieEncryption]: true,
};

/** The packed app's executable and resources folder, per platform. */
export function packedLayout(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    const contents = join(appOutDir, `${name}.app`, 'Contents');
    return { binary: join(contents, 'MacOS', name), resources: join(contents, 'Resources') };
  }
  if (electronPlatformName === 'win32')
    return { binary: join(appOutDir, `${name}.exe`), resources: join(appOutDir, 'resources') };
  return {
    binary: join(appOutDir, packager.executableName),
    resources: join(appOutDir, 'resources'),
  };
}

export default async function afterPack(context) {
  const arch = ARCHES[context.arch];
  if (!arch) throw new Error(`afterPack: unknown arch ${context.arch}`);
  const electronVersion =
    context.packager.config.electronVersion ?? context.packager.info.framework.version;
  const layout = packedLayout(context);
  const cache = join(
    context.packager.info.projectDir,
    'native',
    `electron-${electronVersion}-${context.electronPlatformName}-${arch}`,
    'better_sqlite3.node',
  );
  buildElectronSqlite({ electronVersion, arch, outFile: cache });
  const target = join(layout.resources, 'native', 'electron');
  mkdirSync(target, { recursive: true });
  copyFileSync(cache, join(target, 'better_sqlite3.node'));
  await flipFuses(layout.binary, {
    ...FUSES,
    // Flipping fuses breaks an arm64 binary's ad-hoc signature until it is signed again.
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && arch === 'arm64',
  });
}
