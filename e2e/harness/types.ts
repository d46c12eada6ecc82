// What every e2e test function receives. A spec is `e2e/<name>.spec.ts` exporting async
// functions `(t: E2EContext) => Promise<void>`; they run in declaration order, each in a
// fresh browser context (1280×800, light scheme) against the same seeded daemon.
import type { Page } from 'playwright-core';
import type { Api } from './api';
import type { SeedIds } from './seed';

export interface E2EContext {
  page: Page;
  /** The daemon's origin, e.g. http://127.0.0.1:39211 */
  baseUrl: string;
  /** What `loci serve` printed: baseUrl + `/#token=…`. */
  observatoryUrl: string;
  token: string;
  dataDir: string;
  /** The daemon's HTTP API with the token, typed by the contract. */
  api: Api;
  /** Seed memory keys (e2e/harness/seed.ts) → ids. */
  ids: SeedIds;
  /** Opens the observatory with the token, at a route (default `/`), and waits for the shell. */
  open(route?: string): Promise<void>;
  /** Saves docs/screenshots/<name>.png, and <name>-dark.png in the dark scheme. */
  screenshot(name: string): Promise<void>;
  /** axe-core on the page as it is, in the light and the dark scheme; fails on serious or critical. */
  checkA11y(label: string): Promise<void>;
  /** Ends the test as skipped (counted neither passed nor failed), saying why. */
  skip(reason: string): never;
}

/** Thrown by `skip`: the runner reports the test as skipped with this reason. */
export class SkipTest extends Error {
  override name = 'SkipTest';
}

export type E2ETest = (t: E2EContext) => Promise<void>;
