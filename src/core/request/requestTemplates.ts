// The templates completion offers in request files (templates.ts), generated from the zod schema: one per content
// block type, from the JSON Schema zod writes of each, and one per built-in tool. The extension's core bundle
// carries what requestTemplates() returns, computed when it is built (scripts/bundles.mjs), so the extension never
// loads zod's JSON Schema writer; the language server calls requestTemplates() itself.
import * as z from 'zod/mini';
import { BUILTIN_TOOL_NAMES, ContentBlock } from './schema';
import type { Template } from './templates';

type JS = Record<string, unknown>;

/** The `type` constant of an object branch, if it has one. */
function branchType(s: JS): string | undefined {
  const r = ((s.properties ?? {}) as Record<string, JS>).type;
  if (!r) return undefined;
  if (typeof r.const === 'string') return r.const;
  if (Array.isArray(r.enum) && r.enum.length === 1 && typeof r.enum[0] === 'string') return r.enum[0];
  return undefined;
}

/** A snippet with the branch's required fields filled with placeholders. */
function snippetBody(s: JS, tab = { n: 0 }): JS {
  const ph = (name: string) => `\${${++tab.n}:${name}}`;
  const props = (s.properties ?? {}) as Record<string, JS>;
  const body: JS = {};
  for (const k of (s.required ?? []) as string[]) {
    const p = props[k] ?? {};
    if (typeof p.const === 'string') body[k] = p.const;
    else if (Array.isArray(p.enum) && p.enum.length) body[k] = p.enum[0];
    else if (p.type === 'string') body[k] = ph(k);
    else if (p.type === 'integer' || p.type === 'number') body[k] = 0;
    else if (p.type === 'array') body[k] = [];
    else if (p.type === 'boolean') body[k] = false;
    else if (p.anyOf || p.oneOf) {
      const first = ((p.oneOf ?? p.anyOf) as JS[]).find(b => b.type === 'object' || b.type === 'string');
      body[k] = first?.type === 'object' ? snippetBody(first, tab) : ph(k);
    } else if (p.type === 'object') body[k] = snippetBody(p, tab);
    else body[k] = ph(k);
  }
  return body;
}

/**
 * The templates completion offers in request files (templates.ts): one per content block type and per
 * built-in tool (the newest version of each), generated from the zod schema; messages, a custom tool and
 * system blocks written here. `pw-<name>`. The extension's core bundle carries what this returns, computed when it
 * is built.
 */
export function requestTemplates(): Template[] {
  const out: Template[] = [
    message('user', 'A user turn.', 'user', '${1:text}'),
    message('assistant', 'An assistant turn (as the last message: a prefill).', 'assistant', '${1:text}'),
    message('tool_result', 'A user turn answering a tool call.', 'user', [
      { type: 'tool_result', tool_use_id: '${1:toolu_id}', content: '${2:result}' },
    ]),
    message('tool_use', 'An assistant turn calling a tool.', 'assistant', [
      { type: 'tool_use', id: '${1:toolu_id}', name: '${2:name}', input: {} },
    ]),
    {
      name: 'pw-tool',
      slot: 'tool',
      description: 'A custom tool: its name, what it does, and the JSON Schema of its input (§2.6).',
      body: {
        name: '${1:name}',
        description: '${2:what it does}',
        input_schema: { type: 'object', properties: {}, required: [] },
      },
    },
    { name: 'pw-text', slot: 'system', description: 'A system text block.', body: { type: 'text', text: '${1:text}' } },
    {
      name: 'pw-text-cached',
      slot: 'system',
      description: 'A system text block with a cache breakpoint after it (§2.3).',
      body: { type: 'text', text: '${1:text}', cache_control: { type: 'ephemeral' } },
    },
  ];
  const blocks = z.toJSONSchema(ContentBlock, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as JS;
  for (const b of (blocks.oneOf ?? blocks.anyOf ?? []) as JS[]) {
    const type = branchType(b);
    if (!type) continue;
    const description = typeof b.description === 'string' ? b.description : `${type} content block`;
    out.push({ name: `pw-${type}`, slot: 'content', description, body: snippetBody(b) });
  }
  // the built-in tools, newest version of each name (the list is oldest first)
  const newest = new Map<string, string>();
  for (const [type, name] of Object.entries(BUILTIN_TOOL_NAMES)) if (/_\d{8}$/.test(type)) newest.set(name, type);
  for (const [name, type] of newest) {
    out.push({
      name: `pw-${name}`,
      slot: 'tool',
      description: `Built-in tool \`${type}\` (§2.6).`,
      body: { type, name },
    });
  }
  return out;
}

function message(name: string, description: string, role: string, content: unknown): Template {
  return { name: `pw-${name}`, slot: 'message', description, body: { role, content } };
}
