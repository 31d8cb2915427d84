// The Cases grid's protocol and the pure helpers behind the editor side of case files: what the webview sends
// is untrusted input (a malformed message is dropped), the progress summary the status bar shows, where
// placeholder names are completed in a half-typed case file, and offsets turned into lines for closed files.
import * as assert from 'node:assert/strict';
import {
  cellKey,
  parseCasesWebviewState,
  parseFromCasesWebview,
  progressSummary,
  type FromCasesWebview,
} from '../../../src/protocol/cases';
import type { CellResult } from '../../../src/core/cases/types';
import { cellViewOf, notSentResult, problemsOf } from '../../../src/core/cases/grid';
import { flowVarsContext, yamlVarsContext } from '../../../src/core/cases/varsContext';

describe('Cases protocol', () => {
  it('accepts every message kind in its shape, and keeps only the known fields', () => {
    const good: FromCasesWebview[] = [
      { type: 'ready' },
      { type: 'cancel' },
      { type: 'open-case-file' },
      { type: 'rerun', target: { scope: 'all' } },
      { type: 'rerun', target: { scope: 'row', caseName: 'refund in French' } },
      { type: 'rerun', target: { scope: 'cell', caseName: '', model: 'model-haiku-4-5' } },
    ];
    for (const m of good) assert.deepEqual(parseFromCasesWebview(m), m, JSON.stringify(m));
    assert.deepEqual(parseFromCasesWebview({ type: 'cancel', all: true }), { type: 'cancel' });
    assert.deepEqual(
      parseFromCasesWebview({ type: 'rerun', target: { scope: 'row', caseName: 'a', model: 'm', body: {} } }),
      { type: 'rerun', target: { scope: 'row', caseName: 'a' } },
    );
  });

  it('drops anything malformed', () => {
    const bad: unknown[] = [
      null,
      'ready',
      [],
      { type: 'run' },
      { type: 'rerun' },
      { type: 'rerun', target: 'all' },
      { type: 'rerun', target: { scope: 'cell', caseName: 'a' } },
      { type: 'rerun', target: { scope: 'cell', caseName: 'a', model: '' } },
      { type: 'rerun', target: { scope: 'row', caseName: 42 } },
      { type: 'rerun', target: { scope: 'row', caseName: 'x'.repeat(1001) } },
      { type: 'rerun', target: { scope: 'column', caseName: 'a', model: 'm' } },
    ];
    for (const m of bad) assert.equal(parseFromCasesWebview(m), undefined, JSON.stringify(m));
  });

  it('restores a saved state only when it names a case file', () => {
    assert.deepEqual(parseCasesWebviewState({ caseFile: 'file:///w/a.cases.yaml', selected: { caseName: 'x' } }), {
      caseFile: 'file:///w/a.cases.yaml',
    });
    assert.deepEqual(
      parseCasesWebviewState({ caseFile: 'file:///w/a.cases.yaml', selected: { caseName: 'x', model: 'm' } }),
      { caseFile: 'file:///w/a.cases.yaml', selected: { caseName: 'x', model: 'm' } },
    );
    for (const s of [undefined, {}, { caseFile: '' }, { caseFile: 7 }, { caseFile: 'x'.repeat(5000) }])
      assert.equal(parseCasesWebviewState(s), undefined, JSON.stringify(s));
  });

  it('summarizes progress as the status bar shows it', () => {
    const cells = (...s: string[]) => s.map(status => ({ status }) as { status: CellResult['status'] });
    assert.equal(progressSummary(cells('passed', 'failed', 'running', 'queued', 'passed', 'passed')), '4/6 · 1 failed');
    assert.equal(progressSummary(cells('error', 'error', 'cancelled')), '3/3 · 2 errors · 1 cancelled');
    assert.equal(progressSummary([]), '0/0');
  });

  it('keys cells by case and model, so a case named like a model cannot collide', () => {
    assert.notEqual(cellKey('a b', 'c'), cellKey('a', 'b c'));
    assert.equal(cellKey('refund', 'model-haiku-4-5'), 'refund\u0000model-haiku-4-5');
  });
});

