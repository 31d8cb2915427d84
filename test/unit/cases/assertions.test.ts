// The assertion engine: every kind passes and fails with a message that says what was expected and what
// came; a failed request fails every assertion with the failure as the reason.
import * as assert from 'node:assert/strict';
import { evaluate, replyText, totalInputTokens } from '../../../src/core/cases/assertions';
import { PATTERN_TIME_LIMIT_MS } from '../../../src/core/cases/regex';
import type { Assertion, Outcome } from '../../../src/core/cases/types';
import type { Message } from '../../../src/core/api/types';

function outcome(text: string, extra: Partial<Outcome> = {}, blocks: Message['content'] = []): Outcome {
  const message: Message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [{ type: 'text', text }, ...blocks],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 50, cache_creation_input_tokens: 0 },
  };
  return {
    message,
    text,
    usage: message.usage,
    stopReason: 'end_turn',
    latencyMs: 1234.4,
    requestId: 'req_1',
    ...extra,
  };
}

/** [pass, message] of one assertion. */
function one(a: Assertion, o: Outcome): [boolean, string] {
  const [r] = evaluate([a], o);
  return [r!.pass, r!.message];
}

const LONG = `Bonjour ! Oui, vous pouvez être remboursé sous 30 jours. ${'Merci. '.repeat(20)}`;

