// Synthetic memories of realistic shape for benchmarks: notes an engineering team's
// agents would keep (decisions, procedures, incidents, preferences), 150–900
// characters, with identifiers, paths, versions and numbers. Deterministic per seed.
import { mulberry32 } from '../../src/shared/random';

const rng = mulberry32;

const SERVICES = [
  'billing',
  'checkout',
  'search',
  'auth',
  'ingest',
  'notifications',
  'reporting',
  'inventory',
  'payments',
  'gateway',
  'scheduler',
  'analytics',
  'profile',
  'catalog',
  'shipping',
  'ledger',
];
const TECH = [
  'PostgreSQL 16',
  'Redis 7',
  'Kafka',
  'gRPC',
  'GraphQL',
  'Terraform',
  'Kubernetes',
  'Helm',
  'nginx',
  'SQLite',
  'ClickHouse',
  'OpenTelemetry',
  'Vault',
  'S3',
  'Elasticsearch',
  'RabbitMQ',
  'Temporal',
  'Envoy',
];
const PEOPLE = [
  'Alice',
  'Bob',
  'Chen',
  'Dana',
  'Emeka',
  'Farah',
  'Goran',
  'Hana',
  'Ivan',
  'Jun',
  'Kemal',
  'Lena',
];
const VERBS = [
  'migrated',
  'rolled back',
  'sharded',
  'rate-limited',
  'cached',
  'deprecated',
  'rewrote',
  'profiled',
  'split',
  'merged',
  'paused',
  'upgraded',
];
const REASONS = [
  'p95 latency doubled under load',
  'the connection pool was exhausted',
  'a retry storm hit the queue',
  'the schema change locked the table',
  'memory grew without bound',
  'the certificate expired',
  'a hot partition throttled writes',
  'cold starts exceeded the SLO',
  'the cron job overlapped itself',
  'disk filled with WAL segments',
];
const WORDS =
  'latency throughput budget rollout canary staging production incident postmortem runbook alert dashboard migration index replica failover backup restore quota timeout retry idempotent webhook consumer producer partition offset snapshot checksum pipeline artifact release hotfix feature flag experiment cohort tenant region zone cluster node pod container image registry secret config manifest policy audit compliance encryption rotation token session cookie header payload schema contract version changelog deprecation'.split(
    ' ',
  );
const IDENTS = [
  'getUserById',
  'max_retries',
  'retryBackoffMs',
  'ORDER_TIMEOUT',
  'createInvoice',
  'flushBatch',
  'useFeatureFlag',
  'kafkaConsumerGroup',
  'pool_size',
  'handleWebhook',
  'reconcileLedger',
  'parseManifest',
];

export interface Generated {
  content: string;
  tags: string[];
  /** A query a user might ask whose answer is this memory. */
  query: string;
}

export function generator(seed = 42) {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  let n = 0;
  return (): Generated => {
    n++;
    const svc = pick(SERVICES);
    const tech = pick(TECH);
    const who = pick(PEOPLE);
    const ident = pick(IDENTS);
    const verb = pick(VERBS);
    const reason = pick(REASONS);
    const version = `${1 + Math.floor(r() * 5)}.${Math.floor(r() * 20)}.${Math.floor(r() * 10)}`;
    const path = `src/${svc}/${pick(['handlers', 'jobs', 'db', 'api', 'workers'])}/${ident}.ts`;
    const templates = [
      () =>
        `Decision (${who}): the ${svc} service moves to ${tech} because ${reason}. We ${verb} the old path in ${path}; keep ${ident} at ${Math.floor(r() * 500)} until the ${words(2)} review. ${words(12)}.`,
      () =>
        `How to restart ${svc} safely: 1. drain traffic with the ${words(1)} flag; 2. run \`make ${svc}-restart\` from the ops repo; 3. watch the ${words(2)} dashboard for ten minutes. Version ${version} needs ${ident} set first. ${words(10)}.`,
      () =>
        `Incident #${1000 + n}: ${svc} degraded for ${5 + Math.floor(r() * 90)} minutes after we ${verb} it; ${reason}. ${who} fixed it by tuning ${ident} in ${path}. Follow-up: ${words(8)}. ${words(16)}.`,
      () =>
        `${who} prefers ${tech} for ${svc} work and dislikes ${words(2)} in reviews. Conventions: name handlers like ${ident}, keep ${words(3)} small, and document every ${words(1)}. ${words(14)}.`,
      () =>
        `The ${svc} ${words(1)} runs on ${tech} ${version}; configuration lives in ${path} and ${ident} defaults to ${Math.floor(r() * 100)}. ${words(20)}. Owner: ${who}.`,
    ];
    const content = pick(templates)();
    return {
      content,
      tags: [svc, pick(['ops', 'decision', 'incident', 'howto', 'preference', 'config'])],
      query: `${svc} ${ident}`,
    };
  };
}
