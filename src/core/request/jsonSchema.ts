// The JSON Schema the editor uses for completion and hover, generated from the zod schemas at build time
// (esbuild.mjs writes dist/request.schema.json); never kept by hand.
//
// It is made NON-VALIDATING on purpose: Promptwright's own diagnostics are the only ones, so the JSON and
// YAML language services must not add duplicate or contradicting errors next to them. Every keyword that
// can fail (type, required, additionalProperties, enum, const, bounds, oneOf) is removed or turned into a
// completion hint (`examples`); unions picked by `type` become `if {type: const} then {branch}`, which
// never fails and still gives per-type completion and hover. A unit test checks this property.
//
// The zod descriptions are Markdown (`user`, `5m`): the language services show `description` as plain text,
// backticks and all, so a Markdown one is also written as `markdownDescription`, which they render.
import * as z from 'zod/mini';
import { BUILTIN_TOOL_NAMES, ContentBlock, CountTokensBody, RequestBody } from './schema';
import type { Template } from './templates';

type JS = Record<string, unknown>;
const DROP = new Set([
  'type',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minProperties',
  'maxProperties',
  'propertyNames',
  '$schema',
]);

/** The schema of a create-message body, or (`count_tokens`) of what the token-counting endpoint takes. */
export function requestJsonSchema(endpoint: 'messages' | 'count_tokens' = 'messages'): JS {
  return endpoint === 'count_tokens' ? countJsonSchema() : messagesJsonSchema();
}

function messagesJsonSchema(): JS {
  const raw = z.toJSONSchema(RequestBody, {
    io: 'input',
    unrepresentable: 'any',
    reused: 'ref',
    target: 'draft-7',
  }) as JS;
  const defs = (raw.definitions ?? raw.$defs ?? {}) as Record<string, JS>;
  const resolve = (s: JS): JS => {
    const ref = s.$ref;
    if (typeof ref === 'string') {
      const name = ref.split('/').pop()!;
      return defs[name] ?? s;
    }
    return s;
  };
  const out = withMarkdown(soften(raw, resolve)) as JS;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'promptwright-request',
    title: 'Promptwright message request (body of POST /v1/messages)',
    ...out,
  };
}

/** Where the count schema finds the request schema: beside it (dist/), as esbuild.mjs writes both. */
const REQUEST_SCHEMA_FILE = 'request.schema.json';

/**
 * What count_tokens takes is a part of the request (CountTokensBody picks its fields), so its schema points
 * into the request schema's properties rather than carrying a second copy of every definition (half the
 * size of both in the .vsix). No `$id`: the references resolve against the file's own address.
 */
function countJsonSchema(): JS {
  const description = z.globalRegistry.get(CountTokensBody)?.description;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Promptwright token count request (body of POST /v1/messages/count_tokens)',
    ...(description ? { description } : {}),
    properties: Object.fromEntries(
      Object.keys(CountTokensBody.shape).map(k => [k, { $ref: `${REQUEST_SCHEMA_FILE}#/properties/${k}` }]),
    ),
  };
}

/** Another generated schema made non-validating the same way (the case files'); it must have no `$ref`. */
export function softenJsonSchema(raw: JS): JS {
  return withMarkdown(soften(raw, s => s)) as JS;
}

/** Markdown in a description: code spans and emphasis. */
const MARKDOWN = /`|\*\*/;
/** Keywords whose values are data (a snippet's body, examples), not schemas: their `description`s stay. */
const DATA = new Set(['body', 'examples', 'default', 'const', 'enum']);

/**
 * Each description written in Markdown becomes `markdownDescription` (rendered in hover and completion),
 * and `description` keeps its plain text for tools that read only that.
 */
function withMarkdown(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withMarkdown);
  if (node === null || typeof node !== 'object') return node;
  const out: JS = {};
  for (const [k, v] of Object.entries(node as JS)) out[k] = DATA.has(k) ? v : withMarkdown(v);
  if (typeof out.description === 'string' && MARKDOWN.test(out.description)) {
    out.markdownDescription = out.description;
    out.description = out.description.replace(/`|\*\*/g, '');
  }
  return out;
}

