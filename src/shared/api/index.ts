// The method map: every operation the engine offers, its argument schema and its result
// type. IPC, HTTP, MCP, the CLI and in-process callers all speak this map. Field names
// of results are snake_case because they are a public wire format. The result types live
// by domain beside this file; everything is exported from here.
import type { z } from 'zod';
import {
  EmptyArgsSchema,
  GetArgsSchema,
  IdArgsSchema,
  LinkCreateArgsSchema,
  LinkCreateManyArgsSchema,
  LinkRemoveArgsSchema,
  ListArgsSchema,
  NeighborsArgsSchema,
  RecallArgsSchema,
  RememberArgsSchema,
  RememberManyArgsSchema,
  StoreArgsSchema,
  StoreNameArgsSchema,
  StoreBackupArgsSchema,
  StoreImportArgsSchema,
  TagArgsSchema,
  UpdateArgsSchema,
  ActivityArgsSchema,
  CalibrateArgsSchema,
  FindProceduresArgsSchema,
  MapArgsSchema,
  BootstrapArgsSchema,
  ModelIdArgsSchema,
  OutcomeArgsSchema,
  SetupArgsSchema,
  SetupWriteArgsSchema,
  SetupHooksArgsSchema,
  TimelineArgsSchema,
  ModelUseArgsSchema,
  ActivityGetArgsSchema,
  ActivityStatsArgsSchema,
  TitlesArgsSchema,
  CompleteArgsSchema,
  AtlasArgsSchema,
  OverviewArgsSchema,
  RevertArgsSchema,
  StoreRenameArgsSchema,
  AuditListArgsSchema,
  AuditVerifyArgsSchema,
  AuditExportArgsSchema,
  AuditAccessArgsSchema,
  DoctorRunArgsSchema,
  DoctorFixArgsSchema,
  DreamRunArgsSchema,
  DreamCancelArgsSchema,
  DreamListArgsSchema,
  DreamGetArgsSchema,
  ReviewListArgsSchema,
  ReviewAcceptArgsSchema,
  ReviewRejectArgsSchema,
  IngestFilesArgsSchema,
  IngestUploadArgsSchema,
  IngestCancelArgsSchema,
  IngestBatchArgsSchema,
  IngestListArgsSchema,
  IngestFoldersArgsSchema,
  JournalGetArgsSchema,
  JournalListArgsSchema,
  JournalDistillArgsSchema,
  JournalProposeArgsSchema,
  JournalWindowArgsSchema,
  TranscriptImportArgsSchema,
  ConflictListArgsSchema,
  ConflictResolveArgsSchema,
  ConflictReopenArgsSchema,
  ConflictScanArgsSchema,
  VerifyArgsSchema,
  StoreEncryptArgsSchema,
  StoreDecryptArgsSchema,
  StoreUnlockArgsSchema,
  StoreExportArgsSchema,
  ClientAddArgsSchema,
  ClientNameArgsSchema,
  SyncConnectArgsSchema,
  SyncStatusArgsSchema,
  SyncStoreArgsSchema,
} from '../schemas';
import type {
  ClientTokenResult,
  EncryptionChangeResult,
  EncryptionListResult,
  EncryptionStatus,
  RegisteredClient,
  RegisteredClientsResult,
} from './security';
import type {
  ConflictListResult,
  ConflictResolveResult,
  ConflictScanResult,
  ConflictView,
  VerifyResult,
} from './conflicts';
import {
  EvalCasesArgsSchema,
  EvalMarkArgsSchema,
  EvalRemoveArgsSchema,
  EvalRunArgsSchema,
  EvalRunsArgsSchema,
  type EvalCase,
  type EvalCasesResult,
  type EvalRemoveResult,
  type EvalRunResult,
  type EvalRunsResult,
} from '../eval';
import type { AtlasResult } from './atlas';
import type {
  SyncDevicesResult,
  SyncLeaveResult,
  SyncRunResult,
  SyncStatusResult,
  SyncStoreStatus,
} from './sync';
import type {
  JournalDistillResult,
  JournalListResult,
  JournalProposeResult,
  JournalView,
  JournalWindowResult,
  TranscriptImportResult,
} from './transcripts';
import type {
  SystemInfo,
  TokenRotateResult,
  OverviewResult,
  AttentionResult,
  ClientListResult,
  SetupPlanResult,
  SetupWriteResult,
  SetupCheckResult,
  SetupHooksResult,
  StoreInfo,
  StoreListResult,
  BackupInfo,
  StoreBundle,
  SealedStoreBundle,
  StoreImportResult,
  BackupListResult,
  StoreResetResult,
  EmbeddingStatusView,
  StatsResult,
} from './system';
import type {
  IngestReport,
  IngestListResult,
  IngestUndoResult,
  IngestUploadResult,
  IngestCancelResult,
  IngestFoldersResult,
} from './ingest';
import type {
  AuditListResult,
  AuditVerifyResult,
  AuditAnchorResult,
  AuditExportResult,
  AccessResult,
  AuditRotateResult,
  DoctorReport,
  DoctorFixResult,
} from './audit';
import type {
  DreamReport,
  DreamListResult,
  DreamCancelResult,
  ReviewListResult,
  ReviewDecideResult,
} from './dream';
import type {
  RememberResult,
  RememberManyResult,
  RecallResult,
  CalibrationResult,
  ModelInfo,
  ModelListResult,
} from './recall';
import type {
  MemoryView,
  ListResult,
  HistoryResult,
  MutationResult,
  RedactResult,
  TitlesResult,
  CompleteResult,
  LinkManyResult,
  LinkResult,
  NeighborsResult,
  TimelineResult,
  MapResult,
  BootstrapResult,
  OutcomeResult,
  FindProceduresResult,
  ActivityItem,
  ActivityListResult,
  ActivityStatsResult,
} from './memory';

