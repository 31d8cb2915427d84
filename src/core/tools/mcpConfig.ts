// MCP servers as VS Code's `.vscode/mcp.json` names them, and as a case file's `mcp-servers:` does (the same
// shape, which wins by name): `servers: { NAME: { type: "stdio", command, args, env, cwd } }` or
// `{ type: "http", url, headers }`, with `${env:NAME}` and `${workspaceFolder}` substituted. The CLI finds
// `.vscode/mcp.json` from the case file's folder upwards to the git root. Nothing here starts a server.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { lineColumn, type CheckRecord } from '../request/records';

/** One server: a command to start (stdio), or an address to talk to (http). */
export interface McpServerConfig {
  type: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every(x => typeof x === 'string') ? v : undefined;
const stringMap = (v: unknown): Record<string, string> | undefined =>
  isObject(v) && Object.values(v).every(x => typeof x === 'string') ? (v as Record<string, string>) : undefined;

/**
 * One server's configuration, or why it is not one. `type` may be left out when `command` (stdio) or `url`
 * (http) says it, as VS Code allows; `sse` is read as http (the SDK's transport falls back to it).
 */
export function serverConfigOf(v: unknown): McpServerConfig | { problem: string } {
  if (!isObject(v)) return { problem: 'a server is an object with "command" (stdio) or "url" (http)' };
  const type = v.type ?? (typeof v.url === 'string' ? 'http' : 'stdio');
  if (type === 'stdio') {
    if (typeof v.command !== 'string' || !v.command) return { problem: 'a stdio server needs "command" (text)' };
    const args = v.args === undefined ? [] : strings(v.args);
    if (!args) return { problem: '"args" must be a list of texts' };
    const env = v.env === undefined ? undefined : stringMap(v.env);
    if (v.env !== undefined && !env) return { problem: '"env" must map names to texts' };
    if (v.cwd !== undefined && typeof v.cwd !== 'string') return { problem: '"cwd" must be text' };
    return {
      type: 'stdio',
      command: v.command,
      args,
      ...(env ? { env } : {}),
      ...(typeof v.cwd === 'string' ? { cwd: v.cwd } : {}),
    };
  }
  if (type === 'http' || type === 'sse') {
    if (typeof v.url !== 'string' || !v.url) return { problem: 'an http server needs "url" (text)' };
    const headers = v.headers === undefined ? undefined : stringMap(v.headers);
    if (v.headers !== undefined && !headers) return { problem: '"headers" must map names to texts' };
    return { type: 'http', url: v.url, ...(headers ? { headers } : {}) };
  }
  return { problem: `"type" must be "stdio" or "http", not ${JSON.stringify(type)}` };
}

/** What an mcp.json holds: its servers, and each problem at its line (a server with a problem is left out). */
export interface McpConfigFile {
  servers: Record<string, McpServerConfig>;
  problems: CheckRecord[];
}

/** Reads an mcp.json's text (JSON with comments and trailing commas, as VS Code reads it). */
export function parseMcpJson(text: string, display: string): McpConfigFile {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const at = lineColumn(text);
  const record = (offset: number, length: number, message: string): CheckRecord => {
    const s = at(offset);
    const e = at(offset + Math.max(1, length));
    const line = { line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
    return { file: display, ...line, severity: 'error', code: 'mcp-config', message, path: '' };
  };
  const problems = errors.map(e => record(e.offset, e.length, `${printParseErrorCode(e.error)} in the MCP config`));
  const servers: Record<string, McpServerConfig> = {};
  if (problems.length) return { servers, problems };
  const list = isObject(value) ? value.servers : undefined;
  if (!isObject(list)) {
    problems.push(record(0, 1, 'an MCP config holds { "servers": { NAME: { "command" … } } }'));
    return { servers, problems };
  }
  for (const [name, v] of Object.entries(list)) {
    const c = serverConfigOf(v);
    if ('problem' in c) {
      const offset = Math.max(0, text.indexOf(JSON.stringify(name)));
      problems.push(record(offset, name.length + 2, `server "${name}": ${c.problem}`));
    } else Object.defineProperty(servers, name, { value: c, enumerable: true, writable: true, configurable: true });
  }
  return { servers, problems };
}

/** The values a server's configuration may name: `${env:NAME}` (empty when unset) and `${workspaceFolder}`. */
export interface Substitutions {
  env: Record<string, string | undefined>;
  workspaceFolder: string;
}

/** `${env:NAME}` and `${workspaceFolder}` replaced in every text of a server's configuration. */
export function substitute(c: McpServerConfig, s: Substitutions): McpServerConfig {
  const sub = (t: string) =>
    t.replace(/\$\{(env:([A-Za-z_][A-Za-z0-9_]*)|workspaceFolder)\}/g, (_m, _all, name: string | undefined) =>
      name !== undefined ? (s.env[name] ?? '') : s.workspaceFolder,
    );
  const map = (m: Record<string, string> | undefined) =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, sub(v)]));
  return {
    ...c,
    ...(c.command !== undefined ? { command: sub(c.command) } : {}),
    ...(c.args ? { args: c.args.map(sub) } : {}),
    ...(c.env ? { env: map(c.env) } : {}),
    ...(c.cwd !== undefined ? { cwd: sub(c.cwd) } : {}),
    ...(c.url !== undefined ? { url: sub(c.url) } : {}),
    ...(c.headers ? { headers: map(c.headers) } : {}),
  };
}

/**
 * The `.vscode/mcp.json` that governs a folder: looked for in it and each folder above, up to the git root (the
 * folder holding `.git`) or the file system's root. Undefined when there is none.
 */
export function findMcpJson(folder: string): string | undefined {
  for (let dir = path.resolve(folder); ;) {
    const candidate = path.join(dir, '.vscode', 'mcp.json');
    if (fs.existsSync(candidate)) return candidate;
    if (fs.existsSync(path.join(dir, '.git'))) return undefined;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
