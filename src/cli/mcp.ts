// `promptwright mcp list` and `promptwright mcp tools SERVER [--format json|yaml]`: the MCP servers the workspace's
// `.vscode/mcp.json` names (found from the working directory up to the git root), and one server's tools as a
// request file's `tools` entries (name, description, input_schema), to paste or pipe into a request file. The
// server is started for the question and closed when it is answered, Ctrl-C included.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { findMcpJson, parseMcpJson, substitute, type McpConfigFile } from '../core/tools/mcpConfig';
import { McpPool, toolEntry, toolTimeoutMs } from '../core/tools/mcpPool';
import { formatOption, one, parseArgs, UsageError, type Command, type Group } from './args';
import { recordLine } from './caseFiles';
import { groupCommand, positionals } from './common';
import { CTRL_C, EXIT, guarded } from './guard';
import type { CliIo } from './io';

/** What exit 2 means for the mcp commands: they need no key, only a server list. */
const NO_CONFIG = 'a usage error, no .vscode/mcp.json here or above, or a server it does not name';

const LIST: Command = {
  name: 'mcp list',
  summary: 'The MCP servers .vscode/mcp.json names (found from here up to the git root): name, type, command or URL.',
  options: [],
  exits: { 0: 'listed', 1: 'the file has problems (printed at their lines)', 2: NO_CONFIG },
};

const TOOLS: Command = {
  name: 'mcp tools',
  args: 'SERVER',
  summary:
    "A server's tools as a request file's tools entries (name, description, input_schema), to paste or pipe into " +
    'a request file. The server is started for the question and closed when it is answered, Ctrl-C included.',
  options: [formatOption(['yaml', 'json'])],
  exits: { 0: 'printed', 1: 'the server failed to start or to answer', 2: NO_CONFIG, 130: CTRL_C },
};

export const MCP: Group = {
  name: 'mcp',
  summary: 'The MCP servers of the workspace (.vscode/mcp.json), whose tools answer tool calls in test cases.',
  commands: [LIST, TOOLS],
};

/** The .vscode/mcp.json governing `cwd`, read, its problems printed at their lines. */
function workspaceConfig(cwd: string, io: CliIo): { file: string; config: McpConfigFile } {
  const file = findMcpJson(cwd);
  if (!file) throw new UsageError('no .vscode/mcp.json here or in a folder above, up to the git root');
  const display = path.relative(cwd, file) || file;
  const config = parseMcpJson(fs.readFileSync(file, 'utf8'), display);
  for (const r of config.problems) io.stderr.write(recordLine(r));
  return { file, config };
}

export async function runMcp(argv: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const picked = groupCommand(MCP, argv, io);
  if (typeof picked === 'number') return picked;
  const { command, rest } = picked;
  return guarded(io, command.name, async () => {
    const p = parseArgs(rest, command);
    if (command === LIST) {
      positionals(p, []);
      const { file, config } = workspaceConfig(cwd, io);
      for (const [name, s] of Object.entries(config.servers)) {
        const what = s.type === 'http' ? s.url! : [s.command!, ...(s.args ?? [])].join(' ');
        io.stdout.write(`${name}\t${s.type}\t${what}\n`);
      }
      if (!Object.keys(config.servers).length) io.stderr.write(`promptwright mcp: ${file} names no servers\n`);
      return config.problems.length ? EXIT.service : EXIT.ok;
    }
    const outputFormat = one(p, 'format') ?? 'yaml';
    if (p.positionals.length !== 1)
      throw new UsageError('mcp tools needs one SERVER (promptwright mcp list names them)');
    const name = p.positionals[0]!;
    const { file, config } = workspaceConfig(cwd, io);
    const server = config.servers[name];
    if (!server) {
      const known = Object.keys(config.servers);
      throw new UsageError(`${file} names no server "${name}"${known.length ? ` (it names ${known.join(', ')})` : ''}`);
    }
    const workspaceFolder = path.dirname(path.dirname(file));
    const subbed = substitute(server, { env: io.env, workspaceFolder });
    const pool = new McpPool({
      connect: () => {
        if (!io.mcp) throw new Error('MCP servers cannot be started from here');
        return io.mcp();
      },
      timeoutMs: toolTimeoutMs(io.env),
    });
    const signal = io.signal ?? new AbortController().signal;
    try {
      const tools = await pool.tools(
        name,
        subbed.type === 'stdio' ? { cwd: workspaceFolder, ...subbed } : subbed,
        signal,
      );
      const entries = tools.map(toolEntry);
      io.stdout.write(
        outputFormat === 'json'
          ? `${JSON.stringify(entries, null, 2)}\n`
          : stringify({ tools: entries }, { lineWidth: 0 }),
      );
      return EXIT.ok;
    } catch (e) {
      if (signal.aborted) throw e;
      io.stderr.write(`promptwright mcp: server "${name}": ${e instanceof Error ? e.message : String(e)}\n`);
      return EXIT.service;
    } finally {
      await pool.close();
    }
  });
}
