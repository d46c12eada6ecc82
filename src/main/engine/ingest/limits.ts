// The documented limits of file ingestion (README, "Ingesting files"). Engine options
// may lower them (tests do); nothing raises them past what a worker can hold.

export interface IngestLimits {
  /** Largest file read at all; larger ones are skipped before they are opened. */
  maxFileBytes: number;
  /** Most chunk memories one file may become; past it the file fails, nothing written. */
  maxChunksPerFile: number;
  /** Wall-clock budget to parse and chunk one file in the worker. */
  fileTimeoutMs: number;
  /** V8 heap budget of the parser worker (resourceLimits.maxOldGenerationSizeMb). */
  workerHeapMb: number;
  /** Bytes one compressed part (a PDF stream, a DOCX zip entry set) may inflate to. */
  maxInflatedBytes: number;
  /** JSON nested deeper than this is refused (before any parsing). */
  maxJsonDepth: number;
  /** CSV files with more data rows than this become a schema summary plus sampled rows. */
  csvRowsPerMemory: number;
  /** Rows kept (evenly spaced) from a CSV file past csvRowsPerMemory. */
  csvSampleRows: number;
  /** Total bytes one browser upload may stage. */
  maxUploadBytes: number;
  /** Files one batch may hold (after walking folders). */
  maxFilesPerBatch: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxFileBytes: 50 * 1024 * 1024,
  maxChunksPerFile: 5000,
  fileTimeoutMs: 60_000,
  workerHeapMb: 512,
  maxInflatedBytes: 128 * 1024 * 1024,
  maxJsonDepth: 256,
  csvRowsPerMemory: 1000,
  csvSampleRows: 200,
  maxUploadBytes: 512 * 1024 * 1024,
  maxFilesPerBatch: 20_000,
};

/**
 * Tokens are estimated as characters / 3.5: the word-piece tokenizers of the embedding
 * models (all-MiniLM and kin) make about one token per 3.5–4 characters of English and
 * more for code, so the lower figure keeps a chunk inside the model's window.
 */
export const CHARS_PER_TOKEN = 3.5;

/** Chunk size when the active model says nothing better (the hashing fallback). */
export const DEFAULT_CHUNK_TOKENS = 256;

/** The largest chunk the default picks, even for models with a wider window. */
export const MAX_DEFAULT_CHUNK_TOKENS = 512;

/** Staging folders of uploads never ingested are removed after this long. */
export const STAGING_MAX_AGE_MS = 24 * 60 * 60 * 1000;
