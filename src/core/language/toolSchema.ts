// The JSON Schema other tools validate with (`promptwright schema`): a YAML or JSON language server in any editor,
// a `$schema` in the file, SchemaStore. Generated from the zod schemas the editors' completion reads, and
// validating: types, `required` lists, enums and bounds stay, so a tool that knows only JSON Schema still says
// what the service would refuse. Two things differ from zod's own output, both so that such a tool never says
// more than Promptwright does:
// - no `additionalProperties: false`: an unknown field is a warning in Promptwright (the service documents more
//   than the spec), and a JSON Schema has no warnings;
// - a union picked by `type` is `if type == T then branch`, with the types as an enum: one clear error (the type
//   is not one of …, or what is wrong inside that branch), never "matches none of the alternatives".
import * as z from 'zod/mini';
import { CaseFileSchema } from '../cases/caseFile';
import { CountTokensBody, RequestBody } from '../request/schema';

type JS = Record<string, unknown>;

/** What a schema describes: a request for one of the two endpoints, or a case file. */
export type SchemaKind = 'messages' | 'count_tokens' | 'cases';

const TITLES: Record<SchemaKind, string> = {
  messages: 'Promptwright message request (body of POST /v1/messages)',
  count_tokens: 'Promptwright token count request (body of POST /v1/messages/count_tokens)',
  cases: 'Promptwright case file (*.cases.yaml, *.cases.json)',
};

export function toolJsonSchema(kind: SchemaKind): JS {
  const schema = kind === 'cases' ? CaseFileSchema : kind === 'count_tokens' ? CountTokensBody : RequestBody;
  const raw = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'ref', target: 'draft-7' }) as JS;
  const defs = (raw.definitions ?? {}) as Record<string, JS>;
  const resolve = (s: JS): JS => (typeof s.$ref === 'string' ? (defs[s.$ref.split('/').pop()!] ?? s) : s);
  const { $schema: _drop, ...rest } = open(raw, resolve) as JS;
  // a case file's cases are listed, or a dataset's rows (or both): what zod's shape cannot say
  const casesOrRows = kind === 'cases' ? { anyOf: [{ required: ['cases'] }, { required: ['dataset'] }] } : {};
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: TITLES[kind], ...rest, ...casesOrRows };
}

/** The `type` constant of an object branch, if it has one, and whether the branch requires it. */
function branchType(s: JS, resolve: (s: JS) => JS): { type: string; required: boolean } | undefined {
  const b = resolve(s);
  const t = ((b.properties ?? {}) as Record<string, JS>).type;
  const r = t && resolve(t);
  if (!r) return undefined;
  const one: unknown =
    typeof r.const === 'string' ? r.const : Array.isArray(r.enum) && r.enum.length === 1 ? r.enum[0] : undefined;
  const required = Array.isArray(b.required) && b.required.includes('type');
  return typeof one === 'string' ? { type: one, required } : undefined;
}

/**
 * Branches an object without `type` is read as: a tool without `type` (or with `null`) is a custom tool, by the
 * transform in front of schema.ts's tool union, which a JSON Schema cannot show.
 */
const DEFAULT_BRANCHES = new Set(['custom']);

/** A branch an object without `type` is read as: `type` may be left out. */
function typeOptional(branch: JS): JS {
  const required = Array.isArray(branch.required) ? branch.required.filter(r => r !== 'type') : undefined;
  return { ...branch, ...(required ? { required } : {}) };
}

/** Markdown in a description: code spans and emphasis. */
const MARKDOWN = /`|\*\*/;

function open(node: unknown, resolve: (s: JS) => JS): unknown {
  if (Array.isArray(node)) return node.map(n => open(n, resolve));
  if (node === null || typeof node !== 'object') return node;
  const s = node as JS;
  const union = (s.oneOf ?? s.anyOf) as JS[] | undefined;
  const branches = union?.map(b => branchType(b, resolve));
  if (union && branches && branches.length > 1 && branches.every(t => t !== undefined)) {
    // a branch whose `type` may be left out (a custom tool) is also the one an object without a type is
    const untyped = branches.findIndex(b => !b.required || DEFAULT_BRANCHES.has(b.type));
    const typed = (i: number) => ({ properties: { type: { const: branches[i]!.type } }, required: ['type'] });
    const absent = { not: { required: ['type'] } };
    return {
      ...(typeof s.description === 'string' ? describe(s.description) : {}),
      type: 'object',
      ...(untyped < 0 ? { required: ['type'] } : {}),
      properties: { type: { enum: branches.map(b => b.type) } },
      allOf: union.map((b, i) => ({
        if: i === untyped ? { anyOf: [typed(i), absent] } : typed(i),
        then: i === untyped ? typeOptional(open(resolve(b), resolve) as JS) : open(b, resolve),
      })),
    };
  }
  const out: JS = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'additionalProperties' && v === false) continue;
    if (k === 'description' && typeof v === 'string') Object.assign(out, describe(v));
    // maps whose keys are names, not keywords: a property called `type` or `required` stays as it is
    else if (k === 'definitions' || k === 'properties')
      out[k] = Object.fromEntries(Object.entries(v as JS).map(([n, d]) => [n, open(d, resolve)]));
    else if (k === 'examples' || k === 'default' || k === 'const' || k === 'enum') out[k] = v;
    else out[k] = open(v, resolve);
  }
  return out;
}

/** A description, and its Markdown (rendered by the language services that read `markdownDescription`). */
function describe(text: string): JS {
  return MARKDOWN.test(text)
    ? { description: text.replace(/`|\*\*/g, ''), markdownDescription: text }
    : { description: text };
}
