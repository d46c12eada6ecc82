// Types of scripts/packLib.mjs (for its tests).
export interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  inBundle?: boolean;
  hasInstallScript?: boolean;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  [field: string]: unknown;
}
export interface Lockfile {
  name?: string;
  version?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}
export interface PackageJson {
  name: string;
  version: string;
  description?: string;
  license?: string;
  type?: string;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}
export interface PackageMeta {
  name: string;
  description?: string;
  keywords?: string[];
  homepage?: string;
  repository?: { type: string; url: string };
  bugs?: { url: string };
  files?: string[];
  mcpName?: string;
}

export const PACKAGE_NAME: string;
export const ENTRIES: string[];
export const IGNORED: Record<string, string>;
export const FORBIDDEN: Record<string, string>;
export const PACKAGE_META: PackageMeta;

export function isBuiltin(specifier: string): boolean;
export function packageNameOf(specifier: string): string;
export function scanModule(
  source: string,
  fileName?: string,
): { imports: string[]; strings: string[]; dynamic: { line: number; text: string }[] };
export function scanBuild(
  dir: string,
  roots: string[],
): {
  files: string[];
  packages: Map<string, string[]>;
  dynamic: Map<string, { line: number; text: string }[]>;
  unreached: string[];
};
export function runtimeDependencies(
  imported: Map<string, string[]>,
  rootPackage: PackageJson,
  lock: Lockfile,
  options?: { ignored?: Record<string, string>; forbidden?: Record<string, string> },
): Record<string, string>;
export function runtimeOptionalDependencies(
  imported: Map<string, string[]>,
  rootPackage: PackageJson,
  lock: Lockfile,
  options?: { ignored?: Record<string, string>; forbidden?: Record<string, string> },
): Record<string, string>;
export function nameAtPath(path: string): string;
export function resolveInLock(
  packages: Record<string, LockEntry>,
  from: string,
  name: string,
): string | null;
export function registryTarball(name: string, version: string, registry?: string): string;
export function shrinkwrapSubset(
  lock: Lockfile,
  rootEntry: LockEntry,
  options?: { registry?: string },
): Lockfile & { name?: string; version?: string };
export function stagedPackageJson(
  rootPackage: PackageJson,
  dependencies: Record<string, string>,
  meta: PackageMeta,
  optionalDependencies?: Record<string, string>,
): PackageJson & { mcpName?: string; files?: string[] };
export function shrinkwrapRoot(pkg: PackageJson): LockEntry;
