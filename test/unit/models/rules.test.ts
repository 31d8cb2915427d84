// Every rule that reads the catalog, with and without one: the context window, the max_tokens ceiling, effort
// levels, thinking types, image and PDF input, unknown models, and the status bar's share of the window. The
// catalog is the fake's list (test/fake/models.ts): the table's models as the table describes them, and
// model-quill-1 and model-lyra-2, which the table does not know.
import * as assert from 'node:assert/strict';
import { ModelCatalog } from '../../../src/core/models/catalog';
import type { ServiceModel } from '../../../src/core/models/types';
import { validateText } from '../../../src/core/request/validate';
import { renderStatus } from '../../../src/core/tokens/status';
import { fakeModels } from '../../fake/models';
import { NOW } from '../request/helpers';

const FAKE = new ModelCatalog(fakeModels());

interface Seen {
  code: string;
  severity: string;
  message: string;
  path: string;
}

function check(body: object, models?: ModelCatalog, betas: string[] = []): Seen[] {
  const text = JSON.stringify(body, null, 2);
  return validateText(text, 'json', { now: NOW, betas, ...(models ? { models } : {}) }).problems.map(p => ({
    code: p.code,
    severity: p.severity,
    message: p.message,
    path: p.path.join('/'),
  }));
}
const codes = (s: Seen[]) => s.map(p => `${p.severity}:${p.code}`);
const only = (s: Seen[], code: string) => s.filter(p => p.code === code);
const req = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
/** A catalog of one model, everything else as the table says. */
const listing = (m: Partial<ServiceModel> & { id: string }) => new ModelCatalog([{ type: 'model', ...m }]);
const yes = (supported: boolean) => ({ supported });

