// An improved prompt: which texts are rewritten, the prompt and strict schema that ask for them, the answer
// checked (every text, every placeholder kept, none added), the new texts written into JSON and YAML files with
// every other byte kept, and the whole flow against the fake: nothing but the texts changes, or nothing is offered.
import * as assert from 'node:assert/strict';
import { AnswerError } from '../../../src/core/coauthor/answer';
import { improvePrompt, improvementRequest } from '../../../src/core/coauthor/coauthor';
import { newProblems, replaceTexts } from '../../../src/core/coauthor/edits';
import { improvementPrompt, improvementSchema, readImprovement } from '../../../src/core/coauthor/improve';
import { improvableTexts, requestParts } from '../../../src/core/coauthor/request';
import { parseRequest } from '../../../src/core/request/parse';
import { validateText } from '../../../src/core/request/validate';
import { clientOf, useFake } from '../../support/fake';

const YAML_REQUEST = `# Support prompt: {{question}} is filled by each case.
model: model-sonnet-4-6   # the model
max_tokens: 400
system: >-
  You answer the customers of an online shop, in their language and in a {{tone}} tone. Say which language
  you answered in.
tools:
  - name: get_weather
    description: Current weather for a city.
    input_schema: { type: object, properties: { location: { type: string } }, required: [location] }
    cache_control: { type: ephemeral }
messages:
  - role: user
    content: "{{question}}"   # the case's question
  - role: assistant
    content: 'Sure:'
`;

const JSON_REQUEST = `{
    "model": "model-sonnet-4-6",
    "max_tokens": 400,
    "temperature": 0.2,
    "system": [
        {"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    ],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Summarize: {{document}}"}, {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}]},
        {"role": "assistant", "content": "Here is"},
        {"role": "user", "content": "No placeholder here"}
    ]
}
`;

