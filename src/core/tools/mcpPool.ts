// The MCP servers of one run: each started once, when a call first needs it (a server that fails to start
// fails every call that needs it, at once, with the same message); every call bounded by a timeout; all of them
// closed on every path (the run done, failed or cancelled). What a server answers becomes a tool_result's
// content: text as text blocks, images as image blocks, `isError` as is_error. The SDK itself is loaded only
// when a server is used (`connect`, from dist/mcp.js).
import type { ContentBlock } from '../api/types';
import { NoAnswer, type ToolCall, type ToolResultContent } from './answers';
import type { McpServerConfig } from './mcpConfig';

/** The default time a server may take to answer one call (and the least it is given to start). */
const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** PROMPTWRIGHT_TOOL_TIMEOUT_MS, or the default. */
export function toolTimeoutMs(env: Record<string, string | undefined>): number {
  const n = Number(env.PROMPTWRIGHT_TOOL_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_TOOL_TIMEOUT_MS;
}

/** A tool as a server lists it. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** A server's tool as a request file's `tools` entry: name, description, input_schema (without a dialect). */
export function toolEntry(t: McpTool): { name: string; description?: string; input_schema: Record<string, unknown> } {
  const { $schema: _dialect, ...schema } = t.inputSchema ?? { type: 'object' };
  return { name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: schema };
}

/** An MCP content item (text, image, audio, a resource or a link to one). */
interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
  [k: string]: unknown;
}

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** One started server, as dist/mcp.js hands it back. */
export interface McpConnection {
  /** a stdio server's process id */
  readonly pid?: number;
  listTools(o: { signal: AbortSignal; timeoutMs: number }): Promise<McpTool[]>;
  callTool(name: string, args: unknown, o: { signal: AbortSignal; timeoutMs: number }): Promise<McpCallResult>;
  close(): Promise<void>;
}

/** Starts a server (dist/mcp.js's `connectMcp`). */
export type McpConnect = (
  config: McpServerConfig,
  o: { name: string; timeoutMs: number; signal: AbortSignal },
) => Promise<McpConnection>;

/** The images a tool_result may carry. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** An MCP result as a tool_result's content and is_error. */
export function mcpResultContent(r: McpCallResult): { content: ToolResultContent; isError: boolean } {
  const blocks: ContentBlock[] = [];
  for (const c of r.content ?? []) {
    if (c.type === 'text') blocks.push({ type: 'text', text: String(c.text ?? '') });
    else if (c.type === 'image' && typeof c.data === 'string' && IMAGE_TYPES.has(String(c.mimeType)))
      blocks.push({ type: 'image', source: { type: 'base64', media_type: c.mimeType, data: c.data } });
    else if (c.type === 'resource' && typeof c.resource?.text === 'string')
      blocks.push({ type: 'text', text: c.resource.text });
    else {
      // what a tool_result cannot carry (audio, a binary resource, a link) is named, so the model knows it came
      const where = c.uri ?? c.resource?.uri;
      blocks.push({
        type: 'text',
        text: `[${c.type}${c.mimeType ? ` ${c.mimeType}` : ''}${where ? ` ${where}` : ''}]`,
      });
    }
  }
  if (!blocks.length && r.structuredContent !== undefined)
    blocks.push({ type: 'text', text: JSON.stringify(r.structuredContent) });
  return { content: blocks.length ? blocks : '', isError: r.isError === true };
}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class McpPool {
  /** started servers (or their failure), by configuration */
  private readonly started = new Map<string, Promise<McpConnection>>();
  private readonly ctl = new AbortController();
  private closed = false;

  constructor(
    private readonly o: {
      connect: () => Promise<McpConnect>;
      timeoutMs: number;
    },
  ) {}

  /** The server of this name and configuration, started on first use (once per run). */
  private server(name: string, config: McpServerConfig): Promise<McpConnection> {
    if (this.closed) return Promise.reject(new Error('the run is over'));
    const key = `${name}\0${JSON.stringify(config)}`;
    let s = this.started.get(key);
    if (!s) {
      const signal = this.ctl.signal;
      // a start may take longer than a call: at least the default, whatever the calls' limit
      const timeoutMs = Math.max(this.o.timeoutMs, DEFAULT_TOOL_TIMEOUT_MS);
      s = this.o.connect().then(connect => connect(config, { name, timeoutMs, signal }));
      s.catch(() => undefined); // a failed start is said by each call that needs the server
      this.started.set(key, s);
    }
    return s;
  }

  /** Calls a tool on a server: its answer, or a NoAnswer that names the server and says what to do. */
  async call(
    name: string,
    config: McpServerConfig,
    call: ToolCall,
    signal: AbortSignal,
  ): Promise<{ content: ToolResultContent; isError: boolean }> {
    let server: McpConnection;
    try {
      server = await this.server(name, config);
    } catch (e) {
      throw new NoAnswer(`MCP server "${name}" could not be started: ${reason(e)}`, 'mcp_error');
    }
    try {
      const r = await server.callTool(call.name, call.input ?? {}, { signal, timeoutMs: this.o.timeoutMs });
      return mcpResultContent(r);
    } catch (e) {
      if (signal.aborted) throw e;
      const timedOut = /timed? ?out/i.test(reason(e));
      const hint = timedOut
        ? ` (no answer within ${this.o.timeoutMs} ms; PROMPTWRIGHT_TOOL_TIMEOUT_MS sets the limit)`
        : '';
      throw new NoAnswer(`MCP server "${name}" failed on ${call.name}: ${reason(e)}${hint}`, 'mcp_error');
    }
  }

  /** The server's tools. */
  async tools(name: string, config: McpServerConfig, signal: AbortSignal): Promise<McpTool[]> {
    const server = await this.server(name, config);
    return server.listTools({ signal, timeoutMs: this.o.timeoutMs });
  }

  /** The process ids of the stdio servers started (tests look for what was left running). */
  async pids(): Promise<number[]> {
    const all = await Promise.allSettled(this.started.values());
    return all.flatMap(r => (r.status === 'fulfilled' && r.value.pid !== undefined ? [r.value.pid] : []));
  }

  /** Closes every server (a start still under way is aborted). Safe to call more than once. */
  async close(): Promise<void> {
    this.closed = true;
    this.ctl.abort();
    const all = await Promise.allSettled(this.started.values());
    await Promise.allSettled(all.flatMap(r => (r.status === 'fulfilled' ? [r.value.close()] : [])));
    this.started.clear();
  }
}
