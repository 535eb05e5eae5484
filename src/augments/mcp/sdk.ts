/**
 * The official MCP SDK, loaded on first use: only an agent that enables mcp pays for it, and
 * `auggy --version`, validate of other folders and every other augment never load it.
 */
export async function loadSdk() {
  const [client, stdio, streamableHttp, sse, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ElicitRequestSchema: types.ElicitRequestSchema,
    CreateMessageRequestSchema: types.CreateMessageRequestSchema,
    ListRootsRequestSchema: types.ListRootsRequestSchema,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
}

export type Sdk = Awaited<ReturnType<typeof loadSdk>>;