describe('Cases grid model', () => {
  const result = (o: Partial<CellResult> = {}): CellResult => ({
    caseName: 'greeting',
    model: 'model-haiku-4-5',
    status: 'passed',
    pass: true,
    assertions: [{ type: 'contains', pass: true, message: 'contains "Hi": found' }],
    outcome: {
      text: 'Hello! You said: Hi',
      usage: { input_tokens: 12, output_tokens: 5 },
      stopReason: 'tool_use',
      latencyMs: 123.4,
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'model-haiku-4-5',
        content: [
          { type: 'text', text: 'Hello! You said: Hi' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 5 },
      },
    },
    ...o,
  });

  it('shows a result: verdict, text, tools, usage, latency, request-id, change', () => {
    assert.deepEqual(cellViewOf(result(), 'fixed'), {
      caseName: 'greeting',
      model: 'model-haiku-4-5',
      status: 'passed',
      text: 'Hello! You said: Hi',
      assertions: [{ type: 'contains', pass: true, message: 'contains "Hi": found' }],
      toolCalls: ['get_weather'],
      inputTokens: 12,
      outputTokens: 5,
      usage: { input_tokens: 12, output_tokens: 5 },
      stopReason: 'tool_use',
      latencyMs: 123,
      requestId: 'req_1',
      change: 'fixed',
    });
  });

  it('shows a failed request with its error and request-id, and a cancel without one', () => {
    const failed = result({
      status: 'error',
      pass: false,
      outcome: { text: '', error: { type: 'overloaded_error', message: 'Overloaded', requestId: 'req_9' } },
    });
    const view = cellViewOf(failed);
    assert.deepEqual(view.error, { type: 'overloaded_error', message: 'Overloaded', requestId: 'req_9' });
    assert.equal(view.requestId, 'req_9');
    const cancelled = result({
      status: 'cancelled',
      outcome: { text: 'Hel', error: { type: 'aborted', message: 'x' } },
    });
    assert.equal(cellViewOf(cancelled).error, undefined);
  });

  it('keeps the problems of a request that was not sent, and reads them back from a saved result', () => {
    const r = notSentResult({ caseName: 'a', model: 'model-3-haiku-20240307' }, ['retired-model at /model: retired']);
    assert.equal(r.status, 'error');
    assert.equal(r.pass, false);
    assert.deepEqual(problemsOf(r), ['retired-model at /model: retired']);
    const view = cellViewOf(r, undefined, problemsOf(r));
    assert.deepEqual(view.problems, ['retired-model at /model: retired']);
    assert.equal(view.error, undefined);
  });
});

describe('placeholder completion contexts', () => {
  const yaml = (text: string) => {
    const lines = text.split('\n');
    const line = lines.findIndex(l => l.includes('|'));
    const character = lines[line]!.indexOf('|');
    lines[line] = lines[line]!.replace('|', '');
    return yamlVarsContext(lines, line, character);
  };
  const flow = (text: string) => flowVarsContext(text.replace('|', ''), text.indexOf('|'));

  it('YAML: a key of a block vars map, with the keys it has', () => {
    const at = yaml(
      ['cases:', '  - name: a', '    vars:', '      question: hi', '      |', '      tone: x'].join('\n'),
    );
    assert.deepEqual(at && [...at.existing].sort(), ['question', 'tone']);
    assert.ok(yaml(['cases:', '  - vars:', '      que|'].join('\n')), 'after `- vars:`, a partial key');
    assert.ok(yaml(['  - name: a', '    vars:', '      # a comment', '', '      |'].join('\n')), 'past comments');
  });

  it('YAML: not a value, not another map, not vars itself', () => {
    assert.equal(yaml(['    vars:', '      question: |'].join('\n')), undefined);
    assert.equal(yaml(['  - name: a', '    assert:', '      |'].join('\n')), undefined);
    assert.equal(yaml(['  - name: a', '    vars:', '    |'].join('\n')), undefined);
    assert.equal(yaml(['request: x', '|'].join('\n')), undefined);
  });

  it('JSON and YAML flow maps: a key position inside "vars": { … }', () => {
    const json = flow('{"cases": [{"name": "a", "vars": {"question": "a, {b}", |}}]}');
    assert.deepEqual(json && [...json.existing], ['question']);
    assert.ok(flow('{"vars": {"que|'), 'a partial key, the object still open');
    const yamlFlow = flow('  - vars: { question: "x", | }');
    assert.deepEqual(yamlFlow && [...yamlFlow.existing], ['question']);
    assert.equal(flow('{"vars": {"question": |}}'), undefined, 'a value, not a key');
    assert.equal(flow('{"models": {|}}'), undefined);
    assert.equal(flow('{"vars": {"a": {|}}}'), undefined, 'a nested object is not the vars map');
    assert.equal(flow('{"vars": [|]}'), undefined);
  });
});