export * from './callers';
export * from './recall';
export * from './memory';
export * from './atlas';
export * from './system';
export * from './ingest';
export * from './audit';
export * from './dream';
export * from './transcripts';
export * from './conflicts';
export * from './security';
export * from './sync';

// ---------------------------------------------------------------- the map

interface Method<S extends z.ZodType, R> {
  schema: S;
  /** Phantom: the result type, carried for typing only. */
  result?: R;
}

function method<R>() {
  return <S extends z.ZodType>(schema: S): Method<S, R> => ({ schema });
}

export const methods = {
  'memory.remember': method<RememberResult>()(RememberArgsSchema),
  'memory.rememberMany': method<RememberManyResult>()(RememberManyArgsSchema),
  'memory.recall': method<RecallResult>()(RecallArgsSchema),
  'memory.get': method<MemoryView>()(GetArgsSchema),
  'memory.list': method<ListResult>()(ListArgsSchema),
  'memory.update': method<MutationResult>()(UpdateArgsSchema),
  'memory.tag': method<MutationResult>()(TagArgsSchema),
  'memory.forget': method<MutationResult>()(IdArgsSchema),
  'memory.restore': method<MutationResult>()(IdArgsSchema),
  'memory.erase': method<MutationResult>()(IdArgsSchema),
  'memory.promote': method<MutationResult>()(IdArgsSchema),
  /** Person only: the credential in a quarantined memory replaced by a fingerprinted placeholder. */
  'memory.redact': method<RedactResult>()(IdArgsSchema),
  'memory.history': method<HistoryResult>()(IdArgsSchema),
  /** A title for each id the caller can see (forgotten ones too); ids not here are gone. */
  'memory.titles': method<TitlesResult>()(TitlesArgsSchema),
  'memory.complete': method<CompleteResult>()(CompleteArgsSchema),
  'link.create': method<LinkResult>()(LinkCreateArgsSchema),
  'link.remove': method<LinkResult>()(LinkRemoveArgsSchema),
  'link.createMany': method<LinkManyResult>()(LinkCreateManyArgsSchema),
  'graph.neighbors': method<NeighborsResult>()(NeighborsArgsSchema),
  'memory.timeline': method<TimelineResult>()(TimelineArgsSchema),
  'memory.map': method<MapResult>()(MapArgsSchema),
  'memory.bootstrap': method<BootstrapResult>()(BootstrapArgsSchema),
  'procedure.recordOutcome': method<OutcomeResult>()(OutcomeArgsSchema),
  'procedure.find': method<FindProceduresResult>()(FindProceduresArgsSchema),
  'activity.list': method<ActivityListResult>()(ActivityArgsSchema),
  'activity.get': method<ActivityItem>()(ActivityGetArgsSchema),
  'activity.stats': method<ActivityStatsResult>()(ActivityStatsArgsSchema),
  'memory.revert': method<MutationResult>()(RevertArgsSchema),
  'graph.atlas': method<AtlasResult>()(AtlasArgsSchema),
  'store.rename': method<StoreInfo>()(StoreRenameArgsSchema),
  /** What needs the person now: conflicts, review, quarantine, doctor, audit, model. */
  'stats.attention': method<AttentionResult>()(StoreArgsSchema),
  'stats.overview': method<OverviewResult>()(OverviewArgsSchema),
  'system.info': method<SystemInfo>()(EmptyArgsSchema),
  'token.rotate': method<TokenRotateResult>()(EmptyArgsSchema),
  'clients.list': method<ClientListResult>()(EmptyArgsSchema),
  /** Person only: a token of its own for a client, with what it may do (shown once). */
  'clients.add': method<ClientTokenResult>()(ClientAddArgsSchema),
  /** The client tokens (names, policies, last use; never the tokens). */
  'clients.tokens': method<RegisteredClientsResult>()(EmptyArgsSchema),
  /** Person only: a client's token stops working at once. */
  'clients.revoke': method<RegisteredClient>()(ClientNameArgsSchema),
  /** Person only: a new token for a client; the old one stops working at once. */
  'clients.rotate': method<ClientTokenResult>()(ClientNameArgsSchema),
  'setup.plan': method<SetupPlanResult>()(SetupArgsSchema),
  'setup.write': method<SetupWriteResult>()(SetupWriteArgsSchema),
  'setup.check': method<SetupCheckResult>()(EmptyArgsSchema),
  'setup.hooks': method<SetupHooksResult>()(SetupHooksArgsSchema),
  'store.list': method<StoreListResult>()(EmptyArgsSchema),
  'store.create': method<StoreInfo>()(StoreNameArgsSchema),
  'store.reset': method<StoreResetResult>()(StoreNameArgsSchema),
  'store.backup': method<BackupInfo>()(StoreBackupArgsSchema),
  'store.backups': method<BackupListResult>()(StoreArgsSchema),
  /** An encrypted store's export is sealed unless a person asks for `plaintext`. */
  'store.export': method<StoreBundle | SealedStoreBundle>()(StoreExportArgsSchema),
  'store.import': method<StoreImportResult>()(StoreImportArgsSchema),
  /** Every store's encryption at rest: encrypted or not, where the key is, reachable now. */
  'store.encryption': method<EncryptionListResult>()(EmptyArgsSchema),
  /** Person only: encrypts a plain store in place (a backup first; atomic; resumable). */
  'store.encrypt': method<EncryptionChangeResult>()(StoreEncryptArgsSchema),
  /** Person only: a new key for an encrypted store (or a new place for it). */
  'store.rekey': method<EncryptionChangeResult>()(StoreEncryptArgsSchema),
  /** Person only: makes an encrypted store plain again, its backups too. */
  'store.decrypt': method<EncryptionChangeResult>()(StoreDecryptArgsSchema),
  /** Person only: a passphrase-encrypted store's passphrase, kept in memory until the daemon stops. */
  'store.unlock': method<EncryptionStatus>()(StoreUnlockArgsSchema),
  'stats.get': method<StatsResult>()(StoreArgsSchema),
  'recall.calibrate': method<CalibrationResult>()(CalibrateArgsSchema),
  'embedding.backfill': method<EmbeddingStatusView>()(StoreArgsSchema),
  'models.list': method<ModelListResult>()(EmptyArgsSchema),
  'models.install': method<ModelInfo>()(ModelIdArgsSchema),
  'models.remove': method<{ id: string; removed: true }>()(ModelIdArgsSchema),
  'models.use': method<ModelListResult>()(ModelUseArgsSchema),
  'models.decline': method<ModelListResult>()(EmptyArgsSchema),
  'ingest.files': method<IngestReport>()(IngestFilesArgsSchema),
  'ingest.upload': method<IngestUploadResult>()(IngestUploadArgsSchema),
  'ingest.cancel': method<IngestCancelResult>()(IngestCancelArgsSchema),
  'ingest.undo': method<IngestUndoResult>()(IngestBatchArgsSchema),
  'ingest.redo': method<IngestUndoResult>()(IngestBatchArgsSchema),
  'ingest.list': method<IngestListResult>()(IngestListArgsSchema),
  'ingest.folders': method<IngestFoldersResult>()(EmptyArgsSchema),
  'ingest.setFolders': method<IngestFoldersResult>()(IngestFoldersArgsSchema),
  'audit.list': method<AuditListResult>()(AuditListArgsSchema),
  'audit.verify': method<AuditVerifyResult>()(AuditVerifyArgsSchema),
  'audit.anchor': method<AuditAnchorResult>()(StoreArgsSchema),
  'audit.export': method<AuditExportResult>()(AuditExportArgsSchema),
  'audit.access': method<AccessResult>()(AuditAccessArgsSchema),
  'audit.rotateKey': method<AuditRotateResult>()(StoreArgsSchema),
  'doctor.run': method<DoctorReport>()(DoctorRunArgsSchema),
  'doctor.fix': method<DoctorFixResult>()(DoctorFixArgsSchema),
  'dream.run': method<DreamReport>()(DreamRunArgsSchema),
  'dream.cancel': method<DreamCancelResult>()(DreamCancelArgsSchema),
  'dream.list': method<DreamListResult>()(DreamListArgsSchema),
  'dream.get': method<DreamReport>()(DreamGetArgsSchema),
  'review.list': method<ReviewListResult>()(ReviewListArgsSchema),
  'review.accept': method<ReviewDecideResult>()(ReviewAcceptArgsSchema),
  'review.reject': method<ReviewDecideResult>()(ReviewRejectArgsSchema),
  'eval.mark': method<EvalCase>()(EvalMarkArgsSchema),
  'eval.cases': method<EvalCasesResult>()(EvalCasesArgsSchema),
  'eval.remove': method<EvalRemoveResult>()(EvalRemoveArgsSchema),
  'eval.run': method<EvalRunResult>()(EvalRunArgsSchema),
  'eval.runs': method<EvalRunsResult>()(EvalRunsArgsSchema),
  'transcript.import': method<TranscriptImportResult>()(TranscriptImportArgsSchema),
  'journal.list': method<JournalListResult>()(JournalListArgsSchema),
  'journal.get': method<JournalView>()(JournalGetArgsSchema),
  'journal.propose': method<JournalProposeResult>()(JournalProposeArgsSchema),
  'conflict.list': method<ConflictListResult>()(ConflictListArgsSchema),
  'conflict.resolve': method<ConflictResolveResult>()(ConflictResolveArgsSchema),
  'conflict.reopen': method<ConflictView>()(ConflictReopenArgsSchema),
  'conflict.scan': method<ConflictScanResult>()(ConflictScanArgsSchema),
  'memory.verify': method<VerifyResult>()(VerifyArgsSchema),
  'journal.window': method<JournalWindowResult>()(JournalWindowArgsSchema),
  'journal.distill': method<JournalDistillResult>()(JournalDistillArgsSchema),
  'sync.connect': method<SyncStoreStatus>()(SyncConnectArgsSchema),
  'sync.status': method<SyncStatusResult>()(SyncStatusArgsSchema),
  'sync.now': method<SyncRunResult>()(SyncStoreArgsSchema),
  'sync.devices': method<SyncDevicesResult>()(SyncStoreArgsSchema),
  'sync.leave': method<SyncLeaveResult>()(SyncStoreArgsSchema),
} as const;

export type MethodMap = typeof methods;
export type MethodName = keyof MethodMap;
export type MethodArgs<M extends MethodName> = z.input<MethodMap[M]['schema']>;
export type ParsedArgs<M extends MethodName> = z.output<MethodMap[M]['schema']>;
export type MethodResult<M extends MethodName> = NonNullable<MethodMap[M]['result']>;

export const METHOD_NAMES = Object.keys(methods) as MethodName[];

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

/** The shape every transport-side client offers. */
export interface LociClient {
  call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
}
