// What every CLI command shares: its streams and environment, and the few helpers that read them.
// Commands import this module, never main.ts, so imports run one way: main -> commands -> io.
import { Settings, settingsFromEnv } from '../core/settings';
import type { McpConnect } from '../core/tools/mcpPool';

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
  return new Settings(settingsFromEnv(env)).betas;
}

/**
 * Control characters a terminal acts on, which text from a file or the service must not carry to it: every C0
 * control but tab and line feed (ESC starts CSI and OSC sequences: a cleared screen, a hyperlink, a window
 * title; BEL rings; a lone CR returns over what was printed), and the C1 controls (U+009B is a CSI of its
 * own). CR LF is a line end and stays. DEL does nothing on a terminal and stays.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const TERMINAL_CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f\x80-\x9f]|\r(?!\n)/g;

/**
 * Text as a terminal may show it: each control character written out as an escape, a C0 control as `\x1b`, a
 * C1 control as `\u009b` (the escape a JSON string means the same by, so a JSON document stays valid and equal).
 * Text without one comes back as it is.
 */
export function terminalText(s: string): string {
  return s.replace(TERMINAL_CONTROL, c => {
    const code = c.charCodeAt(0);
    const hex = code.toString(16).padStart(2, '0');
    return code < 0x20 ? `\\x${hex}` : `\\u00${hex}`;
  });
}

/** The stream under the one `terminalSafe` made, for the progress line's own controls. */
const RAW = Symbol('raw stream');

/** A stream whose `write` passes strings through `terminalText`; everything else is the stream's own. */
function escaping<S extends object>(stream: S): S {
  return new Proxy(stream, {
    get(target, key) {
      if (key === RAW) return target;
      const value: unknown = Reflect.get(target, key, target);
      if (key === 'write' && typeof value === 'function')
        return (chunk: unknown, ...rest: unknown[]): unknown =>
          (value as (...a: unknown[]) => unknown).call(
            target,
            typeof chunk === 'string' ? terminalText(chunk) : chunk,
            ...rest,
          );
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The io every command is given (runCli): whatever a command writes to stdout or stderr, in every format, passes
 * through `terminalText` on its way, so a reply, a stop reason, an error message, a model id or a case name
 * can never clear the screen, plant a hyperlink or retitle the window, whether the output goes to a terminal, a
 * pipe or a file. JSON output is unchanged but for C1 controls, which become the JSON escapes of themselves.
 */
export function terminalSafe(io: CliIo): CliIo {
  return { ...io, stdout: escaping(io.stdout), stderr: escaping(io.stderr) };
}

/**
 * A progress line rewritten in place on a terminal's stderr (`\r`, the line, erase to its end): the only
 * controls of ours that reach a terminal. The line itself passes through `terminalText`.
 */
export function rewriteLine(io: CliIo, line: string): void {
  const raw = (io.stderr as { [RAW]?: CliIo['stderr'] })[RAW] ?? io.stderr;
  raw.write(`\r${terminalText(line)}\x1b[K`);
}