/** The `type` constant of an object branch, if it has one. */
function branchType(s: JS, resolve: (s: JS) => JS): string | undefined {
  const t = ((resolve(s).properties ?? {}) as Record<string, JS>).type;
  if (!t) return undefined;
  const r = resolve(t);
  if (typeof r.const === 'string') return r.const;
  if (Array.isArray(r.enum) && r.enum.length === 1 && typeof r.enum[0] === 'string') return r.enum[0];
  return undefined;
}

function soften(node: unknown, resolve: (s: JS) => JS): unknown {
  if (Array.isArray(node)) return node.map(n => soften(n, resolve));
  if (node === null || typeof node !== 'object') return node;
  const s = node as JS;
  const out: JS = {};
  const union = (s.oneOf ?? s.anyOf) as JS[] | undefined;
  if (union) {
    const types = union.map(b => branchType(b, resolve));
    if (types.length > 1 && types.every(t => t !== undefined)) {
      // a union picked by `type`: `if type == T then branch`, plus completion of the type values
      const allOf: JS[] = [{ properties: { type: { examples: types, description: 'One of: ' + types.join(', ') } } }];
      union.forEach((b, i) =>
        allOf.push({
          if: { properties: { type: { const: types[i] } }, required: ['type'] },
          then: soften(b, resolve),
        }),
      );
      if (typeof s.description === 'string') out.description = s.description;
      out.allOf = allOf;
      out.defaultSnippets = union.map((b, i) => ({
        label: `${types[i]}`,
        description: typeof resolve(b).description === 'string' ? (resolve(b).description as string) : '',
        body: snippetBody(resolve(b), resolve),
      }));
      return out;
    }
    out.anyOf = union.map(b => soften(b, resolve));
    // `x: string | null` keeps its description on a member: hover shows the property's own
    const described = union.map(resolve).find(b => typeof b.description === 'string');
    if (typeof s.description !== 'string' && described) out.description = described.description;
  }
  for (const [k, v] of Object.entries(s)) {
    if (k === 'oneOf' || k === 'anyOf' || DROP.has(k)) continue;
    if (k === 'enum') {
      out.examples = v;
      continue;
    }
    if (k === 'const') {
      out.examples = [v];
      continue;
    }
    // maps whose keys are names, not keywords: a property called `type` or `required` stays
    if (k === 'definitions' || k === '$defs' || k === 'properties' || k === 'patternProperties') {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([n, d]) => [n, soften(d, resolve)]),
      );
      continue;
    }
    out[k] = soften(v, resolve);
  }
  return out;
}

/** A snippet with the branch's required fields filled with placeholders. */
function snippetBody(s: JS, resolve: (s: JS) => JS, tab = { n: 0 }): JS {
  const ph = (name: string) => `\${${++tab.n}:${name}}`;
  const props = (s.properties ?? {}) as Record<string, JS>;
  const body: JS = {};
  for (const k of (s.required ?? []) as string[]) {
    const p = resolve(props[k] ?? {});
    if (typeof p.const === 'string') body[k] = p.const;
    else if (Array.isArray(p.enum) && p.enum.length) body[k] = p.enum[0];
    else if (p.type === 'string') body[k] = ph(k);
    else if (p.type === 'integer' || p.type === 'number') body[k] = 0;
    else if (p.type === 'array') body[k] = [];
    else if (p.type === 'boolean') body[k] = false;
    else if (p.anyOf || p.oneOf) {
      const first = ((p.oneOf ?? p.anyOf) as JS[]).map(resolve).find(b => b.type === 'object' || b.type === 'string');
      body[k] = first?.type === 'object' ? snippetBody(first, resolve, tab) : ph(k);
    } else if (p.type === 'object') body[k] = snippetBody(p, resolve, tab);
    else body[k] = ph(k);
  }
  return body;
}

/**
 * The templates completion offers in request files (templates.ts): one per content block type and per
 * built-in tool (the newest version of each), generated from the zod schema; messages, a custom tool and
 * system blocks written here. `pw-<name>`; dist/templates.json at build time.
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
    const type = branchType(b, s => s);
    if (!type) continue;
    const description = typeof b.description === 'string' ? b.description : `${type} content block`;
    out.push({ name: `pw-${type}`, slot: 'content', description, body: snippetBody(b, s => s) });
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
