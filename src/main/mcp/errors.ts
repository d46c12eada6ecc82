// The JSON-RPC errors the MCP face answers with (an unknown resource, bad params).

/**
 * A JSON-RPC error for the client. The SDK sends `code` and `message` as they are; its
 * own McpError would put "MCP error <code>:" in the message, which clients add again.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
