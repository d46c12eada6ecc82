// Types of scripts/runtime.mjs (for its tests).
export function detectElectron(
  root: string,
  options?: { require?: ((id: string) => unknown) & { resolve: (id: string) => string } },
): { binary: string; reason: null } | { binary: null; reason: string };
export function observatoryUrlFrom(line: string): string | null;
export function browserCommand(
  url: string,
  platform?: string,
  env?: Record<string, string | undefined>,
): { command: string; args: string[] } | null;
