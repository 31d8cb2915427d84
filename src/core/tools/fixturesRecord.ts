// What `promptwright test --record` keeps: each live answer of a case file's loops, once per tool and input, written
// as its NAME.fixtures.yaml (fixtures.ts reads it back). Apart from the reader, so that what reads fixtures (the
// editor's grid too) does not carry the YAML writer.
import { stringify } from 'yaml';
import type { ContentBlock } from '../api/types';
import type { ToolAnswer, ToolCall } from './answers';

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
