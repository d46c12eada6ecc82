// Every view of the observatory with its heading, in menu order (src/renderer/src/views/index.ts),
// for the specs that visit them all.
export const VIEWS: readonly (readonly [id: string, title: string])[] = [
  ['overview', 'Overview'],
  ['memories', 'Memories'],
  ['recall', 'Recall lab'],
  ['atlas', 'Atlas'],
  ['conflicts', 'Conflicts'],
  ['ingest', 'Ingest'],
  ['dreams', 'Dreams'],
  ['journals', 'Journals'],
  ['activity', 'Activity'],
  ['quality', 'Quality'],
  ['connect', 'Connect'],
  ['audit', 'Audit'],
  ['doctor', 'Doctor'],
  ['settings', 'Settings'],
];
