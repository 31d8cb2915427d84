import * as assert from 'node:assert/strict';
import { estimatePrefix } from '../../../src/core/cache/prefix';
import { breakpointsOf, prefixOf } from '../../../src/core/cache/report';
import {
  breakdownLenses,
  breakdownParts,
  cacheHover,
  cacheLenses,
  partLenses,
  totalLens,
} from '../../../src/core/language/lenses';
import { parseRequest } from '../../../src/core/request/parse';
import { tokenBreakdown } from '../../../src/core/tokens/breakdown';

const BODY = {
  model: 'model-sonnet-4-6',
  max_tokens: 5,
  system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
  tools: [{ name: 't', description: 'd', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Hello there' },
    { role: 'assistant', content: 'Hi' },
    { role: 'user', content: 'Bye' },
  ],
};
const TEXT = JSON.stringify(BODY, null, 2);

describe('the lenses: each part of a request and each cache breakpoint', () => {
  it('measures the parts as the Token Breakdown does: the same bodies, the same tokens', async () => {
    const counted = new Map<string, number>();
    // a count that depends on the body: its JSON's length
    const count = (b: Record<string, unknown>) => JSON.stringify(b).length;
    const breakdown = await tokenBreakdown(BODY, async b => {
      counted.set(JSON.stringify(b), count(b));
      return count(b);
    });
    const parts = breakdownParts(BODY);
    assert.deepEqual(
      parts.map(p => p.label),
      breakdown.map(p => p.label),
    );
    parts.forEach((p, i) => {
      const r = p.request;
      const tokens = r.kind === 'whole' ? count(r.body) : count(r.body) - count(r.base);
      assert.equal(tokens, breakdown[i]!.tokens, p.label);
      for (const b of r.kind === 'whole' ? [r.body] : [r.body, r.base])
        assert.ok(counted.has(JSON.stringify(b)), p.label);
    });
  });

  it("each part's estimate is its request's, made without building the conversation's prefixes", () => {
    for (const p of breakdownParts(BODY)) assert.equal(p.estimate(), estimatePrefix(p.request), p.label);
  });

  it('a lens above each part: counted, or estimated and marked ≈', () => {
    const parsed = parseRequest(TEXT, 'json');
    const parts = breakdownParts(BODY);
    const estimated = breakdownLenses(parts, () => undefined, parsed, false);
    assert.equal(estimated.length, parts.length);
    assert.ok(
      estimated.every(l => /^≈ [\d,]+ tokens? \(estimate\)$/.test(l.title)),
      JSON.stringify(estimated),
    );
    assert.equal(TEXT.slice(estimated[0]!.start, estimated[0]!.start + 8), '"system"');
    const counted = breakdownLenses(parts, () => 1234, parsed, true);
    assert.ok(counted.every(l => l.title === '1,234 tokens'));
    assert.equal(totalLens(undefined, () => 40, true).title, '≈ 40 input tokens (estimate, counting…)');
    assert.equal(totalLens(12, () => 40, false).title, '12 input tokens');
  });

  it("the Token Breakdown's parts get their lenses where the lenses' parts get theirs, in JSON and YAML", async () => {
    const body = {
      model: 'model-sonnet-4-6',
      max_tokens: 5,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Hi' },
      ],
    };
    const yaml = [
      'model: model-sonnet-4-6',
      'max_tokens: 5',
      'system: You are terse.',
      'messages:',
      '  - role: user',
      '    content: Hello there',
      '  - role: assistant',
      '    content: Hi',
      '',
    ].join('\n');
    const breakdown = await tokenBreakdown(body, async b => JSON.stringify(b).length);
    for (const [text, format, first] of [
      [JSON.stringify(body, null, 2), 'json', '{'],
      [yaml, 'yaml', 'role: user'],
    ] as const) {
      const parsed = parseRequest(text, format);
      const lenses = partLenses(breakdown, parsed, p => ({ title: `${p.tokens}`, tooltip: p.label }));
      assert.deepEqual(
        lenses.map(l => l.start),
        breakdownLenses(breakdownParts(body), () => undefined, parsed, false).map(l => l.start),
        format,
      );
      assert.deepEqual(
        lenses.map(l => l.tooltip),
        ['system', 'messages[0] (user)', 'messages[1] (assistant)'],
      );
      assert.equal(text.slice(lenses[0]!.start).replace(/^"/, '').slice(0, 6), 'system', format);
      assert.equal(text.slice(lenses[1]!.start, lenses[1]!.start + first.length), first, format);
    }
  });

  it('each part at its own element after system blocks and tools, as one path at a time finds it', () => {
    const parsed = parseRequest(TEXT, 'json');
    const parts = breakdownParts(BODY);
    const lenses = breakdownLenses(parts, () => undefined, parsed, false);
    assert.deepEqual(
      lenses.map(l => l.start),
      parts.map(p => parsed.locate(p.path, p.path.length === 1)!.start),
    );
    assert.deepEqual(
      lenses.map(l => TEXT.slice(l.start, l.start + 8)),
      ['"system"', '"tools":', '{\n      ', '{\n      ', '{\n      '],
    );
  });

  it("a lens on each breakpoint's cache_control, and its hover", () => {
    const parsed = parseRequest(TEXT, 'json');
    const breakpoints = breakpointsOf(BODY);
    const view = { body: BODY, breakpoints, prefixes: breakpoints.map(b => prefixOf(b, undefined)) };
    const [lens] = cacheLenses(view, parsed);
    assert.ok(lens);
    assert.equal(TEXT.slice(lens.start, lens.start + 15), '"cache_control"');
    assert.match(lens.title, /^cache breakpoint 1 of 1 · prefix ≈ /);
    const hover = cacheHover(view, parsed, lens.start + 3);
    assert.match(hover!.markdown, /^\*\*Cache breakpoint 1 of 1\*\*/);
    assert.equal(cacheHover(view, parsed, 0), undefined);
  });
});
