// The catalog: the service's model list merged over the built-in table. The service wins where both speak
// (context window, max_tokens, effort levels, thinking types, image and PDF input); the table keeps what the
// list does not show; an alias takes the entry of the model it points to; a retired model stays retired.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { builtinEntries, capabilityLines, ModelCatalog, parseModelList } from '../../../src/core/models/catalog';
import type { ServiceModel } from '../../../src/core/models/types';
import { lookupModel } from '../../../src/core/models/table';
import { fakeModels } from '../../fake/models';

const yes = (supported: boolean) => ({ supported });
const model = (id: string, extra: Partial<ServiceModel> = {}): ServiceModel => ({ type: 'model', id, ...extra });

describe('the catalog: the service’s models over the built-in table', () => {
  it('the service wins where both speak: window, max_tokens, effort levels, thinking types, media input', () => {
    const c = new ModelCatalog([
      model('model-opus-4-7', {
        display_name: 'Opus 4.7',
        max_input_tokens: 1_000_000,
        max_tokens: 128_000,
        capabilities: {
          effort: {
            supported: true,
            low: yes(true),
            medium: yes(true),
            high: yes(true),
            xhigh: yes(false),
            max: yes(true),
          },
          thinking: { supported: true, types: { adaptive: yes(true), enabled: yes(true) } },
          image_input: yes(false),
          pdf_input: yes(true),
        },
      }),
    ]);
    const table = lookupModel('model-opus-4-7').info!;
    const { info, match } = c.lookup('model-opus-4-7');
    assert.equal(match, 'exact');
    assert.equal(table.contextWindow, 200_000);
    assert.equal(info!.contextWindow, 1_000_000);
    assert.equal(table.maxOutputTokens, undefined);
    assert.equal(info!.maxOutputTokens, 128_000);
    assert.deepEqual(info!.effort, ['low', 'medium', 'high', 'max']);
    assert.deepEqual(info!.thinkingTypes, { adaptive: true, enabled: true });
    assert.equal(info!.imageInput, false);
    assert.equal(info!.pdfInput, true);
    assert.equal(info!.displayName, 'Opus 4.7');
    // what the list does not show stays the table's
    assert.equal(info!.samplingDeprecated, true);
    assert.equal(info!.prefill, table.prefill);
    assert.equal(info!.thinking, 'adaptive-only');
  });

  it('what the list leaves out keeps the table’s value; a level nobody mentions is not refused', () => {
    const c = new ModelCatalog([
      model('model-opus-4-5', { capabilities: { effort: { supported: true, low: yes(true) } } }),
      model('model-new-1', {
        capabilities: { effort: { supported: true, high: yes(true) }, thinking: { supported: true } },
      }),
      model('model-bare-1'),
    ]);
    const opus45 = c.lookup('model-opus-4-5').info!;
    assert.deepEqual(opus45.effort, ['low', 'medium', 'high'], 'medium and high from the table, max refused by it');
    assert.equal(opus45.maxOutputTokens, 64_000, 'no max_tokens in the list: the table’s');
    assert.equal(opus45.thinkingTypes, undefined, 'no thinking in the list: the table’s mode decides');
    const fresh = c.lookup('model-new-1').info!;
    assert.deepEqual(fresh.effort, ['low', 'medium', 'high', 'xhigh', 'max']);
    assert.deepEqual(fresh.thinkingTypes, { adaptive: true, enabled: true });
    const bare = c.lookup('model-bare-1');
    assert.equal(bare.match, 'exact');
    assert.equal(bare.info!.contextWindow, 200_000);
    assert.equal(bare.info!.effort, undefined);
  });

  it('thinking types the list leaves out follow the table: an adaptive-only model stays adaptive-only', () => {
    const c = new ModelCatalog([model('model-opus-4-8', { capabilities: { thinking: { supported: true } } })]);
    assert.deepEqual(c.lookup('model-opus-4-8').info!.thinkingTypes, { adaptive: true, enabled: false });
  });

  it('a model the list has is never unknown; one it lacks is the table’s', () => {
    const c = new ModelCatalog(fakeModels());
    assert.equal(lookupModel('model-quill-1-20261101').match, 'unknown');
    assert.equal(c.lookup('model-quill-1-20261101').match, 'exact');
    assert.equal(c.lookup('my-finetune').match, 'unknown');
    assert.equal(c.lookup('model-opus-4-0').info?.status, 'deprecated', 'not listed: the table');
  });

  it('an alias takes the entry of the listed model it points to: a dated id, or the table’s dated id', () => {
    const c = new ModelCatalog([
      ...fakeModels(),
      model('model-opus-4-20250514', { max_tokens: 32_000, created_at: '2025-05-14T00:00:00Z' }),
    ]);
    const quill = c.lookup('model-quill-1');
    assert.equal(quill.match, 'alias');
    assert.equal(quill.info!.resolved, 'model-quill-1-20261101');
    assert.equal(quill.info!.maxOutputTokens, 32_000);
    const haiku = c.lookup('model-haiku-4-5');
    assert.equal(haiku.match, 'alias');
    assert.equal(haiku.info!.resolved, 'model-haiku-4-5-20251001');
    assert.equal(haiku.info!.thinking, 'manual', 'the table’s facts of the alias stay');
    // model-opus-4-0 is filed under model-opus-4-20250514 in the table: no date suffix to match
    assert.equal(c.lookup('model-opus-4-0').info!.resolved, 'model-opus-4-20250514');
  });

  it('an alias resolves to the newest of its dated ids', () => {
    const c = new ModelCatalog([
      model('model-kite-1-20260101', { created_at: '2026-01-01T00:00:00Z', max_tokens: 1000 }),
      model('model-kite-1-20260601', { created_at: '2026-06-01T00:00:00Z', max_tokens: 2000 }),
    ]);
    assert.equal(c.lookup('model-kite-1').info!.resolved, 'model-kite-1-20260601');
    assert.equal(c.lookup('model-kite').match, 'unknown', 'a prefix is not an alias');
  });

  it('a retired model stays retired whatever the list says', () => {
    const c = new ModelCatalog([model('model-3-opus-20240229', { max_tokens: 4096 }), model('model-3-opus-latest')]);
    assert.equal(c.lookup('model-3-opus-20240229').info!.status, 'retired');
    assert.equal(c.lookup('model-3-opus-latest').match, 'retired-family');
  });

  it('entries: each listed model, then the table’s aliases of listed models; without a list, the table', () => {
    const entries = new ModelCatalog(fakeModels()).entries();
    assert.deepEqual(
      entries.slice(0, 2).map(e => e.id),
      ['model-quill-1-20261101', 'model-lyra-2-20261015'],
    );
    const haiku = entries.find(e => e.id === 'model-haiku-4-5')!;
    assert.equal(haiku.aliasOf, 'model-haiku-4-5-20251001');
    assert.ok(!entries.some(e => e.id === 'model-quill-1'), 'an alias the table does not know is not offered');
    const table = builtinEntries().map(e => e.id);
    assert.ok(table.includes('model-sonnet-5') && !table.includes('model-3-opus-20240229'));
  });

  it('capabilities in words: every capability the record has, or what the table knows', () => {
    const quill = new ModelCatalog(fakeModels()).lookup('model-quill-1').info!;
    assert.deepEqual(capabilityLines(quill).slice(0, 5), [
      'thinking: no',
      'effort: no',
      'image input: no',
      'PDF input: no',
      'citations: yes',
    ]);
    assert.deepEqual(capabilityLines(lookupModel('model-opus-4-5').info!), [
      'thinking: enabled (budget_tokens)',
      'effort: low, medium, high',
    ]);
  });
});

