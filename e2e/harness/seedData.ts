// The seed's content: three dozen memories of a small team's project (kinds, tags, pins),
// the links between them, and which ones get forgotten. seed.ts puts them in.
import type { LinkType, MemoryKind } from '../../src/shared/schemas';

export interface SeedMemory {
  key: string;
  title: string;
  content: string;
  kind: MemoryKind;
  tags: string[];
  pinned?: boolean;
}

const M = (
  key: string,
  kind: MemoryKind,
  tags: string[],
  title: string,
  content: string,
  pinned = false,
): SeedMemory => ({ key, kind, tags, title, content, pinned });

export const MEMORIES: SeedMemory[] = [
  M(
    'deploy',
    'procedural',
    ['deploy', 'ops'],
    'Deploys go through ops/deploy.sh',
    'Production deploys run ops/deploy.sh from the release branch; it needs the VPN and takes about eight minutes.',
    true,
  ),
  M(
    'rollback',
    'procedural',
    ['deploy', 'ops'],
    'Rolling back a release',
    'To roll back, run ops/deploy.sh --previous; it redeploys the last green build and keeps the database as is.',
  ),
  M(
    'migrations',
    'procedural',
    ['database', 'deploy'],
    'Database migrations run before the deploy',
    'Migrations run as a separate job before the app deploy; they must be backwards compatible for one release.',
  ),
  M(
    'stack',
    'semantic',
    ['architecture'],
    'Harbor is a TypeScript monorepo',
    'Harbor is a TypeScript monorepo: api/ (Fastify), web/ (React), worker/ (BullMQ jobs) and shared/ for types.',
    true,
  ),
  M(
    'db',
    'semantic',
    ['architecture', 'database'],
    'Postgres 16 with logical replicas',
    'The main database is Postgres 16; reads for reports go to a logical replica that lags up to a minute.',
  ),
  M(
    'queue',
    'semantic',
    ['architecture', 'worker'],
    'Background jobs use BullMQ on Redis',
    'Background jobs (emails, exports, thumbnails) run on BullMQ backed by Redis 7; retries back off exponentially.',
  ),
  M(
    'auth',
    'semantic',
    ['architecture', 'security'],
    'Sessions are signed cookies, not JWTs',
    'The web app uses signed, HTTP-only session cookies; the public API uses per-client API keys with scopes.',
  ),
  M(
    'ci',
    'semantic',
    ['ci'],
    'CI runs on GitHub Actions',
    'CI runs lint, type-check, unit tests and Playwright end-to-end tests on GitHub Actions for every pull request.',
  ),
  M(
    'flaky',
    'episodic',
    ['ci', 'tests'],
    'The checkout e2e test was flaky in May',
    'In May the checkout end-to-end test failed one run in ten because of an animation; disabling animations in tests fixed it.',
  ),
  M(
    'outage',
    'episodic',
    ['incident', 'database'],
    'March outage: replica lag broke reports',
    'On 12 March reports showed stale numbers for two hours because the replica lagged after a large migration.',
  ),
  M(
    'postmortem',
    'semantic',
    ['incident'],
    'Postmortems are blameless and due in a week',
    'Every incident gets a blameless postmortem within a week, with owners and dates for each follow-up.',
  ),
  M(
    'style',
    'affective',
    ['preferences', 'code-style'],
    'Maya prefers small pull requests',
    'Maya reviews most pull requests and strongly prefers small ones (under 400 lines) with a clear description.',
  ),
  M(
    'naming',
    'affective',
    ['preferences', 'code-style'],
    'The team dislikes abbreviations in names',
    'The team prefers full words in identifiers (customerAddress, not custAddr); reviewers ask for renames.',
  ),
  M(
    'tabs',
    'affective',
    ['preferences'],
    'Prettier settles formatting debates',
    'Nobody wants to discuss formatting: Prettier with the default settings, enforced in CI.',
  ),
  M(
    'oncall',
    'procedural',
    ['incident', 'ops'],
    'Paging the on-call engineer',
    'Page the on-call engineer through PagerDuty; the rotation changes on Mondays at 10:00 Berlin time.',
  ),
  M(
    'secrets',
    'procedural',
    ['security', 'ops'],
    'Secrets live in 1Password, never in the repo',
    'Secrets live in the team 1Password vault and reach CI through its secret store; never commit them.',
  ),
  M(
    'review',
    'procedural',
    ['code-style'],
    'Two approvals for changes to billing',
    'Changes under api/billing need two approvals, one of them from the payments team.',
  ),
  M(
    'release',
    'prospective',
    ['deploy'],
    'Cut the 4.2 release on Thursday',
    'Remember to cut the 4.2 release branch on Thursday after the translations land.',
  ),
  M(
    'upgrade',
    'prospective',
    ['architecture'],
    'Upgrade Node to 22 next quarter',
    'Plan the Node 22 upgrade for next quarter; the image processing library blocks it today.',
  ),
  M(
    'ask',
    'prospective',
    ['database'],
    'Ask Priya about partitioning events',
    'Ask Priya whether the events table should be partitioned by month before it reaches a billion rows.',
  ),
  M(
    'pattern-retry',
    'schematic',
    ['worker', 'patterns'],
    'Idempotent jobs make retries safe',
    'Jobs that can run twice without harm (idempotent) let the queue retry freely; every new job must be idempotent.',
  ),
  M(
    'pattern-flags',
    'schematic',
    ['deploy', 'patterns'],
    'Risky changes ship behind feature flags',
    'Risky changes ship dark behind a feature flag and are turned on gradually, which makes rollbacks rare.',
  ),
  M(
    'exports',
    'episodic',
    ['worker', 'incident'],
    'Large CSV exports timed out in April',
    'In April exports over 100k rows timed out; they now stream to object storage and email a link.',
  ),
  M(
    'cache',
    'semantic',
    ['architecture', 'performance'],
    'Product pages are cached for five minutes',
    'Product pages are cached at the CDN for five minutes; the admin publish button purges them.',
  ),
  M(
    'search',
    'semantic',
    ['architecture', 'search'],
    'Search runs on OpenSearch',
    'Catalogue search runs on OpenSearch 2, fed by a worker that listens to product changes.',
  ),
  M(
    'reindex',
    'procedural',
    ['search', 'ops'],
    'Reindexing the catalogue',
    'To reindex, run the reindex job from the admin panel; it builds a new index and swaps the alias at the end.',
  ),
  M(
    'metrics',
    'semantic',
    ['observability'],
    'Metrics go to Prometheus, logs to Loki',
    'Services expose Prometheus metrics; logs go to Loki; dashboards live in Grafana under the Harbor folder.',
  ),
  M(
    'slo',
    'semantic',
    ['observability'],
    'The checkout SLO is 99.9 %',
    'Checkout has a 99.9 % availability SLO over 30 days; the error budget policy freezes features when it is spent.',
  ),
  M(
    'standup',
    'episodic',
    ['team'],
    'Stand-up moved to 9:45',
    'Since June the daily stand-up is at 9:45 so the Lisbon colleagues can join.',
  ),
  M(
    'onboarding',
    'procedural',
    ['team'],
    'New engineers start with the setup script',
    'New engineers run scripts/bootstrap.sh, which installs the toolchain and seeds a local database.',
  ),
  M(
    'local-db',
    'semantic',
    ['database', 'team'],
    'Local development uses Docker Compose',
    'Local development runs Postgres, Redis and OpenSearch in Docker Compose; make up starts everything.',
  ),
  M(
    'mood',
    'affective',
    ['team'],
    'The team enjoyed the offsite in Porto',
    'The September offsite in Porto went well; people asked for one every half year.',
  ),
  M(
    'old-ci',
    'episodic',
    ['ci'],
    'We used Jenkins until 2024',
    'Until early 2024 CI ran on a self-hosted Jenkins; it was retired after the move to GitHub Actions.',
  ),
  M(
    'typo',
    'semantic',
    ['team'],
    'Scratch note',
    'A scratch note that was written by mistake and later forgotten.',
  ),
  M(
    'bot-token',
    'semantic',
    ['ci', 'security'],
    'Release bot credentials',
    'The release bot authenticates with ghp_R8x2Kq9LmZ4vT7nB1cW5yH3jD6fG0sA2pE8u for tagging releases.',
  ),
];

/** Memories forgotten after seeding (soft delete: restorable). */
export const FORGOTTEN = ['typo', 'old-ci'];

export const LINKS: [from: string, to: string, type: LinkType][] = [
  ['rollback', 'deploy', 'related'],
  ['migrations', 'deploy', 'part_of'],
  ['outage', 'db', 'related'],
  ['outage', 'migrations', 'causes'],
  ['postmortem', 'outage', 'related'],
  ['queue', 'pattern-retry', 'supports'],
  ['exports', 'queue', 'related'],
  ['pattern-flags', 'rollback', 'supports'],
  ['ci', 'flaky', 'related'],
  ['ci', 'old-ci', 'supersedes'],
  ['reindex', 'search', 'related'],
  ['metrics', 'slo', 'supports'],
  ['oncall', 'postmortem', 'related'],
  ['onboarding', 'local-db', 'related'],
  ['release', 'deploy', 'related'],
  ['style', 'review', 'related'],
];