describe('cases: assertions', () => {
  it('contains', () => {
    assert.deepEqual(one({ contains: 'rembours' }, outcome(LONG)), [
      true,
      'contains "rembours": found at character 33',
    ]);
    const [pass, message] = one({ contains: 'refund' }, outcome(LONG));
    assert.equal(pass, false);
    assert.equal(
      message,
      `contains "refund": not found in the reply (first 80 characters: ${JSON.stringify(`${LONG.slice(0, 80)}…`)})`,
    );
    assert.equal(one({ contains: 'x' }, outcome(''))[1], 'contains "x": not found in the reply (the reply is empty)');
  });
  it('icontains', () => {
    assert.equal(one({ icontains: 'REMBOURS' }, outcome(LONG))[0], true);
    assert.deepEqual(one({ icontains: 'REFUND' }, outcome('short')), [
      false,
      'icontains "REFUND": not found in the reply (the reply: "short")',
    ]);
  });
  it('not-contains', () => {
    assert.deepEqual(one({ 'not-contains': 'sorry' }, outcome(LONG)), [true, 'not-contains "sorry": not in the reply']);
    assert.deepEqual(one({ 'not-contains': 'Oui' }, outcome(LONG)), [
      false,
      'not-contains "Oui": found at character 11 of the reply ("Bonjour ! Oui, vous pouvez être r…")',
    ]);
  });
  it('regex, bare and as a literal with flags', () => {
    assert.deepEqual(one({ regex: '^Bonjour' }, outcome(LONG)), [true, 'regex /^Bonjour/: matched "Bonjour"']);
    assert.equal(one({ regex: '/^bonjour/i' }, outcome(LONG))[0], true);
    assert.equal(one({ regex: '/^bonjour/g' }, outcome(LONG))[0], false, 'no i flag: no match');
    assert.deepEqual(one({ regex: '^Hello' }, outcome('Bonjour')), [
      false,
      'regex /^Hello/: no match in the reply (the reply: "Bonjour")',
    ]);
  });
  it('regex: JavaScript semantics (named groups, lookbehind, the u and s flags), as in any JavaScript code', () => {
    assert.deepEqual(one({ regex: '/(?<year>\\d{4})-(?<month>\\d{2})/u' }, outcome('le 2024-05')), [
      true,
      'regex /(?<year>\\d{4})-(?<month>\\d{2})/u: matched "2024-05"',
    ]);
    assert.equal(one({ regex: '(?<=€)\\d+' }, outcome('prix : €42'))[1], 'regex /(?<=€)\\d+/: matched "42"');
    assert.equal(one({ regex: '/^a.b$/s' }, outcome('a\nb'))[0], true);
    assert.equal(one({ regex: '/^\\p{Lu}/u' }, outcome('Élan'))[0], true);
  });
  it('regex: a pattern that backtracks without end is stopped at its time limit, the sample an error', function () {
    this.timeout(10_000);
    const t0 = Date.now();
    const [timedOut, other] = evaluate([{ regex: '^.*"(a+)+!' }, { contains: 'aaa' }], outcome(`"${'a'.repeat(34)}`));
    const ms = Date.now() - t0;
    assert.ok(ms >= PATTERN_TIME_LIMIT_MS && ms < PATTERN_TIME_LIMIT_MS + 3000, `took ${ms} ms`);
    assert.equal(timedOut!.pass, false);
    assert.equal(timedOut!.error?.type, 'pattern_timeout');
    assert.equal(
      timedOut!.message,
      'regex /^.*"(a+)+!/: could not be checked: The regex /^.*"(a+)+!/ ran for more than 1,000 ms on a reply of ' +
        '35 characters and was stopped: a pattern with nested repetition, such as (a+)+, can take exponential ' +
        'time. Simplify the pattern.',
    );
    assert.equal(timedOut!.error?.message, timedOut!.message);
    assert.equal(other!.pass, true, 'the other assertions still say what they found');
    // the next pattern runs as usual: nothing is left of the one that was stopped
    assert.equal(one({ regex: 'a+' }, outcome('baaa'))[1], 'regex /a+/: matched "aaa"');
  });
  it('equals', () => {
    assert.deepEqual(one({ equals: 'exact' }, outcome('exact')), [true, 'equals "exact": the reply is exactly that']);
    assert.deepEqual(one({ equals: 'exact reply' }, outcome('exact replay')), [
      false,
      'equals "exact reply": differs at character 11: expected "exact reply", the reply has "exact replay" ' +
        '(reply of 12 characters)',
    ]);
    assert.match(one({ equals: 'exact' }, outcome('exact, and more'))[1], /the expected text ends there/);
    assert.match(one({ equals: 'exact, and more' }, outcome('exact'))[1], /the reply ends there/);
  });
  it('stop_reason', () => {
    assert.deepEqual(one({ stop_reason: 'end_turn' }, outcome('x')), [
      true,
      'stop_reason end_turn: stop_reason was end_turn',
    ]);
    assert.deepEqual(one({ stop_reason: 'tool_use' }, outcome('x')), [
      false,
      'stop_reason tool_use: stop_reason was end_turn',
    ]);
  });
  it('max-output-tokens', () => {
    assert.deepEqual(one({ 'max-output-tokens': 20 }, outcome('x')), [
      true,
      'max-output-tokens 20: 20 output tokens (at most 20)',
    ]);
    assert.deepEqual(one({ 'max-output-tokens': 19 }, outcome('x')), [
      false,
      'max-output-tokens 19: 20 output tokens, over 19',
    ]);
    assert.deepEqual(one({ 'max-output-tokens': 19 }, { text: 'x' }), [
      false,
      'max-output-tokens 19: the reply has no usage',
    ]);
  });
  it('max-input-tokens counts the cached input too (the spec’s total)', () => {
    assert.equal(
      totalInputTokens({ input_tokens: 100, cache_read_input_tokens: 50, cache_creation_input_tokens: null }),
      150,
    );
    assert.deepEqual(one({ 'max-input-tokens': 150 }, outcome('x')), [
      true,
      'max-input-tokens 150: 150 input tokens (at most 150)',
    ]);
    assert.deepEqual(one({ 'max-input-tokens': 120 }, outcome('x')), [
      false,
      'max-input-tokens 120: 150 input tokens, over 120',
    ]);
  });
  it('max-latency-ms', () => {
    assert.deepEqual(one({ 'max-latency-ms': 2000 }, outcome('x')), [
      true,
      'max-latency-ms 2000: 1234 ms (at most 2000)',
    ]);
    assert.deepEqual(one({ 'max-latency-ms': 1000 }, outcome('x')), [false, 'max-latency-ms 1000: 1234 ms, over 1000']);
  });
  it('json-schema: the reply parses as JSON and validates; a fenced block is read from inside', () => {
    const schema = { type: 'object', required: ['answer'], properties: { answer: { type: 'string' } } };
    assert.deepEqual(one({ 'json-schema': schema }, outcome('{"answer": "yes"}')), [
      true,
      'json-schema: the reply is JSON that validates',
    ]);
    assert.deepEqual(one({ 'json-schema': schema }, outcome('```json\n{"answer": "yes"}\n```')), [
      true,
      'json-schema: the reply is JSON that validates (read from its ```json fence)',
    ]);
    assert.deepEqual(one({ 'json-schema': schema }, outcome('{"answer": 3, "n": 1}')), [
      false,
      'json-schema: the reply is JSON that does not validate: ' +
        '/answer: Instance type "number" is invalid. Expected "string".',
    ]);
    assert.match(
      one({ 'json-schema': schema }, outcome('{}'))[1],
      /\(root\): Instance does not have required property "answer"/,
    );
    assert.match(
      one({ 'json-schema': schema }, outcome('Sure! {"answer": 1}'))[1],
      /^json-schema: the reply is not JSON \(.*the reply: "Sure!/,
    );
  });
  it("json-schema: the schema's pattern and patternProperties run with the same time limit", function () {
    this.timeout(10_000);
    // 40 `a`: `(a|aa)+` alone took ~1 s on 34 here, so a fast machine could finish under the limit
    const evil = `${'a'.repeat(40)}!`;
    const byPattern = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } };
    const byKey = { type: 'object', patternProperties: { '^(a|aa)+$': { type: 'number' } } };
    for (const [schema, reply] of [
      [byPattern, JSON.stringify({ a: evil })],
      [byKey, JSON.stringify({ [evil]: 1 })],
    ] as const) {
      const t0 = Date.now();
      const [r] = evaluate([{ 'json-schema': schema }], outcome(reply));
      assert.ok(Date.now() - t0 < PATTERN_TIME_LIMIT_MS + 3000, `took ${Date.now() - t0} ms`);
      assert.equal(r!.error?.type, 'pattern_timeout');
      assert.match(
        r!.message,
        /^json-schema: could not be checked: Validating the reply against the schema \(its patterns: \/\^\(a/,
      );
      assert.match(r!.message, /ran for more than 1,000 ms on a reply of 4\d characters/);
    }
    // and a pattern that is quick still decides
    assert.equal(one({ 'json-schema': byPattern }, outcome('{"a": "aaab"}'))[0], false);
    assert.equal(one({ 'json-schema': byPattern }, outcome('{"a": "aaa"}'))[0], true);
  });
  it('json-schema: a draft named by $schema, and a schema that cannot be used fails alone', () => {
    const draft4 = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { n: { maximum: 3, exclusiveMaximum: true } },
    };
    assert.equal(one({ 'json-schema': draft4 }, outcome('{"n": 3}'))[0], false);
    assert.equal(one({ 'json-schema': draft4 }, outcome('{"n": 2}'))[0], true);
    const results = evaluate([{ 'json-schema': { $ref: '#/nowhere' } }, { contains: '1' }], outcome('1'));
    assert.deepEqual(
      results.map(r => r.pass),
      [false, true],
    );
    assert.match(results[0]!.message, /^json-schema: could not be checked: Unresolved \$ref/);
  });
  it('tool-call: a tool_use (or server_tool_use) block of that name', () => {
    const withTool = outcome('Let me check.', { stopReason: 'tool_use' }, [
      { type: 'tool_use', id: 't1', name: 'get_weather', input: {} },
      { type: 'server_tool_use', id: 't2', name: 'web_search', input: {} },
    ]);
    assert.deepEqual(one({ 'tool-call': 'get_weather' }, withTool), [
      true,
      'tool-call get_weather: the reply calls get_weather',
    ]);
    assert.equal(one({ 'tool-call': 'web_search' }, withTool)[0], true);
    assert.deepEqual(one({ 'tool-call': 'lookup' }, withTool), [
      false,
      'tool-call lookup: the reply calls get_weather, web_search instead',
    ]);
    assert.deepEqual(one({ 'tool-call': 'lookup' }, outcome('x')), [
      false,
      'tool-call lookup: the reply calls no tool',
    ]);
  });
  it('a failure that compares carries both sides in full (the Test Explorer shows them as a diff)', () => {
    const o = outcome(LONG);
    const [regex, equals, contains, stop, tokens, tool, notContains, pass] = evaluate(
      [
        { regex: '^Hello' },
        { equals: 'Bonjour !' },
        { contains: 'refund' },
        { stop_reason: 'tool_use' },
        { 'max-output-tokens': 10 },
        { 'tool-call': 'get_weather' },
        { 'not-contains': 'Merci' },
        { contains: 'rembours' },
      ],
      o,
    );
    assert.deepEqual([regex!.expected, regex!.actual], ['/^Hello/', LONG]);
    assert.deepEqual([equals!.expected, equals!.actual], ['Bonjour !', LONG]);
    assert.deepEqual([contains!.expected, contains!.actual], ['refund', LONG]);
    assert.deepEqual([stop!.expected, stop!.actual], ['tool_use', 'end_turn']);
    assert.deepEqual([tokens!.expected, tokens!.actual], ['at most 10 output tokens', '20 output tokens']);
    assert.deepEqual([tool!.expected, tool!.actual], ['get_weather', '']);
    // no two texts to compare, and nothing on a pass
    assert.equal(notContains!.expected, undefined);
    assert.ok(pass!.pass);
    assert.deepEqual(Object.keys(pass!).sort(), ['message', 'pass', 'type']);
    const [schema] = evaluate([{ 'json-schema': { type: 'object' } }], outcome('not json'));
    assert.deepEqual([JSON.parse(schema!.expected!), schema!.actual], [{ type: 'object' }, 'not json']);
  });

  it('a failed request fails every assertion, with the failure as the reason', () => {
    const failed: Outcome = {
      text: 'partial',
      error: { type: 'overloaded_error', message: 'Overloaded', requestId: 'req_9' },
    };
    const results = evaluate([{ contains: 'partial' }, { 'not-contains': 'x' }], failed);
    assert.deepEqual(results, [
      {
        type: 'contains',
        pass: false,
        message: 'contains "partial": the request failed: overloaded_error: Overloaded (request-id req_9)',
      },
      {
        type: 'not-contains',
        pass: false,
        message: 'not-contains "x": the request failed: overloaded_error: Overloaded (request-id req_9)',
      },
    ]);
  });
  it('one result per assertion, in order; replyText joins the text blocks only', () => {
    const o = outcome('a');
    assert.deepEqual(
      evaluate([{ contains: 'a' }, { contains: 'b' }, { contains: 'a' }], o).map(r => r.pass),
      [true, false, true],
    );
    assert.equal(
      replyText({
        ...o.message!,
        content: [
          { type: 'text', text: 'one ' },
          { type: 'tool_use', name: 'x' },
          { type: 'text', text: 'two' },
        ],
      }),
      'one two',
    );
    assert.equal(replyText(undefined), '');
  });
});
