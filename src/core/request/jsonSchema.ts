// The JSON Schema the editor uses for completion and hover, generated from the zod schemas at build time
// (esbuild.mjs writes dist/request.schema.json); never kept by hand.
//
// It is made NON-VALIDATING on purpose: Promptwright's own diagnostics are the only ones, so the JSON and
// YAML language services must not add duplicate or contradicting errors next to them. Every keyword that
// can fail (type, required, additionalProperties, enum, const, bounds, oneOf) is removed or turned into a
// completion hint (`examples`); unions picked by `type` become `if {type: const} then {branch}`, which
// never fails and still gives per-type completion and hover. A unit test checks this property.
import * as z from 'zod/mini';
import { ContentBlock, RequestBody } from './schema';

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

export function requestJsonSchema(): JS {
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
  const out = soften(raw, resolve) as JS;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'promptwright-request',
    title: 'Promptwright message request (body of POST /v1/messages)',
    ...out,
  };
}

/** Another generated schema made non-validating the same way (the case files'); it must have no `$ref`. */
export function softenJsonSchema(raw: JS): JS {
  return soften(raw, s => s) as JS;
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

/** Editor snippets, one per content block type, generated from the same zod schema (prefix `pw-<type>`). */
export function contentBlockSnippets(
  format: 'json' | 'yaml',
): Record<string, { prefix: string; description: string; body: string[] }> {
  const raw = z.toJSONSchema(ContentBlock, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as JS;
  const branches = (raw.oneOf ?? raw.anyOf ?? []) as JS[];
  const out: Record<string, { prefix: string; description: string; body: string[] }> = {};
  const id = (s: JS) => s;
  for (const b of branches) {
    const type = branchType(b, id);
    if (!type) continue;
    const body = snippetBody(b, id);
    const text = format === 'json' ? JSON.stringify(body, null, 2) : yamlBlock(body);
    out[`Promptwright: ${type} block`] = {
      prefix: `pw-${type}`,
      description: typeof b.description === 'string' ? b.description : `${type} content block`,
      body: text.split('\n'),
    };
  }
  return out;
}

function yamlBlock(body: JS): string {
  const lines = Object.entries(body).map(
    ([k, v]) => `${k}: ${typeof v === 'string' ? (v.startsWith('$') ? v : JSON.stringify(v)) : JSON.stringify(v)}`,
  );
  return lines.map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)).join('\n');
}
