import { hashEmbed } from './src/main/engine/embed/hashEmbedder';
import { dot } from './src/main/engine/embed/pooling';
const pairs = [
  ['postgres replication', 'Postgres backups run nightly.'],
  ['deploy staging pipeline', 'We deploy to staging every Friday afternoon.'],
  ['deploy staging pipeline', 'Deploy to the staging cluster with the blue-green pipeline.'],
  ['deploy staging pipeline', 'Lunch orders go through the office channel.'],
  ['postgress replicaton lag', 'Postgres replication lag alerts fire at 30 seconds.'],
  ['what is a good recipe for banana bread', 'Postgres replication lag alerts fire at 30 seconds.'],
  ['on-call rotation', 'The on-call rotation changes on Mondays.'],
];
for (const [a, b] of pairs) console.log(dot(hashEmbed(a!), hashEmbed(b!)).toFixed(3), a, '|', b);
