// The service's cache rules as errors, each at the offending marker, each with the quick fix that makes the
// request valid: more than 4 breakpoints (the top-level cache_control counts), a 1-hour ttl after a 5-minute
// one in the order tools → system → messages, and a marker on an empty text block. The bodies and messages of
// test/fixtures/rejected are the service's own refusals.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits, fixEdits } from '../../../src/core/request/fixes';
import { validateText } from '../../../src/core/request/validate';
import type { FixData, Problem } from '../../../src/core/request/types';

const NOW = new Date('2026-11-21T00:00:00Z');
const REJECTED = path.join('test', 'fixtures', 'rejected');
const manifest = JSON.parse(fs.readFileSync(path.join(REJECTED, 'manifest.json'), 'utf8')) as {
  file: string;
  rule: string;
  message: string;
  path: (string | number)[];
}[];

const errorsOf = (text: string, code?: string) =>
  validateText(text, 'json', { now: NOW }).problems.filter(p => p.severity === 'error' && (!code || p.code === code));
const json = (o: object) => `${JSON.stringify(o, null, 2)}\n`;

/** Applies a fix of `p` and returns the new text. */
function applyFix(text: string, p: Problem, title: RegExp): string {
  const v = validateText(text, 'json', { now: NOW });
  const f = p.fixes?.find(
    (x): x is Exclude<FixData, { kind: 'add-beta' }> => x.kind !== 'add-beta' && title.test(x.title),
  );
  assert.ok(f, `no fix ${title} among ${JSON.stringify(p.fixes?.map(x => x.title))}`);
  return applyEdits(text, fixEdits(text, 'json', v.parsed, f));
}

const block = (text: string, extra: object = {}) => ({ type: 'text', text, ...extra });
const marked = (text: string, ttl?: string) =>
  block(text, { cache_control: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } });

describe('cache rules: the service refuses these, Promptwright says so at the marker', () => {
  for (const file of ['too-many-cache-breakpoints.json', 'cache-ttl-order.json', 'cache-ttl-order-default-ttl.json']) {
    const e = manifest.find(m => m.file === file)!;
    it(`${file}: ${e.rule} at ${e.path.join('.')} ("${e.message.slice(0, 60)}…")`, () => {
      const text = fs.readFileSync(path.join(REJECTED, file), 'utf8');
      const hits = errorsOf(text, e.rule);
      assert.equal(hits.length, 1, JSON.stringify(hits));
      assert.deepEqual(hits[0]!.path, e.path);
    });
  }
  it('cache-control-on-empty-text.json: the marker of the empty block, with its removal as the fix', () => {
    const e = manifest.find(m => m.file === 'cache-control-on-empty-text.json')!;
    const text = fs.readFileSync(path.join(REJECTED, e.file), 'utf8');
    const [p] = errorsOf(text, 'cache-control-on-empty-text');
    assert.deepEqual(p!.path, e.path);
    assert.equal(text.slice(p!.start, p!.end), '"cache_control"');
    const fixed = applyFix(text, p!, /Remove this cache_control/);
    assert.deepEqual(errorsOf(fixed, 'cache-control-on-empty-text'), []);
  });

  it('the top-level cache_control counts toward the 4: four markers on blocks and one at the top is the fifth', () => {
    const four = {
      model: 'model-sonnet-4-5',
      max_tokens: 100,
      system: [marked('system')],
      messages: [{ role: 'user', content: [marked('a'), marked('b'), marked('c')] }],
    };
    assert.deepEqual(errorsOf(json(four)), []);
    const text = json({ ...four, cache_control: { type: 'ephemeral' } });
    const [p, ...rest] = errorsOf(text, 'too-many-cache-breakpoints');
    assert.equal(rest.length, 0);
    assert.deepEqual(p!.path, ['cache_control']);
    assert.match(p!.message, /at most 4 blocks with cache_control; this one has 5/);
    assert.deepEqual(errorsOf(applyFix(text, p!, /Remove this cache_control/)), []);
    // three on blocks and the top-level one: four, allowed
    const withTop = { ...four, messages: [{ role: 'user', content: [marked('a'), marked('b'), block('c')] }] };
    assert.deepEqual(errorsOf(json({ ...withTop, cache_control: { type: 'ephemeral' } })), []);
  });

  it('every marker after the fourth is marked, in the order tools, system, messages', () => {
    const text = json({
      model: 'model-sonnet-4-5',
      max_tokens: 100,
      tools: [
        { name: 'a', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
        { name: 'b', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
      ],
      system: [marked('one'), marked('two')],
      messages: [{ role: 'user', content: [marked('three'), marked('four')] }],
    });
    assert.deepEqual(
      errorsOf(text, 'too-many-cache-breakpoints').map(p => p.path.join('.')),
      ['messages.0.content.0.cache_control', 'messages.0.content.1.cache_control'],
    );
  });

  it('a 1-hour ttl after a 5-minute one: the later, longer marker, with fixes that each make the order valid', () => {
    const text = json({
      model: 'model-sonnet-4-5',
      max_tokens: 100,
      system: [marked('rules', '5m')],
      messages: [{ role: 'user', content: [marked('question', '1h')] }],
    });
    const [p] = errorsOf(text, 'cache-ttl-order');
    assert.deepEqual(p!.path, ['messages', 0, 'content', 0, 'cache_control', 'ttl']);
    assert.equal(text.slice(p!.start, p!.end), '"1h"');
    assert.match(p!.message, /system\.0 has ttl "5m"/);
    for (const title of [/Use ttl "5m" here/, /Use ttl "1h" on the earlier breakpoint/, /Remove this cache_control/])
      assert.deepEqual(errorsOf(applyFix(text, p!, title)), [], String(title));
  });

  it('the ttl order runs tools → system → messages → the top-level marker, whatever the order of the keys', () => {
    // 1h on a tool, then 5m in system: valid
    const ok = {
      messages: [{ role: 'user', content: 'Hi' }],
      system: [marked('rules')],
      tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral', ttl: '1h' } }],
      model: 'model-sonnet-4-5',
      max_tokens: 100,
    };
    assert.deepEqual(errorsOf(json(ok)), []);
    // a top-level 1h after a 5m system marker: the top-level ttl is the later one
    const [p] = errorsOf(
      json({ ...ok, tools: [], cache_control: { type: 'ephemeral', ttl: '1h' } }),
      'cache-ttl-order',
    );
    assert.deepEqual(p!.path, ['cache_control', 'ttl']);
    // a ttl-less marker is 5 minutes; a marker without ttl after a 1h one is fine
    const fine = { ...ok, system: [marked('rules', '1h')], cache_control: { type: 'ephemeral' } };
    assert.deepEqual(errorsOf(json(fine)), []);
  });

  it('a marker on an empty text block in system, or as the last block of a tool_result, is an error', () => {
    const inSystem = json({
      model: 'model-sonnet-4-5',
      max_tokens: 100,
      system: [block('rules'), marked('')],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    assert.deepEqual(
      errorsOf(inSystem, 'cache-control-on-empty-text').map(p => p.path.join('.')),
      ['system.1.cache_control'],
    );
    const nested = json({
      model: 'model-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Look it up' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'look', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [block('found'), marked('')] }],
        },
      ],
      tools: [{ name: 'look', input_schema: { type: 'object' } }],
    });
    assert.deepEqual(
      errorsOf(nested, 'cache-control-on-empty-text').map(p => p.path.join('.')),
      ['messages.2.content.0.content.1.cache_control'],
    );
  });
});
