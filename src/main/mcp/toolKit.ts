// What every MCP tool is made of: its definition (name, schema, annotations, how it runs)
// and the small helpers the tool modules share (the optional store, the annotations of
// reading and writing tools, the daemon's default store).
import { z } from 'zod';
import { methods, type CallProgress, type LociClient, type MethodName } from '../../shared/api';

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /**
   * The arguments, as listed to clients: fields of the contract method the tool maps
   * onto (`fieldsOf`), which the contract validates when the tool calls it, plus the
   * tool's own fields (`own`), which only the tool reads and the server validates.
   */
  schema: z.ZodObject;
  own: z.ZodObject;
  /** The contract method whose argument fields the tool lists (and calls). */
  method: MethodName;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: false;
  };
  run(client: LociClient, args: Record<string, unknown>, session: ToolSession): Promise<ToolAnswer>;
}

/** What the connected client offers a tool beyond the contract. */
export interface ToolSession {
  /**
   * Ask the client's own model (MCP sampling), when the client declared it: the reply's
   * text and the model that wrote it. Clients may ask their person first, or refuse.
   */
  sample?: (request: {
    system: string;
    prompt: string;
    maxTokens: number;
  }) => Promise<{ text: string; model: string }>;
  /** Where a tool's own long loop is (the contract's long calls say theirs themselves). */
  progress?: (p: CallProgress) => void;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal;
}

const STORE_DESCRIPTION = "The store to use (default: the daemon's default store).";

/**
 * Fields of a contract method's argument schema, for a tool that maps onto the method:
 * the same types and limits (one source of truth), with descriptions for the agent.
 * `store` is described once here.
 */
export function fieldsOf<M extends MethodName>(
  method: M,
  names: readonly string[],
  descriptions: Record<string, string> = {},
): Record<string, z.ZodType> {
  const shape = (methods[method].schema as unknown as z.ZodObject).shape;
  const all = { store: STORE_DESCRIPTION, ...descriptions };
  return Object.fromEntries(
    names.map((name) => {
      const field = shape[name] as z.ZodType | undefined;
      if (!field) throw new Error(`${method} has no argument "${name}"`);
      const description = all[name as keyof typeof all];
      return [name, description ? field.describe(description) : field];
    }),
  );
}

/** A tool's arguments: these fields of `method`'s, and its own fields; no others. */
export function fromContract<M extends MethodName>(
  method: M,
  names: readonly string[],
  descriptions: Record<string, string> = {},
  own: z.ZodObject = z.strictObject({}),
): Pick<ToolDefinition, 'method' | 'schema' | 'own'> {
  const fields = fieldsOf(method, names, descriptions);
  return { method, schema: z.strictObject({ ...fields, ...own.shape }), own };
}
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
