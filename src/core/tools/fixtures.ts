// Recorded tool answers: `promptwright test FILE --record` answers the calls no entry of the case file matches
// from their live backend (an MCP server, a simulating model) and writes them to NAME.fixtures.yaml beside
// NAME.cases.yaml, in the `tools:` shape, each entry's `when` the call's whole input. Without --record that file
// is read after the case file's own entries, so a recorded suite runs with no MCP server and no network beyond
// the model.
import { stringify } from 'yaml';
import type { ContentBlock } from '../api/types';
import { parseRequest } from '../request/parse';
import { toRecords, type CheckRecord } from '../request/records';
import { normalizeTools, type ToolAnswer, type ToolCall, type ToolsSpec } from './answers';

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

/** What a recording run collects, per case file: each live answer, once per tool and input. */
export class FixtureRecorder {
  private readonly byTool = new Map<string, Map<string, { input: unknown; answer: ToolAnswer }>>();

  add(call: ToolCall, answer: ToolAnswer): void {
    let answers = this.byTool.get(call.name);
    if (!answers) this.byTool.set(call.name, (answers = new Map<string, { input: unknown; answer: ToolAnswer }>()));
    answers.set(JSON.stringify(call.input ?? {}), { input: call.input ?? {}, answer });
  }

  get size(): number {
    let n = 0;
    for (const m of this.byTool.values()) n += m.size;
    return n;
  }

  /** The fixtures file's text: tools by name, each answer under the call's whole input. */
  text(header: string): string {
    const tools: Record<string, unknown[]> = {};
    for (const name of [...this.byTool.keys()].sort())
      tools[name] = [...this.byTool.get(name)!.values()].map(({ input, answer }) => ({
        when: input,
        result: recordedResult(answer.content),
        ...(answer.isError ? { is_error: true } : {}),
      }));
    const body = stringify({ tools }, { lineWidth: 0 });
    return `${header
      .split('\n')
      .map(l => `# ${l}`)
      .join('\n')}\n${body}`;
  }
}

/** An answer as the fixtures file keeps it: text as text (text blocks joined), other blocks as they came. */
function recordedResult(content: string | ContentBlock[]): unknown {
  if (typeof content === 'string') return content;
  if (content.every(b => b.type === 'text')) return content.map(b => String(b.text)).join('\n');
  return content;
}
