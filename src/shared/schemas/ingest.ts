// zod schemas of the contract, by domain (ingest): ingestion: files, uploads, batches,
// allowed folders.
import { z } from 'zod';
import { LIMITS, isUploadPath, UPLOAD_PATH_RULE } from '../constants';
import { storeField } from './common';

/** An import batch: a ULID (the caller may choose it, to cancel before the answer). */
export const BatchIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'an import batch id is a 26-character ULID');

/** A browser's upload session: files staged under it are then ingested as one folder. */
export const UploadIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'an upload id is a 26-character ULID');

/** A path inside an upload: relative, "/"-separated, no "..", no empty or hidden tricks. */
export const UploadPathSchema = z.string().min(1).max(1024).refine(isUploadPath, UPLOAD_PATH_RULE);

const ingestChunking = {
  /** Tokens per chunk (default: what the active embedding model takes, at most 512). */
  chunk_tokens: z.number().int().min(LIMITS.chunkTokensMin).max(LIMITS.chunkTokensMax).optional(),
  /** Tokens shared by neighbouring chunks (default: an eighth of chunk_tokens). */
  overlap_tokens: z.number().int().min(0).max(512).optional(),
  /** Extra tags on every memory of the batch. */
  tags: z.array(z.string().min(1).max(LIMITS.tagMaxChars)).max(8).optional(),
};

export const IngestFilesArgsSchema = z
  .strictObject({
    ...storeField,
    /** Absolute paths of files or folders on the engine's machine. */
    paths: z.array(z.string().min(1).max(4096)).min(1).max(LIMITS.ingestPathsMax).optional(),
    /** Or: the files staged with ingest.upload under this id. */
    upload: UploadIdSchema.optional(),
    batch: BatchIdSchema.optional(),
    ...ingestChunking,
  })
  .refine((a) => (a.paths === undefined) !== (a.upload === undefined), {
    message: 'give either paths or upload, not both',
    path: ['paths'],
  });

export const IngestUploadArgsSchema = z.strictObject({
  upload: UploadIdSchema,
  path: UploadPathSchema,
  /** The file's bytes, base64. */
  content_base64: z
    .string()
    .max(Math.ceil((LIMITS.uploadFileMaxBytes * 4) / 3) + 4, 'the file is larger than 32 MiB'),
  /** The file's last-modified time (ms since 1970), kept as its provenance. */
  modified: z.number().int().min(0).optional(),
});

export const IngestBatchArgsSchema = z.strictObject({ ...storeField, batch: BatchIdSchema });

export const IngestCancelArgsSchema = z.strictObject({ batch: BatchIdSchema });

export const IngestListArgsSchema = z.strictObject({
  ...storeField,
  limit: z.number().int().min(1).max(200).default(50),
});

export const IngestFoldersArgsSchema = z.strictObject({
  /** Absolute folders the MCP tool ingest_file may read from (replaces the list). */
  folders: z.array(z.string().min(1).max(4096)).max(LIMITS.ingestFoldersMax),
});