describe('an improved prompt', () => {
  describe('the texts, the prompt and the schema', () => {
    it('rewrites the system prompt and the user turns that are templates, each with its placeholders', () => {
      const yaml = improvableTexts(parseRequest(YAML_REQUEST, 'yaml').value);
      assert.deepEqual(
        yaml.map(t => [t.id, t.path, t.placeholders]),
        [
          ['system', ['system'], ['tone']],
          ['message_1', ['messages', 0, 'content'], ['question']],
        ],
      );
      const json = improvableTexts(parseRequest(JSON_REQUEST, 'json').value);
      assert.deepEqual(
        json.map(t => [t.id, t.path]),
        [
          ['system', ['system', 0, 'text']],
          ['message_1', ['messages', 0, 'content', 0, 'text']],
        ],
      );
    });
    it('without a system prompt, the first user turn is the prompt', () => {
      const texts = improvableTexts({
        model: 'm',
        messages: [
          { role: 'user', content: 'Write a haiku.' },
          { role: 'assistant', content: 'Ok' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'About {{topic}}' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      });
      assert.deepEqual(
        texts.map(t => t.id),
        ['message_1', 'message_3_block_1'],
      );
    });
    it('the prompt shows the texts by id, the tools, the output format and the goal', () => {
      const value = parseRequest(YAML_REQUEST, 'yaml').value;
      const prompt = improvementPrompt(requestParts(value), improvableTexts(value), 'shorter');
      assert.match(prompt, /^The request is sent to model-sonnet-4-6\./);
      assert.match(prompt, /<tools>\n- get_weather: Current weather for a city\./);
      assert.match(
        prompt,
        /<text id="system">\nYou answer the customers .* \{\{tone\}\} tone\. Say which language you/,
      );
      assert.match(prompt, /<text id="message_1">\n\{\{question\}\}\n<\/text>/);
      assert.match(prompt, /<goal>\nshorter\n<\/goal>/);
      assert.match(prompt, /Keep every \{\{placeholder\}\} of a text in that text, and add no new placeholder\./);
      assert.doesNotMatch(improvementPrompt(requestParts(value), improvableTexts(value), undefined), /<goal>/);
    });
    it('the schema is strict, and the request body passes our own check with no problem', () => {
      const file = { name: 'support.prompt.yaml', text: YAML_REQUEST, format: 'yaml' as const };
      const { body } = improvementRequest(file, { goal: 'shorter' });
      assert.deepEqual(validateText(JSON.stringify(body), 'json').problems, []);
      const schema = improvementSchema(improvableTexts(parseRequest(YAML_REQUEST, 'yaml').value));
      assert.deepEqual(schema.required, ['texts', 'changes']);
      assert.equal(schema.additionalProperties, false);
      const props = schema.properties as Record<string, Record<string, unknown>>;
      assert.deepEqual(props.texts!.required, ['system', 'message_1']);
      assert.equal(props.texts!.additionalProperties, false);
      assert.doesNotMatch(JSON.stringify(schema), /minimum|maximum|minItems|maxItems|minLength|maxLength/);
    });
  });

  describe('the answer', () => {
    const texts = improvableTexts(parseRequest(YAML_REQUEST, 'yaml').value);
    const answer = (system: string, message: string, changes: unknown = []) => ({
      texts: { system, message_1: message },
      changes,
    });
    it('keeps the texts that changed and the changes listed', () => {
      const r = readImprovement(
        answer('Be kind, in a {{tone}} tone.', '{{question}}', [{ change: 'Shorter', reason: 'Less to read' }, {}]),
        texts,
        ['tone', 'question'],
      );
      assert.deepEqual([...r.texts], [['system', 'Be kind, in a {{tone}} tone.']]);
      assert.deepEqual(r.changes, [{ change: 'Shorter', reason: 'Less to read' }]);
    });
    it('a text that drops or adds a placeholder is not offered; a missing text is malformed', () => {
      assert.throws(
        () => readImprovement(answer('Be kind.', '{{question}}'), texts, ['tone', 'question'], 'req_9'),
        (e: unknown) =>
          e instanceof AnswerError &&
          e.message === 'the new text of "system" drops {{tone}}: it is not offered (request-id req_9)',
      );
      assert.throws(
        () => readImprovement(answer('{{tone}} {{mood}}', '{{question}}'), texts, ['tone', 'question']),
        /adds \{\{mood\}\}, which no case fills/,
      );
      // a placeholder the request has elsewhere may move in
      assert.equal(
        readImprovement(answer('{{tone}} {{question}}', '{{question}}'), texts, ['tone', 'question']).texts.size,
        1,
      );
      assert.throws(
        () => readImprovement({ texts: { system: 'x {{tone}}' }, changes: [] }, texts, []),
        /no text for "message_1"/,
      );
      assert.throws(() => readImprovement({ changes: [] }, texts, []), /no "texts" object/);
      assert.throws(() => readImprovement(answer(' ', '{{question}}'), texts, []), /text for "system" is empty/);
    });
  });

  describe('writing the texts back', () => {
    it('JSON: only the string literals change; every other byte stays', () => {
      const out = replaceTexts(JSON_REQUEST, 'json', [
        { path: ['system', 0, 'text'], text: 'You are terse.\nAnswer "briefly".' },
      ]);
      assert.equal(out, JSON_REQUEST.replace('"You are terse."', '"You are terse.\\nAnswer \\"briefly\\"."'));
    });
    it('YAML: a folded block stays folded at its indentation, and a comment beside a quoted value stays', () => {
      const system = 'Answer briefly, in a {{tone}} tone.\n\nSay which language you answered in.';
      const out = replaceTexts(YAML_REQUEST, 'yaml', [
        { path: ['system'], text: system },
        { path: ['messages', 0, 'content'], text: 'Customer: {{question}}' },
      ]);
      assert.equal(
        out,
        YAML_REQUEST.replace(
          /system: >-\n[\s\S]*?\ntools:/,
          'system: >-\n  Answer briefly, in a {{tone}} tone.\n\n\n  Say which language you answered in.\ntools:',
        ).replace('"{{question}}"   #', '"Customer: {{question}}"   #'),
      );
      const v = parseRequest(out, 'yaml').value as { system: string };
      assert.equal(v.system, system);
    });
    it("YAML: a folded block's paragraphs that stay keep their lines; a new one is wrapped to the block's", () => {
      const old = (parseRequest(YAML_REQUEST, 'yaml').value as { system: string }).system;
      const added =
        'Keep every answer short and friendly, never promise a delivery date the shop has not confirmed, and ' +
        'thank the customer.';
      const out = replaceTexts(YAML_REQUEST, 'yaml', [{ path: ['system'], text: `${old}\n${added}` }]);
      assert.ok(out.includes(YAML_REQUEST.slice(YAML_REQUEST.indexOf('system:'), YAML_REQUEST.indexOf('tools:'))));
      const wrapped =
        '  Keep every answer short and friendly, never promise a delivery date the shop has not confirmed, and\n';
      assert.ok(out.includes(`you answered in.\n\n${wrapped}  thank the customer.\ntools:`), out);
    });
    it('YAML: a plain or quoted one-line text that becomes several lines is a literal block under its key', () => {
      const text = "model: m\nmax_tokens: 5\nsystem: Be terse.\nmessages:\n  - role: user\n    content: '{{q}}'\n";
      const out = replaceTexts(text, 'yaml', [
        { path: ['system'], text: 'Be terse.\nAlways.\n' },
        { path: ['messages', 0, 'content'], text: "It's {{q}}" },
      ]);
      assert.equal(
        out,
        'model: m\nmax_tokens: 5\nsystem: |\n  Be terse.\n  Always.\n' +
          "messages:\n  - role: user\n    content: 'It''s {{q}}'\n",
      );
    });
    it('YAML: in a flow collection a text is double-quoted; a text starting with a space too', () => {
      const text = 'model: m\nmax_tokens: 5\nmessages: [{ role: user, content: hi }]\nsystem: |\n  A\n';
      const out = replaceTexts(text, 'yaml', [
        { path: ['messages', 0, 'content'], text: 'two\nlines, {x}' },
        { path: ['system'], text: '  indented\nB\n' },
      ]);
      assert.equal(
        out,
        'model: m\nmax_tokens: 5\nmessages: [{ role: user, content: "two\\nlines, {x}" }]\n' +
          'system: "  indented\\nB\\n"\n',
      );
    });
    it('a path that is not a text of the file throws', () => {
      assert.throws(() => replaceTexts(YAML_REQUEST, 'yaml', [{ path: ['max_tokens'], text: 'x' }]), /not a text/);
      assert.throws(() => replaceTexts(JSON_REQUEST, 'json', [{ path: ['model', 'x'], text: 'x' }]), /not a string/);
    });
    it('the check: a problem the file did not have is found; those it had are not new', () => {
      const before = '{"model": "model-sonnet-4-6", "max_tokens": 5, "messages": [{"role": "users", "content": "a"}]}';
      const after = before.replace('"a"', '"\\ud800"');
      assert.deepEqual(newProblems(before, before, 'json', []), []);
      assert.deepEqual(
        newProblems(before, after, 'json', []).map(p => p.code),
        ['lone-surrogate'],
      );
    });
  });

  describe('against the fake service', () => {
    const fake = useFake();
    const client = () => clientOf(fake);

    it('nothing but the texts changes: every other field, comment and byte stays, and every placeholder', async () => {
      for (const [text, format] of [
        [YAML_REQUEST, 'yaml'],
        [JSON_REQUEST, 'json'],
      ] as const) {
        const r = await improvePrompt(client(), { name: 'f', text, format }, { goal: 'shorter' });
        assert.equal(r.changed, 1);
        // its token delta, counted by the service (two count_tokens calls after the answer)
        assert.ok(r.tokens && r.tokens.after! > r.tokens.before! && r.tokens.delta! > 0, JSON.stringify(r.tokens));
        assert.deepEqual(
          fake.requests.slice(-3).map(q => q.path),
          ['/v1/messages', '/v1/messages/count_tokens', '/v1/messages/count_tokens'],
        );
        assert.deepEqual(r.changes, [
          {
            change: 'Added a closing instruction to "system"',
            reason: 'The goal asks for it ("shorter"), and an instruction said last is the one a model keeps in mind.',
          },
        ]);
        const before = parseRequest(text, format).value as Record<string, unknown>;
        const after = parseRequest(r.text, format).value as Record<string, unknown>;
        const system = (v: Record<string, unknown>) =>
          typeof v.system === 'string' ? v.system : (v.system as { text: string }[])[0]!.text;
        assert.equal(system(after), `${system(before)}\nAbove all: shorter.`);
        const { system: _a, ...restBefore } = before;
        const { system: _b, ...restAfter } = after;
        assert.deepEqual(restAfter, restBefore);
        if (format === 'json')
          assert.deepEqual((after.system as object[])[0], { ...(before.system as object[])[0], text: system(after) });
        const cut = (s: string) => s.slice(s.indexOf('tools:') > 0 ? s.indexOf('tools:') : s.indexOf('"messages"'));
        assert.equal(cut(r.text), cut(text));
        assert.ok(r.text.startsWith(text.slice(0, text.indexOf('system'))));
        assert.equal((fake.requests.at(-1)!.body as { model: string }).model, 'model-sonnet-4-6');
      }
    });
    it('an answer that drops a placeholder, or is not JSON, is an error with its request-id', async () => {
      const drop = YAML_REQUEST.replace('in their language', 'in their language #drop-placeholder');
      await assert.rejects(
        improvePrompt(client(), { name: 'f', text: drop, format: 'yaml' }, {}),
        /the new text of "system" drops \{\{tone\}\}: it is not offered \(request-id req_fake_/,
      );
      const malformed = YAML_REQUEST.replace('in their language', 'in their language #malformed');
      await assert.rejects(
        improvePrompt(client(), { name: 'f', text: malformed, format: 'yaml' }, {}),
        /the model's answer is not JSON: "Here are some ideas for your prompt!" \(request-id req_fake_/,
      );
    });
  });
});
