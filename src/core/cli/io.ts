// What every CLI command shares: its streams and environment, and the few helpers that read them.
// Commands import this module, never main.ts, so imports run one way: main -> commands -> io.
import type { McpConnect } from '../tools/mcpPool';

export interface CliIo {
  /** `write` says false when the stream's buffer is full (a pipe read slowly); it then emits `drain` */
  stdout: { write(s: string): unknown; once?(event: 'drain', listener: () => void): unknown };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
  /** aborted on Ctrl-C */
  signal?: AbortSignal;
  /** whether a person can answer a question (stdin is a terminal) */
  interactive?: boolean;
  /** whether stderr is a terminal (a progress line is rewritten in place there; elsewhere a line per change) */
  progress?: boolean;
  /** asks a yes/no question on the terminal (only called when `interactive`) */
  confirm?: (question: string) => Promise<boolean>;
  /** loads the MCP client (dist/mcp.js) when a run first needs an MCP server */
  mcp?: () => Promise<McpConnect>;
}

/** PROMPTWRIGHT_BETAS: comma-separated vendor-beta values. */
export function betasFromEnv(env: CliIo['env']): string[] {
  return (env.PROMPTWRIGHT_BETAS ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean);
}
