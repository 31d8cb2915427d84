// Recorded tool answers: `promptwright test FILE --record` answers the calls no entry of the case file matches
// from their live backend (an MCP server, a simulating model) and writes them to NAME.fixtures.yaml beside
// NAME.cases.yaml, in the `tools:` shape, each entry's `when` the call's whole input. Without --record that file
// is read after the case file's own entries, so a recorded suite runs with no MCP server and no network beyond
// the model.
import { parseRequest } from '../request/parse';
import { toRecords, type CheckRecord } from '../request/records';
import { normalizeTools, type ToolsSpec } from './answers';

/** `support.cases.yaml` → `support.fixtures.yaml` (a JSON case file's fixtures are YAML too). */
export function fixturesPathOf(caseFilePath: string): string {
  return caseFilePath.replace(/\.cases\.(ya?ml|json)$/i, '') + '.fixtures.yaml';
}

/** A fixtures file's answers, and its problems at their lines. */
export function parseFixtures(text: string, display: string): { tools?: ToolsSpec; records: CheckRecord[] } {
  const parsed = parseRequest(text, 'yaml');
  const records = toRecords(text, parsed.problems, display);
  const value = parsed.value as { tools?: unknown } | null | undefined;
  if (records.some(r => r.severity === 'error')) return { records };
  if (value === undefined || value === null) return { tools: {}, records };
  const tools = normalizeTools(value.tools);
  if (!tools) {
    const at = { file: display, line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', path: '' };
    records.push({
      ...at,
      code: 'fixtures-shape',
      message: 'A fixtures file holds "tools:", each tool a list of {when, result}.',
    });
    return { records };
  }
  return { tools, records };
}
