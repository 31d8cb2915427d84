// Generated test cases: the prompt built from a request (placeholders, system prompt, tools and turns), the
// answer's strict schema (checked by our own validator, as the service's compiler would take it), and the answer
// read as cases: short, long, malformed, clashing names, duplicate values, values that do not fit, rubrics.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { answerJson } from '../../../src/core/api/answer';
import { AnswerError } from '../../../src/core/coauthor/answer';
import { casesRequest, withCases } from '../../../src/core/coauthor/coauthor';
import { caseFileText } from '../../../src/core/coauthor/edits';
import {
  casesBody,
  casesPrompt,
  casesSchema,
  readCases,
  type GenerateOptions,
} from '../../../src/core/coauthor/generate';
import { requestParts } from '../../../src/core/coauthor/request';
import type { Message } from '../../../src/core/api/types';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { validateText } from '../../../src/core/request/validate';

const REQUEST = {
  model: 'model-sonnet-4-6',
  max_tokens: 400,
  system: [
    { type: 'text', text: 'You answer customers of {{shop}} in a {{tone}} tone.' },
    { type: 'text', text: 'Never promise a refund.', cache_control: { type: 'ephemeral' } },
  ],
  tools: [
    {
      name: 'lookup_order',
      description: 'Finds an order by its number.',
      input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Question: {{question}}' }] }],
};

const opts = (o: Partial<GenerateOptions> = {}): GenerateOptions => ({ count: 3, rubrics: false, existing: [], ...o });

/** Every object schema in a schema: what the strict compiler takes (all required, no other key, no bound). */
function* objects(s: Record<string, unknown>): Generator<Record<string, unknown>> {
  if (s.type === 'object') yield s;
  for (const v of Object.values((s.properties ?? {}) as Record<string, Record<string, unknown>>)) yield* objects(v);
  if (s.items) yield* objects(s.items as Record<string, unknown>);
}

const reply = (text: string, stop = 'end_turn'): Message => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'model-sonnet-4-6',
  content: [{ type: 'text', text }],
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 20 },
});

const PLACEHOLDERS = ['shop', 'tone', 'question'];
const item = (name: string, question: string, extra: Record<string, unknown> = {}) => ({
  name,
  vars: { shop: 'Acme', tone: 'formal', question },
  ...extra,
});

