// The version Loci reports (MCP server info, /health, system.info). Kept equal to
// package.json's by a test.
export const LOCI_VERSION = '0.1.0';
