// What every MCP tool is made of: its definition (name, schema, annotations, how it runs)
// and the small helpers the tool modules share (the optional store, the annotations of
// reading and writing tools, the daemon's default store).
import type { z } from 'zod';
import type { LociClient } from '../../shared/api';
import { StoreNameSchema } from '../../shared/schemas';

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  schema: z.ZodType;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: false;
  };
  run(client: LociClient, args: Record<string, unknown>): Promise<ToolAnswer>;
}

export const store = {
  store: StoreNameSchema.optional().describe(
    "The store to use (default: the daemon's default store).",
  ),
};
export const read = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
export const write = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

export function withStore<T extends Record<string, unknown>>(
  args: Record<string, unknown>,
  rest: T,
  fallback: string | undefined,
): T & { store?: string } {
  const s = (args.store as string | undefined) ?? fallback;
  return s ? { ...rest, store: s } : rest;
}
