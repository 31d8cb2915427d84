// The MCP client as a bundle of its own (dist/mcp.js): the official SDK's client, loaded when a run first needs an
// MCP server (the CLI's `test` and `mcp`, the editor's tool answers), never at activation.
export { connectMcp } from './core/tools/mcpClient';
