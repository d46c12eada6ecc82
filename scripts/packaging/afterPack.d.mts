// Types of scripts/packaging/afterPack.mjs (for its tests).
export interface PackContext {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: {
    appInfo: { productFilename: string };
    executableName: string;
    config: { electronVersion?: string | null };
    info: { projectDir: string; framework: { version: string } };
  };
}
export const FUSES: Record<string | number, unknown>;
export function packedLayout(context: PackContext): { binary: string; resources: string };
export default function afterPack(context: PackContext): Promise<void>;
