// One MCP server started and talked to with the official SDK's client: a stdio server as a child process (its
// stderr kept, the last of it said when it fails to start), an http server over Streamable HTTP. Only dist/mcp.js
// bundles this file: the SDK loads when a run first needs a server, never at activation or for a run without one.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from './mcpConfig';
import type { McpCallResult, McpConnect, McpConnection, McpTool } from './mcpPool';

/** How long a stdio server has to exit once its stdin is closed, before it is sent SIGTERM. */
const CLOSE_GRACE_MS = 200;

/** How much of a server's stderr is kept to explain a failure. */
const STDERR_TAIL = 2000;

declare const PROMPTWRIGHT_VERSION: string | undefined;
const version = typeof PROMPTWRIGHT_VERSION === 'string' ? PROMPTWRIGHT_VERSION : '0.0.0';

export const connectMcp: McpConnect = async (config: McpServerConfig, o) => {
  let stderr = '';
  const transport =
    config.type === 'http'
      ? new StreamableHTTPClientTransport(new URL(config.url!), {
          requestInit: { headers: config.headers ?? {} },
        })
      : new StdioClientTransport({
          command: config.command!,
          args: config.args ?? [],
          ...(config.env ? { env: config.env } : {}),
          ...(config.cwd ? { cwd: config.cwd } : {}),
          stderr: 'pipe',
        });
  if (transport instanceof StdioClientTransport)
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
  const client = new Client({ name: 'promptwright', version }, { capabilities: {} });
  const pidOf = () => (transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined);
  // Closed once, whoever asks first (Ctrl-C, the run's end, a failed start). The SDK ends the server's stdin and
  // waits 2 s before it sends SIGTERM: a server busy with a call (or deaf to its stdin) would hold the end that
  // long (Ctrl-C took 3.8 s), so it gets SIGTERM after a short grace.
  let shutting: Promise<void> | undefined;
  const shutDown = (): Promise<void> =>
    (shutting ??= (async () => {
      const pid = pidOf(); // before close(): the transport forgets its process then
      const closed = client.close().catch(() => undefined);
      const grace = new Promise<boolean>(resolve => setTimeout(() => resolve(false), CLOSE_GRACE_MS).unref());
      if (!(await Promise.race([closed.then(() => true), grace])) && pid !== undefined)
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // gone meanwhile
        }
      await closed;
    })());
  const closing = () => void shutDown();
  o.signal.addEventListener('abort', closing, { once: true });
  try {
    await client.connect(transport, { timeout: o.timeoutMs, signal: o.signal });
  } catch (e) {
    await shutDown();
    const said = stderr.trim() ? ` Its last words: ${stderr.trim().split('\n').slice(-3).join(' / ')}` : '';
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`${why}.${said}`, { cause: e });
  }
  const pid = pidOf();
  const connection: McpConnection = {
    ...(pid !== undefined ? { pid } : {}),
    async listTools({ signal, timeoutMs }) {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: timeoutMs });
        for (const t of page.tools)
          tools.push({
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            inputSchema: t.inputSchema,
          });
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(name, args, { signal, timeoutMs }) {
      const r = await client.callTool({ name, arguments: (args ?? {}) as Record<string, unknown> }, undefined, {
        signal,
        timeout: timeoutMs,
      });
      return r as McpCallResult;
    },
    async close() {
      o.signal.removeEventListener('abort', closing);
      await shutDown();
    },
  };
  return connection;
};
