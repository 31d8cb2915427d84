// Tool-use loops in case files: the keys and their checks at their lines, the assertions on the calls, and the
// engine running a loop cell (core/cases/loops.ts) to the same outcome whoever drives it.
import * as assert from 'node:assert/strict';
import { evaluate } from '../../../src/core/cases/assertions';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { cellToolsOf, directTransport, runCellOf, runCells, type SendJob } from '../../../src/core/cases/engine';
import { withToolLoops } from '../../../src/core/cases/loops';
import { toolsCheck } from '../../../src/core/cases/toolsCheck';
import type { Outcome } from '../../../src/core/cases/types';
import type { Message } from '../../../src/core/api/types';
import { checkCaseText } from '../../../src/core/language/caseCheck';
import { priceTable } from '../../../src/core/cost/prices';
import { AGENT_REQUEST } from '../../fake/toolScripts';

const DEFAULT_PRICES = priceTable();

const REQUEST = { ...AGENT_REQUEST, messages: [{ role: 'user', content: 'Where is order 1234?' }] };

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

describe('cases: tool-use loops', () => {
  describe('the case file', () => {
    const text = [
      'request: agent.prompt.yaml', // 1
      'max-turns: 4', // 2
      'tools:', // 3
      '  lookup_order:', // 4
      '    - when: { order_id: "1234" }', // 5
      '      result: { status: shipped }', // 6
      '    - result: "no such order"', // 7
      '      is_error: true', // 8
      '  get_weather: "Sunny"', // 9
      '  search: { mcp: docs }', // 10
      'mcp-servers:', // 11
      '  docs: { type: stdio, command: node, args: [server.js] }', // 12
      'cases:', // 13
      '  - name: a', // 14
      '    tools: { get_weather: [{ simulate: "a weather API" }] }', // 15
      '    assert:', // 16
      '      - tool-called: { name: lookup_order, input: { order_id: "1234" } }', // 17
      '      - tool-sequence: [lookup_order, get_weather]', // 18
      '      - tool-not-called: send_email', // 19
      '      - max-turns: 3', // 20
      '',
    ].join('\n');

    it('reads every key: max-turns, tools in three forms, mcp-servers, a case’s own tools, the assertions', () => {
      const { file, problems } = parseCaseFile(text, 'yaml');
      assert.deepEqual(problems, []);
      assert.equal(file!.maxTurns, 4);
      assert.deepEqual(file!.tools, {
        lookup_order: [
          { when: { order_id: '1234' }, result: { status: 'shipped' } },
          { result: 'no such order', is_error: true },
        ],
        get_weather: [{ result: 'Sunny' }],
        search: [{ mcp: 'docs' }],
      });
      assert.deepEqual(file!.mcpServers, { docs: { type: 'stdio', command: 'node', args: ['server.js'] } });
      assert.deepEqual(file!.cases[0]!.tools, { get_weather: [{ simulate: 'a weather API' }] });
      assert.equal(file!.cases[0]!.assert!.length, 4);
    });

    it("the panel's fixtures: a case's own entries, the file's, the recorded ones, and max-turns (cellToolsOf)", () => {
      const { file } = parseCaseFile(text, 'yaml');
      const recorded = { lookup_order: [{ result: 'recorded' }] };
      const whole = cellToolsOf({ file: file!, recorded });
      assert.deepEqual(Object.keys(whole), ['file', 'recorded', 'maxTurns']);
      assert.equal(whole.maxTurns, 4);
      assert.deepEqual(cellToolsOf({ file: file! }, 'a').case, { get_weather: [{ simulate: 'a weather API' }] });
      // the engine's cell reads the same
      const cell = runCellOf({ file: file!, recorded }, { caseName: 'a', model: 'm', body: {} });
      assert.deepEqual(cell.tools, cellToolsOf({ file: file!, recorded }, 'a'));
      assert.equal(cellToolsOf({ file: { ...file!, maxTurns: undefined } }).maxTurns, 10);
    });

    it('an undefined tool is an error at its name; a server none defines, a warning at its value', () => {
      const { file, locate } = parseCaseFile(
        text.replace('  search: { mcp: docs }', '  search: { mcp: nowhere }'),
        'yaml',
      );
      const problems = toolsCheck(file!, locate, REQUEST, ['elsewhere']);
      const t = text.replace('  search: { mcp: docs }', '  search: { mcp: nowhere }');
      assert.deepEqual(
        problems.map(p => [p.code, p.severity, lineOf(t, p.start), t.slice(p.start, p.end)]),
        [
          ['unknown-tool', 'error', 10, 'search'],
          ['unknown-mcp-server', 'warning', 10, 'nowhere'],
        ],
      );
      assert.match(problems[1]!.message, /Defined: "elsewhere", "docs"\./);
    });

    it('a `when` that is not an object, an entry without an answer or with two, each at its line', () => {
      const bad = [
        'request: agent.prompt.yaml',
        'tools:',
        '  lookup_order:',
        '    - when: "1234"', // 4
        '      result: x',
        '    - is_error: true', // 6
        '    - result: a', // 7
        '      mcp: docs', // 8
        'cases:',
        '  - name: a',
        '    assert: [{ tool-called: lookup_order }]',
        '',
      ].join('\n');
      const { problems } = parseCaseFile(bad, 'yaml');
      assert.deepEqual(
        problems.map(p => [p.code, lineOf(bad, p.start)]),
        [
          ['case-wrong-type', 4],
          ['tool-answer-missing', 6],
          ['tool-answer-missing', 8],
        ],
      );
      assert.match(problems[0]!.message, /"when" must be an object, not the string "1234"/);
      assert.match(problems[1]!.message, /give it "result" \(the answer\), "mcp" .* or "simulate"/);
    });

    it('the editor’s and the language server’s check finds .vscode/mcp.json above the case file', async () => {
      const files: Record<string, string> = {
        '/w/.vscode/mcp.json': '{ "servers": { "docs": { "command": "node" } } } // VS Code allows comments',
        '/w/suite/agent.prompt.yaml': JSON.stringify(REQUEST),
      };
      const check = await checkCaseText(
        'request: agent.prompt.yaml\ntools:\n  lookup_order: { mcp: docs }\n  get_weather: { mcp: web }\n' +
          'cases:\n  - name: a\n    assert: [{ tool-called: lookup_order }]\n',
        '/w/suite/agent.cases.yaml',
        rel => {
          const key = new URL(rel, 'file:///w/suite/').pathname;
          return { key, path: key };
        },
        key => files[key],
      );
      assert.deepEqual(
        check.caseProblems.map(p => [p.code, p.message.slice(0, 24)]),
        [['unknown-mcp-server', 'No MCP server "web" is d']],
      );
    });
  });

  describe('the assertions on the calls', () => {
    const msg = (content: Message['content']): Message => ({
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'x',
      content,
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {},
    });
    const call = (name: string, input: unknown, turn: number) => ({
      id: `t${turn}${name}`,
      name,
      input,
      result: 'ok',
      isError: false,
      source: 'file' as const,
      turn,
    });
    const outcome: Outcome = {
      message: msg([{ type: 'text', text: 'Shipped, and sunny.' }]),
      text: 'Shipped, and sunny.',
      turns: 3,
      toolCalls: [
        call('lookup_order', { order_id: '1234', verbose: true }, 1),
        call('send_sms', {}, 2),
        call('get_weather', { city: 'Paris' }, 2),
      ],
    };
    const verdicts = (assertions: Parameters<typeof evaluate>[0], o = outcome) =>
      evaluate(assertions, o).map(r => [r.pass, r.message]);

    it('tool-called by name or {name, input} (a deep subset), in any turn; tool-call too in a loop', () => {
      assert.deepEqual(
        verdicts([
          { 'tool-called': 'get_weather' },
          { 'tool-called': { name: 'lookup_order', input: { order_id: '1234' } } },
          { 'tool-called': { name: 'lookup_order', input: { order_id: '999' } } },
          { 'tool-called': 'send_email' },
          { 'tool-call': 'get_weather' },
        ]).map(v => v[0]),
        [true, true, false, false, true],
      );
      const [, why] = verdicts([{ 'tool-called': { name: 'lookup_order', input: { order_id: '999' } } }])[0]!;
      assert.match(String(why), /called 1 time with other input: lookup_order \{"order_id":"1234","verbose":true\}/);
    });

    it('tool-not-called, tool-sequence (others may come between) and max-turns', () => {
      assert.deepEqual(
        verdicts([{ 'tool-not-called': 'send_email' }, { 'tool-not-called': 'send_sms' }]).map(v => v[0]),
        [true, false],
      );
      assert.deepEqual(verdicts([{ 'tool-sequence': ['lookup_order', 'get_weather'] }])[0], [
        true,
        'tool-sequence lookup_order → get_weather: in order among lookup_order → send_sms → get_weather',
      ]);
      const failed = evaluate([{ 'tool-sequence': ['get_weather', 'lookup_order'] }], outcome)[0]!;
      assert.equal(failed.pass, false);
      assert.equal(
        failed.message,
        'tool-sequence get_weather → lookup_order: get_weather, then no call of lookup_order after it ' +
          '(calls: lookup_order → send_sms → get_weather)',
      );
      assert.deepEqual(
        [failed.expected, failed.actual],
        ['get_weather\nlookup_order', 'lookup_order\nsend_sms\nget_weather'],
      );
      assert.deepEqual(
        verdicts([{ 'max-turns': 3 }, { 'max-turns': 2 }]).map(v => v[0]),
        [true, false],
      );
    });
  });

  describe('the engine runs a loop cell', () => {
    const reply = (content: Message['content'], stop: string): Outcome => {
      const m: Message = {
        id: 'm',
        type: 'message',
        role: 'assistant',
        model: 'model-sonnet-4-6',
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 10 },
      };
      return { message: m, text: '', usage: m.usage, stopReason: stop, latencyMs: 5, requestId: `req_${stop}` };
    };
    const caseFile = parseCaseFile(
      [
        'request: a.prompt.yaml',
        'max-turns: 3',
        'tools:',
        '  lookup_order: [{ result: { status: shipped } }]',
        'cases:',
        '  - name: plain',
        '    vars: { n: "1" }',
        '    assert: [{ contains: shipped }, { tool-sequence: [lookup_order] }]',
        '',
      ].join('\n'),
      'yaml',
    ).file!;

    it('answers, sends again and settles on the last reply: usage and cost summed, every call recorded', async () => {
      const cell = runCellOf({ file: caseFile }, { caseName: 'plain', model: 'model-sonnet-4-6', body: REQUEST });
      const bodies: Record<string, unknown>[] = [];
      const send: SendJob = job => {
        bodies.push(job.body);
        return Promise.resolve(
          bodies.length === 1
            ? reply([{ type: 'tool_use', id: 't1', name: 'lookup_order', input: { order_id: '1' } }], 'tool_use')
            : { ...reply([{ type: 'text', text: 'It is shipped.' }], 'end_turn'), text: 'It is shipped.' },
        );
      };
      const { results } = await runCells({
        cells: [cell],
        transport: directTransport({ concurrency: 1, send: withToolLoops([cell], send) }),
        prices: DEFAULT_PRICES,
      });
      const r = results[0]!;
      assert.equal(r.status, 'passed', JSON.stringify(r.assertions));
      assert.equal(r.outcome.turns, 2);
      assert.equal(r.outcome.text, 'It is shipped.');
      assert.deepEqual(r.outcome.usage, { input_tokens: 200, output_tokens: 20 });
      assert.equal(r.outcome.requestId, 'req_end_turn');
      assert.deepEqual(
        r.outcome.toolCalls!.map(c => [c.name, c.result, c.source]),
        [['lookup_order', '{"status":"shipped"}', 'file']],
      );
      // the cost is the summed usage's: 200 input and 20 output tokens on the model
      const single = await runCells({
        cells: [{ ...cell, tools: undefined, assertions: [] }],
        transport: directTransport({
          concurrency: 1,
          send: () => Promise.resolve({ ...reply([], 'end_turn'), usage: { input_tokens: 200, output_tokens: 20 } }),
        }),
        prices: DEFAULT_PRICES,
      });
      assert.equal(r.costUsd, single.results[0]!.costUsd);
    });

    it('max-turns reached fails the cell; a call with no answer is its ERROR, and nothing more is sent', async () => {
      const cell = runCellOf({ file: caseFile }, { caseName: 'plain', model: 'model-sonnet-4-6', body: REQUEST });
      let sent = 0;
      const calling: SendJob = () => (
        sent++,
        Promise.resolve(reply([{ type: 'tool_use', id: `t${sent}`, name: 'lookup_order', input: {} }], 'tool_use'))
      );
      const run = (send: SendJob, c = cell) =>
        runCells({
          cells: [c],
          transport: directTransport({ concurrency: 1, send: withToolLoops([c], send) }),
          prices: DEFAULT_PRICES,
        });
      const limited = (await run(calling)).results[0]!;
      assert.equal(sent, 3);
      assert.equal(limited.status, 'failed');
      assert.match(limited.assertions.map(a => a.message).join('\n'), /max-turns 3 reached/);

      sent = 0;
      const other: SendJob = () => (
        sent++,
        Promise.resolve(
          reply([{ type: 'tool_use', id: 't', name: 'get_weather', input: { city: 'Oslo' } }], 'tool_use'),
        )
      );
      const errored = (await run(other)).results[0]!;
      assert.equal(sent, 1);
      assert.equal(errored.status, 'error');
      assert.deepEqual(errored.outcome.error, {
        type: 'no_tool_answer',
        message: 'no answer for get_weather {"city":"Oslo"}',
      });
    });
  });
});