describe('rules that read the catalog (with and without one)', () => {
  it('unknown-model: a model the list has is never unknown; without the list it is an info', () => {
    assert.deepEqual(codes(check(req('model-quill-1-20261101'))), ['info:unknown-model']);
    assert.deepEqual(codes(check(req('model-quill-1-20261101'), FAKE)), []);
    assert.deepEqual(codes(check(req('model-quill-1'), FAKE)), [], 'an alias of a listed model');
    const still = only(check(req('my-finetune'), FAKE), 'unknown-model');
    assert.match(still[0]!.message, /nor one the service's model list has/);
  });

  it('dated-model: a dated id the list has exactly is not a guess any more', () => {
    assert.deepEqual(codes(check(req('model-sonnet-4-6-20260101'))), ['hint:dated-model']);
    const dated = listing({ id: 'model-sonnet-4-6-20260101' });
    assert.deepEqual(codes(check(req('model-sonnet-4-6-20260101'), dated)), []);
  });

  it('retired-model: stays an error whatever the list says', () => {
    const listed = listing({ id: 'model-3-opus-20240229', max_tokens: 4096 });
    assert.deepEqual(codes(check(req('model-3-opus-20240229'), listed)), ['error:retired-model']);
  });

  describe('max-tokens-above-model-limit', () => {
    it('without a list: the table’s ceilings (64,000 for the 4-5 models, 128,000 for model-opus-4-8) only', () => {
      assert.deepEqual(codes(check(req('model-opus-4-8', { max_tokens: 128_001 }))), [
        'error:max-tokens-above-model-limit',
      ]);
      assert.deepEqual(codes(check(req('model-opus-4-8', { max_tokens: 128_000 }))), []);
      assert.deepEqual(codes(check(req('model-opus-4-7', { max_tokens: 500_000 }))), [], 'no ceiling known');
    });
    it('with a list: the model’s own max_tokens, for every listed model and its aliases', () => {
      const p = only(check(req('model-quill-1', { max_tokens: 32_001 }), FAKE), 'max-tokens-above-model-limit');
      assert.equal(p[0]!.severity, 'error');
      assert.match(
        p[0]!.message,
        /32,001 is above 32,000, the most output tokens model-quill-1-20261101 generates \(its max_tokens in the service's model list\)/,
      );
      assert.deepEqual(codes(check(req('model-quill-1', { max_tokens: 32_000 }), FAKE)), []);
      const bigger = listing({ id: 'model-opus-4-7', max_tokens: 128_000 });
      assert.deepEqual(codes(check(req('model-opus-4-7', { max_tokens: 128_001 }), bigger)), [
        'error:max-tokens-above-model-limit',
      ]);
    });
    it('the list raises a ceiling the table knows: the service wins', () => {
      const raised = listing({ id: 'model-haiku-4-5-20251001', max_tokens: 100_000 });
      assert.deepEqual(codes(check(req('model-haiku-4-5', { max_tokens: 80_000 }))), [
        'error:max-tokens-above-model-limit',
      ]);
      assert.deepEqual(codes(check(req('model-haiku-4-5', { max_tokens: 80_000 }), raised)), []);
    });
    it('a beta that raises the output limit turns the rule off', () => {
      assert.deepEqual(
        codes(check(req('model-quill-1', { max_tokens: 64_000 }), FAKE, ['output-128k-2025-02-19'])),
        [],
      );
    });
  });

  describe('effort', () => {
    it('effort-unsupported: the list says the model has none (the table cannot say of an unknown model)', () => {
      const body = req('model-quill-1', { output_config: { effort: 'high' } });
      assert.deepEqual(codes(check(body)), ['info:unknown-model']);
      const p = only(check(body, FAKE), 'effort-unsupported');
      assert.equal(p[0]!.severity, 'error');
      assert.match(p[0]!.message, /does not support effort \(the service's model list says so\)/);
    });
    it('effort-unsupported without a list names the models that have effort, the newer ones included', () => {
      const p = only(check(req('model-haiku-4-5', { output_config: { effort: 'low' } })), 'effort-unsupported');
      assert.match(p[0]!.message, /model-opus-4-8, model-sonnet-5, model-opus-4-7/);
    });
    it('effort-unavailable: a level the entry does not support; the list can also grant one', () => {
      const lyra = check(req('model-lyra-2', { output_config: { effort: 'xhigh' } }), FAKE);
      assert.deepEqual(codes(lyra), ['error:effort-unavailable']);
      assert.match(lyra[0]!.message, /Supported here: low, medium, high/);
      const granted = listing({
        id: 'model-sonnet-4-6',
        capabilities: { effort: { supported: true, xhigh: yes(true) } },
      });
      const body = req('model-sonnet-4-6', { output_config: { effort: 'xhigh' } });
      assert.deepEqual(codes(check(body)), ['error:effort-unavailable']);
      assert.deepEqual(codes(check(body, granted)), []);
    });
  });

  describe('thinking types', () => {
    const enabled = { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 };
    const adaptive = { thinking: { type: 'adaptive' } };
    it('manual-thinking-unsupported: the entry takes adaptive only', () => {
      const p = check(req('model-lyra-2', enabled), FAKE);
      assert.deepEqual(codes(p), ['error:manual-thinking-unsupported']);
      assert.match(p[0]!.message, /the service's model list says so/);
      assert.deepEqual(codes(check(req('model-lyra-2', adaptive), FAKE)), []);
    });
    it('manual-thinking-expected: the entry takes enabled only', () => {
      const manual = listing({
        id: 'model-opus-4-7',
        capabilities: { thinking: { supported: true, types: { adaptive: yes(false), enabled: yes(true) } } },
      });
      assert.deepEqual(codes(check(req('model-opus-4-7', adaptive))), []);
      assert.deepEqual(codes(check(req('model-opus-4-7', adaptive), manual)), ['error:manual-thinking-expected']);
      assert.deepEqual(codes(check(req('model-opus-4-7', enabled), manual)), [], 'the service wins over the table');
    });
    it('thinking-unsupported: no thinking type at all; thinking disabled is fine', () => {
      assert.deepEqual(codes(check(req('model-quill-1', adaptive), FAKE)), ['error:thinking-unsupported']);
      assert.deepEqual(codes(check(req('model-quill-1', enabled), FAKE)), ['error:thinking-unsupported']);
      assert.deepEqual(codes(check(req('model-quill-1', { thinking: { type: 'disabled' } }), FAKE)), []);
      assert.deepEqual(codes(check(req('model-quill-1', adaptive))), ['info:unknown-model'], 'without a list');
    });
    it('budget-tokens-deprecated stays the table’s, while the list accepts enabled', () => {
      assert.deepEqual(codes(check(req('model-sonnet-4-6', enabled), FAKE)), ['warning:budget-tokens-deprecated']);
    });
  });

  describe('images and PDFs', () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
    const pdf = { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } };
    const withMedia = (model: string, ...blocks: object[]) =>
      req(model, { messages: [{ role: 'user', content: [...blocks, { type: 'text', text: 'What is this?' }] }] });
    it('media-input-unsupported: a warning on the first image or PDF, with how many', () => {
      const s = check(withMedia('model-quill-1', image, image, pdf), FAKE);
      assert.deepEqual(codes(s), ['warning:media-input-unsupported', 'warning:media-input-unsupported']);
      assert.equal(s[0]!.path, 'messages/0/content/0');
      assert.match(s[0]!.message, /does not take image input \(this request has 2\)/);
      assert.equal(s[1]!.path, 'messages/0/content/2');
      assert.deepEqual(codes(check(withMedia('model-lyra-2', image), FAKE)), []);
      assert.deepEqual(codes(check(withMedia('model-lyra-2', pdf), FAKE)), ['warning:media-input-unsupported']);
      assert.deepEqual(codes(check(withMedia('model-opus-4-7', image, pdf))), [], 'the table says nothing of it');
    });
    it('too-much-media: its limit is that of a 200k window, from the list when it has the model', () => {
      const many = Array.from({ length: 101 }, () => image);
      assert.deepEqual(codes(check(withMedia('model-opus-4-7', ...many))), ['error:too-much-media']);
      const wide = listing({ id: 'model-opus-4-7', max_input_tokens: 1_000_000 });
      assert.deepEqual(codes(check(withMedia('model-opus-4-7', ...many), wide)), []);
    });
  });

  describe('the newer models the table learned (model-opus-4-8, model-sonnet-5)', () => {
    const prefill = [
      { role: 'user', content: 'List three colours.' },
      { role: 'assistant', content: '[' },
    ];
    it('no prefill on either', () => {
      for (const model of ['model-opus-4-8', 'model-sonnet-5'])
        assert.deepEqual(codes(check(req(model, { messages: prefill }))), ['error:prefill-unsupported'], model);
    });
    it('manual thinking refused on both; model-sonnet-5 thinks adaptively unless told not to', () => {
      const manual = { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 };
      for (const model of ['model-opus-4-8', 'model-sonnet-5'])
        assert.deepEqual(codes(check(req(model, manual))), ['error:manual-thinking-unsupported'], model);
      // thinking absent is adaptive on model-sonnet-5: the clear_thinking edit needs no explicit thinking
      const edit = { context_management: { edits: [{ type: 'clear_thinking_20251015' }] } };
      assert.deepEqual(codes(check(req('model-sonnet-5', edit), undefined, ['context-management-2025-06-27'])), []);
      assert.deepEqual(codes(check(req('model-opus-4-8', edit), undefined, ['context-management-2025-06-27'])), [
        'error:clear-thinking-without-thinking',
      ]);
      assert.deepEqual(codes(check(req('model-sonnet-5', { thinking: { type: 'disabled' } }))), []);
    });
    it('sampling: all refused on model-opus-4-8; on model-sonnet-5 temperature, and warnings for the rest', () => {
      const sampling = { temperature: 0.5, top_p: 0.9, top_k: 5 };
      assert.deepEqual(codes(check(req('model-opus-4-8', sampling))), [
        'error:temperature-deprecated',
        'error:top-p-deprecated',
        'error:top-k-deprecated',
      ]);
      assert.deepEqual(codes(check(req('model-sonnet-5', sampling))), [
        'error:temperature-deprecated',
        'warning:sampling-unsupported',
        'warning:sampling-unsupported',
      ]);
      assert.deepEqual(codes(check(req('model-sonnet-5', { temperature: 1 }))), []);
    });
    it('every effort level on both', () => {
      for (const model of ['model-opus-4-8', 'model-sonnet-5'])
        for (const effort of ['low', 'medium', 'high', 'xhigh', 'max'])
          assert.deepEqual(codes(check(req(model, { output_config: { effort } }))), [], `${model} ${effort}`);
    });
  });

  it('the status bar’s share of the window it is given (the list’s or the table’s), 200k when none', () => {
    const state = { kind: 'count' as const, tokens: 100_000, at: 0, stale: false, cached: false };
    const tip = (meta: Parameters<typeof renderStatus>[1]) => renderStatus(state, meta).tooltip;
    assert.match(tip({ model: 'model-whatever' }), /50\.0% of the 200k context window/);
    assert.match(tip({ model: 'model-opus-4-7', contextWindow: 400_000 }), /25\.0% of the 400k context window/);
    const window = FAKE.lookup('model-sonnet-5').info!.contextWindow;
    assert.match(tip({ model: 'model-sonnet-5', contextWindow: window }), /10\.0% of the 1M context window/);
    const over = renderStatus({ ...state, tokens: 300_000 }, { model: 'model-quill-1', contextWindow: 250_000 });
    assert.equal(over.tone, 'error');
  });
});
