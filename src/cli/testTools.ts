// The live tool backends of one `promptwright test` run: its MCP servers (each case file's `mcp-servers`, over
// the `.vscode/mcp.json` found from its folder up to the git root; each started once per run and closed when the
// run ends, Ctrl-C included), the model that simulates a tool, and with --record the answers kept for each case
// file's NAME.fixtures.yaml.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApiClient } from '../core/api/client';
import type { RunCell } from '../core/cases/engine';
import { NoAnswer, type LiveBackends } from '../core/tools/answers';
import { fixturesPathOf } from '../core/tools/fixtures';
import { FixtureRecorder } from '../core/tools/fixturesRecord';
import {
  findMcpJson,
  parseMcpJson,
  substitute,
  type McpConfigFile,
  type McpServerConfig,
} from '../core/tools/mcpConfig';
import { McpPool, toolTimeoutMs } from '../core/tools/mcpPool';
import { simulateCall } from '../core/tools/simulate';
import type { CliIo } from './io';
import { recordLine } from './caseFiles';

/** A cell of the run, with the case file it comes from (its path and what it defines). */
type ToolCell = RunCell & { abs?: string; mcpServers?: Record<string, McpServerConfig> };

/** The folder `${workspaceFolder}` names for a case file: the nearest above it with `.vscode/mcp.json` or `.git`. */
function workspaceFolderOf(folder: string): string {
  for (let dir = path.resolve(folder); ;) {
    if (fs.existsSync(path.join(dir, '.vscode', 'mcp.json')) || fs.existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return path.resolve(folder);
    dir = up;
  }
}

export class RunTools {
  readonly pool: McpPool;
  private readonly recorders = new Map<string, FixtureRecorder>();
  private readonly configs = new Map<string, { file: string; config: McpConfigFile } | undefined>();

  constructor(
    private readonly io: CliIo,
    private readonly client: ApiClient,
    private readonly o: { record: boolean },
  ) {
    this.pool = new McpPool({
      connect: () => {
        if (!io.mcp) throw new Error('MCP servers cannot be started from here');
        return io.mcp();
      },
      timeoutMs: toolTimeoutMs(io.env),
    });
  }

  /** The servers of the `.vscode/mcp.json` that governs a folder (read once), or undefined when there is none. */
  workspaceConfig(folder: string): { file: string; config: McpConfigFile } | undefined {
    const file = findMcpJson(folder);
    if (!file) return undefined;
    if (!this.configs.has(file)) {
      let config: McpConfigFile;
      try {
        config = parseMcpJson(fs.readFileSync(file, 'utf8'), path.relative(process.cwd(), file) || file);
      } catch (e) {
        config = { servers: {}, problems: [] };
        this.io.stderr.write(`promptwright: ${file}: cannot be read (${(e as Error).message})\n`);
      }
      for (const r of config.problems) this.io.stderr.write(recordLine(r));
      this.configs.set(file, { file, config });
    }
    return this.configs.get(file);
  }

  /** A server's configuration for a cell: its case file's `mcp-servers` first, then `.vscode/mcp.json`. */
  private serverConfig(cell: ToolCell, name: string): McpServerConfig {
    const folder = cell.abs ? path.dirname(cell.abs) : process.cwd();
    const workspaceFolder = workspaceFolderOf(folder);
    const own = cell.mcpServers?.[name];
    const found = own ? undefined : this.workspaceConfig(folder);
    const config = own ?? found?.config.servers[name];
    if (!config) {
      const broken = found?.config.problems[0];
      const why = broken
        ? `${broken.file}:${broken.line}:${broken.column} does not define it as it should (${broken.message}): ` +
          'fix the file'
        : `neither "mcp-servers" in the case file nor ${found ? found.file : 'a .vscode/mcp.json'} defines it`;
      throw new NoAnswer(`MCP server "${name}" is not available: ${why}`, 'mcp_error');
    }
    const subbed = substitute(config, { env: this.io.env, workspaceFolder });
    return subbed.type === 'stdio' && subbed.cwd === undefined ? { ...subbed, cwd: workspaceFolder } : subbed;
  }

  /** What answers a cell's calls live. */
  live(cell: ToolCell): LiveBackends {
    const recorder = this.o.record && cell.abs ? this.recorder(cell.abs) : undefined;
    return {
      mcp: (server, call, signal) => this.pool.call(server, this.serverConfig(cell, server), call, signal),
      simulate: (instructions, call, signal) =>
        simulateCall(
          {
            model: this.io.env.PROMPTWRIGHT_COAUTHOR_MODEL || cell.model,
            body: cell.body,
            create: (request, s) => this.client.createMessage(request, { signal: s }),
          },
          instructions,
          call,
          signal,
        ),
      ...(recorder ? { record: (call, answer) => recorder.add(call, answer) } : {}),
    };
  }

  private recorder(abs: string): FixtureRecorder {
    let r = this.recorders.get(abs);
    if (!r) this.recorders.set(abs, (r = new FixtureRecorder()));
    return r;
  }

  /** --record: each loop case file's NAME.fixtures.yaml, replaced with what this run recorded. */
  writeFixtures(caseFiles: readonly string[], cwd: string, at = new Date()): void {
    for (const abs of caseFiles) {
      const recorder = this.recorder(abs);
      const file = fixturesPathOf(abs);
      const header =
        `Recorded by \`promptwright test ${path.relative(cwd, abs) || abs} --record\` on ${at.toISOString()}.\n` +
        "Each tool's answers, under the call's whole input; read after the case file's own entries.";
      fs.writeFileSync(file, recorder.text(header));
      this.io.stderr.write(
        `promptwright test: recorded ${recorder.size} answer${recorder.size === 1 ? '' : 's'} in ` +
          `${path.relative(cwd, file) || file}\n`,
      );
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
