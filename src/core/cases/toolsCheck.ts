// A case file's tool answers against its request and the MCP servers it can reach: an answer for a tool the
// request does not define can never be asked for (an error); an `mcp` answer naming a server neither the case
// file's `mcp-servers` nor the workspace's `.vscode/mcp.json` defines is a warning, since a recorded suite runs
// without its servers, and a call that then needs the server is its cell's error.
import type { Locate } from '../request/parse';
import type { Path, Problem } from '../request/types';
import type { ToolsSpec } from '../tools/answers';
import type { CaseFile } from './types';

/** The names of the tools a request defines (`tools[].name`). */
function requestToolNames(requestValue: unknown): Set<string> {
  const tools = (requestValue as { tools?: unknown } | null | undefined)?.tools;
  const names = new Set<string>();
  if (Array.isArray(tools))
    for (const t of tools) {
      const name = (t as { name?: unknown } | null)?.name;
      if (typeof name === 'string') names.add(name);
    }
  return names;
}

/**
 * The problems of a case file's `tools:` (and its cases'): tools the request does not define, and servers no
 * configuration names. `requestValue` undefined: the request could not be read (its own problems say so);
 * `servers`: the names `.vscode/mcp.json` defines (the case file's own are added).
 */
export function toolsCheck(
  file: CaseFile,
  locate: Locate,
  requestValue: unknown,
  servers: readonly string[],
): Problem[] {
  const out: Problem[] = [];
  const defined = requestValue === undefined ? undefined : requestToolNames(requestValue);
  const known = new Set([...servers, ...Object.keys(file.mcpServers ?? {})]);
  const place = (at: Path, key: boolean) => locate(at, key) ?? locate(at.slice(0, -1)) ?? { start: 0, end: 1 };
  const check = (spec: ToolsSpec | undefined, at: Path) => {
    for (const [name, entries] of Object.entries(spec ?? {})) {
      if (defined && !defined.has(name)) {
        const list = [...defined];
        out.push({
          ...place([...at, name], true),
          path: [...at, name],
          severity: 'error',
          code: 'unknown-tool',
          message:
            `The request defines no tool "${name}": the model can never call it. ` +
            (list.length ? `It defines ${list.map(n => `"${n}"`).join(', ')}.` : 'It defines no tools.'),
        });
      }
      entries.forEach((e, j) => {
        if (e.mcp === undefined || known.has(e.mcp)) return;
        // a list's entry, or the tool's one entry written as an object
        const where: Path = locate([...at, name, j, 'mcp']) ? [...at, name, j, 'mcp'] : [...at, name, 'mcp'];
        out.push({
          ...place(where, false),
          path: where,
          severity: 'warning',
          code: 'unknown-mcp-server',
          message:
            `No MCP server "${e.mcp}" is defined (in .vscode/mcp.json or "mcp-servers" here): a call that needs it ` +
            `is its cell's error, unless a recorded fixture answers it.` +
            (known.size ? ` Defined: ${[...known].map(n => `"${n}"`).join(', ')}.` : ''),
        });
      });
    }
  };
  check(file.tools, ['tools']);
  file.cases.forEach((c, i) => check(c.tools, ['cases', i, 'tools']));
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}
