// The schema walk answers what zod's safeParse answers: the same issues, messages and paths, in the same order,
// on every body the project holds (both corpora, the examples, RULES.md's examples) and on random damage done
// to them (fields removed, nulled, retyped, renamed, unknown ones added, blocks of another type).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import * as z from 'zod/mini';
import { CaseFileSchema } from '../../../src/core/cases/caseFile';
import { parseRequest } from '../../../src/core/request/parse';
import { CountTokensBody, RequestBody } from '../../../src/core/request/schema';
import { schemaIssues } from '../../../src/core/request/schemaCheck';
import { formatOf } from '../../../src/core/fileNames';

type Schema = Parameters<typeof schemaIssues>[0];

/** Every request body of the repository's fixtures, examples and RULES.md, as the parser reads them. */
function bodies(): { name: string; value: unknown }[] {
  const out: { name: string; value: unknown }[] = [];
  const read = (file: string, text = fs.readFileSync(file, 'utf8')) => {
    const { value } = parseRequest(text, formatOf(file));
    if (value !== undefined) out.push({ name: file, value });
  };
  for (const dir of ['test/fixtures/accepted', 'test/fixtures/rejected', 'test/fixtures/workspace', 'examples'])
    for (const f of fs.readdirSync(dir))
      if (/\.(prompt\.)?(json|ya?ml)$/.test(f) && f !== 'manifest.json') read(path.join(dir, f));
  const md = fs.readFileSync('RULES.md', 'utf8');
  let n = 0;
  for (const m of md.matchAll(/^```(json|yaml)\n([\s\S]*?)^```$/gm)) read(`RULES.md example ${++n}.${m[1]}`, m[2]);
  return out;
}

function zodIssues(schema: Schema, value: unknown): unknown[] {
  const r = (schema as typeof RequestBody).safeParse(value, { reportInput: true });
  return r.success ? [] : r.error.issues;
}

function same(schema: Schema, value: unknown, name: string): void {
  assert.deepEqual(schemaIssues(schema, value), zodIssues(schema, value), name);
}

/** Every path to a value inside `v`, the root included. */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

const REPLACEMENTS: unknown[] = [
  null,
  0,
  -1,
  1.5,
  2 ** 60,
  '',
  'x',
  'user',
  'system',
  true,
  [],
  {},
  [{}],
  ['x'],
  { type: 'text' },
  { type: 'text', text: 'hi', colour: 'red' },
  { type: 'bogus' },
  { type: 'ephemeral', ttl: '2h' },
  { role: 'user', content: [{ type: 'image' }] },
];
const TYPES = ['text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'custom', 'enabled', 'base64'];

type Damage = [pick: number, how: number, what: number];

/** `value` with each damage done in turn: at one of its paths, remove, replace, rename or add a field. */
function damage(value: unknown, damages: Damage[]): unknown {
  const v = structuredClone(value);
  for (const [pick, how, what] of damages) {
    const all = paths(v).filter(p => p.length);
    if (!all.length) break;
    const at = all[pick % all.length]!;
    const holder = at.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], v) as Record<
      string | number,
      unknown
    >;
    const key = at[at.length - 1]!;
    switch (how % 5) {
      case 0:
        if (Array.isArray(holder)) holder.splice(key as number, 1);
        else delete holder[key];
        break;
      case 1:
        holder[key] = structuredClone(REPLACEMENTS[what % REPLACEMENTS.length]);
        break;
      case 2:
        if (!Array.isArray(holder)) {
          holder[`${String(key)}s`] = holder[key];
          delete holder[key];
        }
        break;
      case 3:
        if (!Array.isArray(holder)) holder.colour = 'red';
        break;
      default:
        if (key === 'type' || key === 'role') holder[key] = TYPES[what % TYPES.length];
        else holder[key] = what % 2 ? null : String(holder[key]);
    }
  }
  return v;
}