describe('a saved or received model list is checked before it is used', () => {
  it('takes the output of `models --format json`, a page of the list, or one model', () => {
    const saved = JSON.parse(fs.readFileSync('test/fixtures/models/catalog.json', 'utf8')) as unknown;
    const list = parseModelList(saved);
    assert.ok('models' in list && list.models.length === fakeModels().length);
    assert.ok('models' in parseModelList({ data: [model('a')], has_more: false }));
    const one = parseModelList(model('a'));
    assert.ok('models' in one && one.models.length === 1);
  });

  it('says what is wrong, and where', () => {
    const cases: [unknown, RegExp][] = [
      [{ models: [] }, /not a list of models: expected the output of `promptwright models --format json`/],
      ['text', /not a list of models/],
      [[model('a'), { id: '' }], /model 2 of 2: no "id"/],
      [[model('a'), 7], /model 2 of 2: not an object \(7\)/],
      [[model('a', { max_tokens: -1 })], /"a": "max_tokens" must be a positive whole number or null/],
      [[model('a', { max_input_tokens: '1M' as unknown as number })], /"max_input_tokens"/],
      [[{ ...model('a'), type: 'user' }], /"type" is "user", not "model"/],
      [[model('a', { capabilities: [] as unknown as null })], /"capabilities" must be an object or null/],
      [[model('a', { display_name: 3 as unknown as string })], /"display_name" must be a string/],
    ];
    for (const [value, message] of cases) {
      const r = parseModelList(value);
      assert.ok('error' in r, JSON.stringify(value));
      assert.match(r.error, message);
    }
  });

  it('the saved catalog fixture is what the fake lists (regenerate it with `models --format json`)', () => {
    const saved = JSON.parse(fs.readFileSync('test/fixtures/models/catalog.json', 'utf8')) as unknown;
    assert.deepEqual(saved, fakeModels());
  });
});