describe('generated test cases', () => {
  describe('the prompt and the request', () => {
    it('shows the system prompt, the tools, the turns and every placeholder, and asks for N cases', () => {
      const parts = requestParts(REQUEST);
      assert.deepEqual(parts.placeholders, PLACEHOLDERS);
      const prompt = casesPrompt(parts, opts({ count: 7 }));
      assert.match(prompt, /<system_prompt>\nYou answer customers of \{\{shop\}\} in a \{\{tone\}\} tone\./);
      assert.match(prompt, /Never promise a refund\./);
      assert.match(prompt, /<tools>\n- lookup_order: Finds an order by its number\.\n {2}input_schema: \{"type"/);
      assert.match(prompt, /<turns>\nuser: Question: \{\{question\}\}\n<\/turns>/);
      assert.match(prompt, /Write 7 test cases for this prompt/);
      assert.match(prompt, /\(\{\{shop\}\}, \{\{tone\}\}, \{\{question\}\}\)/);
      assert.match(prompt, /typical, edge, adversarial and other languages/);
      assert.doesNotMatch(prompt, /rubric|existing_cases/);
    });
    it('with rubrics asks for one or two per case; with existing cases, shows them so others are written', () => {
      const existing = [{ name: 'refund', vars: { question: 'Can I get my money back?' } }];
      const prompt = casesPrompt(requestParts(REQUEST), opts({ rubrics: true, existing }));
      assert.match(prompt, /one or two rubrics/);
      assert.match(
        prompt,
        /<existing_cases>\n- refund: \{"question":"Can I get my money back\?"\}\n<\/existing_cases>/,
      );
      assert.match(prompt, /differs from the existing cases/);
    });
    it("the schema: a case's name and a text for every placeholder; strict (all required, no other, no bound)", () => {
      for (const rubrics of [false, true]) {
        const schema = casesSchema(PLACEHOLDERS, rubrics);
        const all = [...objects(schema)];
        assert.equal(all.length, 3);
        for (const o of all) {
          assert.equal(o.additionalProperties, false);
          assert.deepEqual(o.required, Object.keys(o.properties as object));
        }
        assert.doesNotMatch(JSON.stringify(schema), /minimum|maximum|minItems|maxItems|minLength|maxLength/);
        const caseItem = (schema.properties as { cases: { items: { properties: Record<string, unknown> } } }).cases
          .items;
        assert.deepEqual(Object.keys(caseItem.properties), rubrics ? ['name', 'vars', 'rubrics'] : ['name', 'vars']);
      }
    });
    it('the request body passes our own check with no problem at all (strict-schema rules included)', () => {
      for (const rubrics of [false, true]) {
        const body = casesBody('model-sonnet-4-6', requestParts(REQUEST), opts({ count: 50, rubrics }));
        assert.deepEqual(validateText(JSON.stringify(body, null, 2), 'json').problems, []);
        assert.deepEqual(Object.keys(body), ['model', 'max_tokens', 'system', 'messages', 'output_config']);
        assert.equal((body.output_config as { format: { type: string } }).format.type, 'json_schema');
      }
    });
    it('refuses a request without placeholders, saying what to do; the model: the given or the request’s', () => {
      const file = (body: object) => ({
        name: 'hello.prompt.json',
        text: JSON.stringify(body),
        format: 'json' as const,
      });
      const plain = { model: 'model-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
      assert.throws(
        () => casesRequest(file(plain), opts()),
        /hello\.prompt\.json has no \{\{placeholders\}\}: add a `\{\{name\}\}` where cases should differ/,
      );
      assert.equal(casesRequest(file(REQUEST), opts()).body.model, 'model-sonnet-4-6');
      assert.equal(casesRequest(file(REQUEST), { ...opts(), model: 'model-haiku-4-5' }).body.model, 'model-haiku-4-5');
      const { model: _m, ...noModel } = REQUEST;
      assert.throws(() => casesRequest(file(noModel), opts()), /has no "model": say which model writes \(--model M\)/);
      assert.throws(() => casesRequest(file(REQUEST), opts({ count: 0 })), /from 1 to 50/);
    });
  });

  describe('reading the answer', () => {
    it('a malformed answer is an error with its reason, never cases', () => {
      assert.deepEqual(answerJson(reply('Here are some ideas!')), {
        problem: 'the model\'s answer is not JSON: "Here are some ideas!"',
      });
      assert.match((answerJson(reply('{"cases": [', 'max_tokens')) as { problem: string }).problem, /cut off/);
      assert.match((answerJson(reply('', 'refusal')) as { problem: string }).problem, /refused/);
      assert.match((answerJson(reply('[1, 2]')) as { problem: string }).problem, /not the object asked for/);
      assert.throws(
        () => readCases({ items: [] }, PLACEHOLDERS, opts(), 'req_1'),
        (e: unknown) => {
          assert.ok(e instanceof AnswerError);
          assert.equal(e.message, 'the answer has no "cases" list (request-id req_1)');
          return true;
        },
      );
      assert.throws(() => readCases({ cases: [] }, PLACEHOLDERS, opts()), /no usable case in the answer/);
    });
    it('a short answer is said plainly; a long one is cut to N, and says so', () => {
      const short = readCases({ cases: [item('a', 'one'), item('b', 'two')] }, PLACEHOLDERS, opts({ count: 5 }));
      assert.deepEqual(
        short.cases.map(c => c.name),
        ['a', 'b'],
      );
      assert.deepEqual(short.notes, ['2 cases of the 5 asked for']);
      const many = Array.from({ length: 8 }, (_, i) => item(`case ${i}`, `question ${i}`));
      const long = readCases({ cases: many }, PLACEHOLDERS, opts({ count: 5 }));
      assert.equal(long.cases.length, 5);
      assert.deepEqual(long.notes, ['the model gave 8 usable cases: the first 5 are kept']);
    });
    it('a name another case has gets a suffix; the same values as another case are dropped and said', () => {
      const existing = [{ name: 'refund', vars: { shop: 'Acme', tone: 'formal', question: 'old' } }];
      const r = readCases(
        { cases: [item('refund', 'new'), item('refund', 'newer'), item('again', 'old'), item('x', 'new')] },
        PLACEHOLDERS,
        opts({ count: 5, existing }),
      );
      assert.deepEqual(
        r.cases.map(c => c.name),
        ['refund (2)', 'refund (3)'],
      );
      assert.deepEqual(r.notes, [
        'case "refund" is named "refund (2)": another case has that name',
        'case "refund" is named "refund (3)": another case has that name',
        '2 cases dropped: case "again" has the same values as another case; ' +
          'case "x" has the same values as another case',
        '2 cases of the 5 asked for',
      ]);
    });
    it('values that do not fit are dropped and said: a missing placeholder, no name, an unknown key', () => {
      const r = readCases(
        {
          cases: [
            { name: 'no tone', vars: { shop: 'Acme', question: 'q' } },
            { name: ' ', vars: { shop: 'Acme', tone: 't', question: 'q' } },
            'a string',
            item('extra', 'q2', { vars: { shop: 'Acme', tone: 't', question: 'q2', mood: 'x' } }),
            item('numbers', 'q3', { vars: { shop: 7, tone: true, question: 'q3' } }),
          ],
        },
        PLACEHOLDERS,
        opts({ count: 2 }),
      );
      assert.deepEqual(r.cases, [
        { name: 'extra', vars: { shop: 'Acme', tone: 't', question: 'q2' } },
        { name: 'numbers', vars: { shop: '7', tone: 'true', question: 'q3' } },
      ]);
      assert.deepEqual(r.notes, [
        'case "extra": values for mood dropped (no such placeholder)',
        '3 cases dropped: case "no tone" gives no text for {{tone}}; case 2 has no name; case 3 is not an object',
      ]);
    });
    it('rubrics become rubric assertions, at most two, and a case without one is said', () => {
      const r = readCases(
        {
          cases: [
            item('a', 'one', { rubrics: ['Polite', ' Says "thanks" ', 'Third', 'Polite'] }),
            item('b', 'two', { rubrics: [] }),
          ],
        },
        PLACEHOLDERS,
        opts({ count: 2, rubrics: true }),
      );
      assert.deepEqual(r.cases[0]!.assert, [{ rubric: 'Polite' }, { rubric: 'Says "thanks"' }]);
      assert.equal(r.cases[1]!.assert, undefined);
      assert.deepEqual(r.notes, ['case "b" came with no rubric']);
      assert.equal(
        readCases({ cases: [item('a', 'x', { rubrics: ['R'] })] }, PLACEHOLDERS, opts({ count: 1 })).cases[0]!.assert,
        undefined,
      );
    });
    it('the cases make a case file that passes the case-file check (YAML and JSON)', () => {
      const r = readCases(
        { cases: [item('a: colon', '#hash'), item('b', 'it\'s "quoted"\nand two lines')] },
        PLACEHOLDERS,
        opts(),
      );
      for (const format of ['yaml', 'json'] as const) {
        const text = caseFileText('support.prompt.yaml', r.cases, format, 'model-sonnet-4-6');
        const parsed = parseCaseFile(text, format);
        // cases without rubrics have no assertion yet: a warning each, and nothing else
        assert.deepEqual([...new Set(parsed.problems.map(p => p.code))], ['case-without-assertions']);
        assert.deepEqual(parsed.file?.cases, r.cases);
        assert.equal(parsed.file?.request, 'support.prompt.yaml');
      }
    });
    it('appended to a case file: its errors may stay, but a new one writes nothing', () => {
      // a repository (a case file names only files inside its own), for a new case file in a folder of it
      const w = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pw-generate-')));
      fs.mkdirSync(path.join(w, '.git'));
      try {
        const request = { abs: path.join(w, 'support.prompt.json'), text: JSON.stringify(REQUEST) };
        const existing = 'request: support.prompt.json\ncases:\n  - name: old # no values: an error already\n';
        const target = { abs: path.join(w, 'support.cases.yaml'), format: 'yaml' as const, text: existing };
        const ok = readCases({ cases: [item('new', 'q')] }, PLACEHOLDERS, opts()).cases;
        const { text, edit } = withCases(target, request, ok, { model: 'm' });
        assert.equal(
          text,
          `${existing}  - name: new\n    vars:\n      shop: Acme\n      tone: formal\n      question: q\n`,
        );
        assert.deepEqual(edit, { start: existing.length, end: existing.length, newText: text.slice(existing.length) });
        const lacking = [{ name: 'lacking', vars: { shop: 'Acme', tone: 'formal' } }];
        assert.throws(
          () => withCases(target, request, lacking, { model: 'm', requestId: 'req_2' }),
          /^AnswerError: the cases would not pass the case-file check \(undefined-placeholder: .*"lacking".*\): nothing written \(request-id req_2\)$/,
        );
        const fresh = withCases({ abs: path.join(w, 'cases', 'new.cases.json'), format: 'json' }, request, ok, {
          model: 'm',
        });
        assert.equal((JSON.parse(fresh.text) as { request: string }).request, '../support.prompt.json');
      } finally {
        fs.rmSync(w, { recursive: true, force: true });
      }
    });
  });
});
