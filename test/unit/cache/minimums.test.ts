// The minimum cacheable prompt length per model (the vendor's documentation, as of the date beside the table),
// the setting that overrides it, the seam for the service's own model facts, and the words that say it: the
// CodeLens title, the warning under the minimum, the hover.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { cacheMinimum, documentedMinimums, MINIMUMS_AS_OF } from '../../../src/core/cache/minimums';
import { breakpointsOf, prefixOf, reaches } from '../../../src/core/cache/report';
import { belowMinimumMessage, hoverMarkdown, lensTitle } from '../../../src/core/cache/words';
import { MODELS } from '../../../src/core/models/table';

describe('minimum cacheable prompt length', () => {
  it('RULES.md gives the same table, with its date (cache-prefix-below-minimum)', () => {
    const rule = /^### cache-prefix-below-minimum$([\s\S]*?)^### /m.exec(fs.readFileSync('RULES.md', 'utf8'))![1]!;
    assert.match(rule, new RegExp(`as of ${MINIMUMS_AS_OF}`));
    const documented: Record<string, number> = {};
    for (const row of rule.matchAll(/^\| (`model-.*?) \| ([\d,]+) tokens \|$/gm))
      for (const id of row[1]!.matchAll(/`(model-[\w.-]+)`/g)) documented[id[1]!] = Number(row[2]!.replace(',', ''));
    assert.deepEqual(documented, documentedMinimums());
  });
  it('the documented table, by model family; a dated id follows its model', () => {
    assert.equal(MINIMUMS_AS_OF, '2026-07-31');
    const tokens = (m: string) => cacheMinimum(m)?.tokens;
    assert.deepEqual(
      ['model-opus-4-6', 'model-opus-4-5', 'model-haiku-4-5', 'model-opus-4-7', 'model-sonnet-4-6'].map(tokens),
      [4096, 4096, 4096, 2048, 1024],
    );
    assert.deepEqual(
      ['model-sonnet-4-5', 'model-opus-4-1', 'model-opus-4-0', 'model-sonnet-4-0'].map(tokens),
      [1024, 1024, 1024, 1024],
    );
    assert.equal(tokens('model-haiku-4-5-20251001'), 4096);
    assert.equal(tokens('model-opus-4-20250514'), 1024);
    assert.deepEqual(cacheMinimum('model-sonnet-4-5'), { tokens: 1024, source: 'documented' });
    // no published figure, an unknown model, no model: nothing known, nothing judged
    assert.equal(cacheMinimum('model-mythos-preview'), undefined);
    assert.equal(cacheMinimum('my-own-model'), undefined);
    assert.equal(cacheMinimum(undefined), undefined);
    // every model of the table is one the spec names
    const ids = new Set(MODELS.map(m => m.id));
    for (const id of Object.keys(documentedMinimums())) assert.ok(ids.has(id), id);
  });

  it('the setting wins (by id or undated id), then the service facts; bad values are ignored', () => {
    const overrides = { 'model-sonnet-4-6': 2048, 'my-own-model': 512, 'model-opus-4-7': 'lots', 'model-opus-4-6': 0 };
    assert.deepEqual(cacheMinimum('model-sonnet-4-6', { overrides }), { tokens: 2048, source: 'setting' });
    assert.deepEqual(cacheMinimum('my-own-model', { overrides }), { tokens: 512, source: 'setting' });
    assert.deepEqual(cacheMinimum('model-opus-4-7', { overrides }), { tokens: 2048, source: 'documented' });
    assert.deepEqual(cacheMinimum('model-opus-4-6', { overrides }), { tokens: 4096, source: 'documented' });
    const dated = { 'model-haiku-4-5': 100 };
    assert.equal(cacheMinimum('model-haiku-4-5-20251001', { overrides: dated })?.tokens, 100);
    // a models catalog that one day states a minimum passes it here
    const serviceFacts = (m: string) => (m === 'model-mythos-preview' ? 3000 : undefined);
    assert.deepEqual(cacheMinimum('model-mythos-preview', { serviceFacts }), { tokens: 3000, source: 'service' });
    assert.deepEqual(cacheMinimum('model-mythos-preview', { serviceFacts, overrides: { 'model-mythos-preview': 9 } }), {
      tokens: 9,
      source: 'setting',
    });
  });
});

describe('breakpoints in words', () => {
  const body = {
    model: 'model-sonnet-4-5',
    max_tokens: 100,
    cache_control: { type: 'ephemeral' },
    system: [{ type: 'text', text: 'rules', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    messages: [{ role: 'user', content: 'Hi' }],
  };
  const [sys, top] = breakpointsOf(body);

  it('the CodeLens title: which breakpoint, its prefix, its ttl, and whether it reaches the minimum', () => {
    assert.equal(
      lensTitle(sys!, prefixOf(sys!, 4210)),
      'cache breakpoint 1 of 2 · prefix 4,210 tokens · ttl 1h · caches from 1,024 ✓',
    );
    assert.equal(
      lensTitle(top!, prefixOf(top!, { tokens: 300 })),
      'cache breakpoint 2 of 2 (automatic) · prefix 300 tokens · ttl 5m · caches from 1,024 ✗',
    );
    // not counted: the estimate, said to be one (and why)
    const estimate = prefixOf(top!, undefined);
    assert.deepEqual(estimate, {
      tokens: Math.ceil(
        JSON.stringify({ messages: body.messages, system: body.system, cache_control: body.cache_control }).length / 4,
      ),
      source: 'estimate',
    });
    assert.match(
      lensTitle(top!, estimate),
      /^cache breakpoint 2 of 2 \(automatic\) · prefix ≈ \d+ tokens \(estimate\) · /,
    );
    assert.match(lensTitle(top!, prefixOf(top!, undefined, { counting: true })), /\(estimate, counting…\)/);
    assert.match(lensTitle(top!, prefixOf(top!, { error: { message: 'messages: bad' } })), /\(estimate: not counted\)/);
    const [unknown] = breakpointsOf({ ...body, model: 'my-own-model' });
    assert.equal(
      lensTitle(unknown!, prefixOf(unknown!, 10)),
      'cache breakpoint 1 of 2 · prefix 10 tokens · ttl 1h · minimum not known for this model',
    );
    assert.equal(reaches(unknown!, prefixOf(unknown!, 10)), undefined);
  });

  it('the warning: nothing cached and no error, the counted or estimated size, the way forward', () => {
    assert.equal(belowMinimumMessage(sys!, prefixOf(sys!, 1024), 'model-sonnet-4-5'), undefined);
    assert.equal(
      belowMinimumMessage(sys!, prefixOf(sys!, 1023), 'model-sonnet-4-5'),
      'Nothing will be cached at this breakpoint, and the service returns no error: its prefix is 1,023 tokens ' +
        '(counted by the service), under the 1,024 tokens model-sonnet-4-5 caches from. Move the breakpoint to a ' +
        'later block, so that its prefix is longer, or remove it.',
    );
    assert.match(
      belowMinimumMessage(sys!, prefixOf(sys!, undefined), 'model-sonnet-4-5')!,
      /its prefix is about \d+ tokens \(a local estimate, about four characters a token\), under the 1,024 tokens/,
    );
  });

  it('the hover: what is cached, for how long, and against which minimum', () => {
    const h = hoverMarkdown(sys!, prefixOf(sys!, 4210), body);
    assert.match(h, /^\*\*Cache breakpoint 1 of 2\*\*/);
    assert.match(h, /caches the request up to and including system\[0\]: the system prompt's blocks 0 to 0\./);
    assert.match(h, /Kept for \*\*1 hour\*\* after its last use/);
    assert.match(h, /Prefix: 4,210 tokens, counted by the service\./);
    assert.match(
      h,
      /`model-sonnet-4-5` caches prefixes of at least 1,024 tokens \(the vendor's documentation, as of 2026-07-31\): this one is long enough ✓/,
    );
    const t = hoverMarkdown(top!, prefixOf(top!, 12), body);
    assert.match(t, /automatic caching/);
    assert.match(t, /last cacheable block of the request \(messages\[0\]\.content\)/);
    assert.match(t, /counts toward the 4 breakpoints/);
    assert.match(t, /Kept for \*\*5 minutes\*\*/);
    assert.match(t, /\*\*nothing will be cached\*\*, and the service returns no error/);
  });
});
