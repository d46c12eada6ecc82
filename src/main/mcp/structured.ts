// The structured content of each MCP tool's answer, by tool name: the type its run()
// is compiled against (through `toolOutput`), and the one scripts/mcp-output-schemas.ts
// turns into the tool's output schema (outputSchemas.json, `npm run schemas:mcp`).
// A tool's type is its contract method's result where the tool returns that as it is.
import type {
  ConflictListResult,
  DoctorReport,
  FindProceduresResult,
  JournalProposeResult,
  LinkResult,
  MapResult,
  MemoryView,
  MutationResult,
  NeighborsResult,
  OutcomeResult,
  RememberResult,
  StatsResult,
  StoreListResult,
  TimelineResult,
  VerifyResult,
} from '../../shared/api';
import type { SessionSummaryToolOutput, TaggedRecallToolOutput } from './sessionTools';
import type {
  DistillSessionToolOutput,
  DreamToolOutput,
  ImportTranscriptToolOutput,
  IngestFileToolOutput,
} from './systemTools';
import type { RecallToolOutput } from './tools';
import type { ResolveToolOutput } from './truthTools';

export interface ToolOutputs {
  remember: RememberResult;
  recall: RecallToolOutput;
  read: MemoryView;
  update: MutationResult;
  forget: MutationResult;
  link: LinkResult;
  explore: NeighborsResult;
  timeline: TimelineResult;
  map: MapResult;
  verify: VerifyResult;
  conflicts: ConflictListResult;
  resolve: ResolveToolOutput;
  record_outcome: OutcomeResult;
  find_procedures: FindProceduresResult;
  stores: StoreListResult;
  stats: StatsResult;
  doctor: DoctorReport;
  dream: DreamToolOutput;
  ingest_file: IngestFileToolOutput;
  import_transcript: ImportTranscriptToolOutput;
  propose_memories: JournalProposeResult;
  distill_session: DistillSessionToolOutput;
  session_summary: SessionSummaryToolOutput;
  errors: TaggedRecallToolOutput;
  decisions: TaggedRecallToolOutput;
}

export type ToolName = keyof ToolOutputs;

/** `value` as `tool`'s structured content: the compiler checks it is `tool`'s output type. */
export function toolOutput<N extends ToolName>(
  _tool: N,
  value: ToolOutputs[N],
): Record<string, unknown> {
  return value as unknown as Record<string, unknown>;
}
