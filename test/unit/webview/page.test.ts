// The page runtime every webview is a port of (src/webview/common/page.ts): what a reload hands back reaches a
// page only through its protocol's check, messages are handled in order once per animation frame with one
// draw after them, and `ready` goes out once, after the page listens. Plain Node, on test/support/fakeDom.ts.
import * as assert from 'node:assert/strict';
import { parseActivityWebviewState } from '../../../src/protocol/activity';
import { parseCasesWebviewState } from '../../../src/protocol/cases';
import { parseCompareWebviewState } from '../../../src/protocol/compare';
import { parseResponseWebviewState } from '../../../src/protocol/response';
import { Page } from '../../../src/webview/common/page';
import { frames, installFakeDom, postToPage } from '../../support/fakeDom';

interface Msg {
  type: string;
  n?: number;
}

function fakeApi(kept: unknown) {
  const posted: unknown[] = [];
  const saved: unknown[] = [];
  return {
    posted,
    saved,
    api: { postMessage: (m: unknown) => posted.push(m), getState: () => kept, setState: (s: unknown) => saved.push(s) },
  };
}

const run = {
  runId: 3,
  file: 'hello.prompt.yaml',
  model: 'model-opus-4-7',
  startedAt: 1700000000000,
  outcome: 'done',
  timings: { firstTokenMs: 120, totalMs: 900 },
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'model-opus-4-7',
    content: [{ type: 'text', text: 'Bonjour' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 2 },
  },
};
const comparison = {
  runId: 2,
  file: 'hello.prompt.yaml',
  running: true,
  columns: [
    { index: 0, model: 'model-opus-4-7', version: 'working copy', status: 'done', sample: 1, message: run.message },
    { index: 1, model: 'model-opus-4-7', version: 'HEAD', status: 'running', sample: 1 },
  ],
};

