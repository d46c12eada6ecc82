// Each MCP tool's output schema, as tools/list gives it: a JSON Schema of the tool's
// structured content on success, generated from its type (ToolOutputs in structured.ts)
// into outputSchemas.json by `npm run schemas:mcp` (scripts/mcp-output-schemas.ts).
import schemas from './outputSchemas.json';

export interface OutputSchema {
  type: 'object';
  [k: string]: unknown;
}

const SCHEMAS = schemas as unknown as Record<string, OutputSchema>;

/** The tools that have an output schema, in the order ToolOutputs lists them. */
export const OUTPUT_SCHEMA_TOOLS: readonly string[] = Object.keys(SCHEMAS);

/** `toolName`'s output schema; throws for a tool without one. */
export function outputSchemaFor(toolName: string): OutputSchema {
  const schema = Object.hasOwn(SCHEMAS, toolName) ? SCHEMAS[toolName] : undefined;
  if (!schema) {
    throw new Error(
      `The MCP tool "${toolName}" has no output schema: add its type to ToolOutputs (src/main/mcp/structured.ts) and run npm run schemas:mcp.`,
    );
  }
  return schema;
}
