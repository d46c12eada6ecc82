// The JSON Schema validator the SDK's Server and Client build by default. The SDK's own is
// Ajv with ajv-formats: ~400 kB of code that every `loci mcp` would parse at start, for
// the one check Loci's server makes with it (an elicitation's answer against its form).
// The build (electron.vite.config.ts) puts this module in its place: the SDK's provider
// for @cfworker/json-schema, which validates without generating code. buildMcpServer
// also passes it explicitly, so the tests, run from the sources, check with the same one.
export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