describe('the schema walk (schemaCheck.ts) answers as zod does', function () {
  // hundreds of files checked a test: a second alone, more on a busy machine (the figures of speed are in bench/)
  this.timeout(10_000);
  const all = bodies();
  const schemas: [string, Schema][] = [
    ['RequestBody', RequestBody],
    ['CountTokensBody', CountTokensBody],
  ];

  it('finds the bodies it is compared on', () => {
    assert.ok(all.length > 250, `${all.length} bodies`);
  });

  for (const [name, schema] of schemas) {
    it(`${name}: the same issues on every body of the corpora, the examples and RULES.md`, () => {
      let failing = 0;
      for (const b of all) {
        same(schema, b.value, b.name);
        if (zodIssues(schema, b.value).length) failing++;
      }
      // both kinds are compared: bodies with issues (the rejected corpus, RULES.md) and bodies without
      assert.ok(failing > 20 && failing < all.length, `${failing} of ${all.length} with issues`);
    });

    it(`${name}: the same issues, in the same order, after random damage`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...all),
          fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }),
          (b, damages) => same(schema, damage(b.value, damages), `${b.name} ${JSON.stringify(damages)}`),
        ),
        { numRuns: 1500 },
      );
    });
  }

  it('a case file: the same issues after random damage (another schema, with records and refinements)', () => {
    const { value } = parseRequest(fs.readFileSync('examples/support.cases.yaml', 'utf8'), 'yaml');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 4 }), damages =>
        same(CaseFileSchema as unknown as Schema, damage(value, damages), JSON.stringify(damages)),
      ),
      { numRuns: 500 },
    );
  });

  it('a schema of every kind the walk knows or leaves to zod: the same issues on random values', () => {
    const Synthetic = z.strictObject({
      any: z.unknown(), // required but takes anything: absent, it is "nonoptional"
      text: z.optional(z.string().check(z.minLength(2), z.maxLength(3))),
      count: z.nullish(z.int().check(z.minimum(0))),
      loose: z.looseObject({ flag: z.boolean() }),
      list: z.optional(z.array(z.union([z.string(), z.number()])).check(z.maxLength(2))),
      keyed: z.optional(z.record(z.enum(['p', 'q']), z.number())),
      named: z.optional(z.record(z.string(), z.array(z.literal(1)))),
      dflt: z.optional(z._default(z.string(), 'x')),
      piped: z.optional(
        z.pipe(
          z.string(),
          z.transform((t: string) => t.length),
        ),
      ),
      pick: z.optional(
        z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('one'), v: z.string() }),
          z.strictObject({ kind: z.literal('two') }),
        ]),
      ),
      refined: z.optional(z.object({ m: z.string() }).check(z.refine(o => o.m !== 'no'))),
    });
    const candidates = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('no', 'one', 'two', 'p', 'q', 1, -1, 2.5, true, null, [1], ['a', 2, 'b'], { kind: 'one' }),
      fc.constantFrom({ kind: 'two', v: 'x' }, { m: 'no' }, { m: 'ok' }, { flag: true, more: 1 }, { p: 1, r: 2 }),
    );
    const keys = ['any', 'text', 'count', 'loose', 'list', 'keyed', 'named', 'dflt', 'piped', 'pick', 'refined', 'zz'];
    const value = fc.dictionary(fc.constantFrom(...keys), candidates, { maxKeys: 8 });
    fc.assert(
      fc.property(value, v => same(Synthetic as unknown as Schema, v, JSON.stringify(v))),
      { numRuns: 3000 },
    );
  });

  it('a long valid body has no issues', () => {
    const big = { model: 'model-opus-4-7', max_tokens: 10, messages: [] as object[] };
    for (let i = 0; i < 20_000; i++) big.messages.push({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` });
    assert.deepEqual(schemaIssues(RequestBody, big), []);
    big.messages.push({ role: 'robot', content: 'hi' });
    same(RequestBody, big, 'a long body with one wrong role');
  });
});