describe('webview page runtime', () => {
  beforeEach(() => installFakeDom());

  describe('validated restore', () => {
    // each panel's kept state, as its page saved it, and damaged ones its check must refuse
    const panels: { name: string; parse: (raw: unknown) => unknown; good: unknown; bad: unknown[] }[] = [
      {
        name: 'response',
        parse: parseResponseWebviewState,
        good: run,
        bad: [{ ...run, runId: '3' }, { ...run, outcome: 'exploded' }, { ...run, file: 7 }, { runId: 3 }],
      },
      {
        name: 'compare',
        parse: parseCompareWebviewState,
        good: comparison,
        bad: [
          { ...comparison, columns: [] },
          { ...comparison, columns: 'two' },
          { ...comparison, columns: [{ ...comparison.columns[0], status: 'sideways' }] },
          { ...comparison, columns: Array.from({ length: 7 }, () => comparison.columns[0]) },
        ],
      },
      {
        name: 'cases',
        parse: parseCasesWebviewState,
        good: { caseFile: 'file:///w/a.cases.yaml', selected: { caseName: 'x', model: 'm' }, detailHeight: 240 },
        bad: [{ caseFile: '' }, { caseFile: 42 }, { selected: { caseName: 'x', model: 'm' } }],
      },
      {
        name: 'activity',
        parse: parseActivityWebviewState,
        good: { filter: { types: ['org_deleted_via_bulk'] }, scrollTop: 480 },
        bad: [{ filter: { types: 'x y' } }, { filter: { created: { since: 'yesterday' } } }, { scrollTop: 480 }],
      },
    ];
    for (const { name, parse, good, bad } of panels) {
      it(`the ${name} page gets back what it kept, and nothing for a damaged state`, () => {
        assert.deepEqual(new Page(parse, fakeApi(good).api).restored, good);
        for (const kept of [undefined, null, 'state', [], 42, ...bad])
          assert.equal(new Page(parse, fakeApi(kept).api).restored, undefined, `${name}: ${JSON.stringify(kept)}`);
      });
    }

    it('a check that throws on what it was handed restores nothing, rather than stopping the page', () => {
      const page = new Page(
        () => {
          throw new Error('damaged');
        },
        fakeApi({ anything: 1 }).api,
      );
      assert.equal(page.restored, undefined);
    });

    it('drops what a kept reply or error is not, keeping the run', () => {
      const restored = parseResponseWebviewState({
        ...run,
        message: { content: [{ text: 'no type' }] },
        error: { type: 'overloaded_error' },
      });
      assert.ok(restored);
      assert.equal(restored.message, undefined);
      assert.equal(restored.error, undefined);
      assert.equal(restored.runId, 3);
    });

    it('keeps the scroll position and the detail height only when they are positive numbers', () => {
      assert.deepEqual(parseActivityWebviewState({ filter: {}, scrollTop: -3 }), { filter: {} });
      assert.deepEqual(parseCasesWebviewState({ caseFile: 'file:///a', detailHeight: 'tall' }), {
        caseFile: 'file:///a',
      });
    });
  });

  describe('one batching per animation frame', () => {
    it('handles what arrived in order in the next frame, then draws once', () => {
      const { api } = fakeApi(undefined);
      const page = new Page<Msg, Msg, unknown>(() => undefined, api);
      const seen: string[] = [];
      page.start({ handle: m => seen.push(`handle ${m.n}`), draw: () => seen.push('draw') });
      for (let n = 1; n <= 3; n++) postToPage({ type: 'events', n });
      assert.deepEqual(seen, [], 'nothing before the frame');
      assert.equal(frames.queue.size, 1, 'one frame asked for, however many messages');
      frames.run();
      assert.deepEqual(seen, ['handle 1', 'handle 2', 'handle 3', 'draw']);
      frames.run();
      assert.deepEqual(seen.length, 4, 'no frame without news');
      postToPage({ type: 'events', n: 4 });
      frames.run();
      assert.deepEqual(seen.slice(4), ['handle 4', 'draw']);
    });

    it("draws for the page's own changes (schedule) in the same frame as the messages", () => {
      const page = new Page<Msg, Msg, unknown>(() => undefined, fakeApi(undefined).api);
      let draws = 0;
      const handled: Msg[] = [];
      page.start({ handle: m => handled.push(m), draw: () => draws++ });
      page.schedule();
      postToPage({ type: 'events', n: 1 });
      page.schedule();
      assert.equal(frames.queue.size, 1);
      frames.run();
      assert.equal(draws, 1);
      assert.equal(handled.length, 1);
    });
  });

  describe('the ready handshake', () => {
    it('posts ready once, when the page starts listening, and posts what the page posts after it', () => {
      const { api, posted } = fakeApi(undefined);
      const page = new Page<Msg, Msg, unknown>(() => undefined, api);
      assert.deepEqual(posted, [], 'nothing before start');
      const handled: Msg[] = [];
      page.start({ handle: m => handled.push(m) });
      assert.deepEqual(posted, [{ type: 'ready' }]);
      postToPage({ type: 'show' });
      frames.run();
      assert.deepEqual(handled, [{ type: 'show' }], 'what answers ready is handled');
      page.post({ type: 'open-link' });
      assert.deepEqual(posted, [{ type: 'ready' }, { type: 'open-link' }]);
    });
  });

  describe('saving', () => {
    it('saves at once with save, and at most once per delay with saveSoon (the state as it is then)', async () => {
      const { api, saved } = fakeApi(undefined);
      const page = new Page<Msg, Msg, { n: number }>(() => undefined, api);
      page.save({ n: 0 });
      assert.deepEqual(saved, [{ n: 0 }]);
      let n = 1;
      page.saveSoon(() => ({ n }));
      n = 2;
      page.saveSoon(() => ({ n: -1 }));
      assert.equal(saved.length, 1, 'not yet');
      await new Promise(resolve => setTimeout(resolve, 600));
      assert.deepEqual(saved, [{ n: 0 }, { n: 2 }]);
      page.saveSoon(() => undefined);
      await new Promise(resolve => setTimeout(resolve, 600));
      assert.equal(saved.length, 2, 'nothing to save: nothing saved');
    });
  });
});
