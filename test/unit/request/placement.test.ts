// Placing many problems at once: the ranges must be exactly those found one path at a time,
// and none may be lost, in JSON (both parsers) and YAML, however many problems there are.
import * as assert from 'node:assert/strict';
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { parseRequest, type Span } from '../../../src/core/request/parse';
import type { Path } from '../../../src/core/request/types';
import { validateText } from '../../../src/core/request/validate';
import { NOW } from './helpers';

/** A conversation of `turns` messages in which every `every`-th role is wrong; the wrong ones' indexes. */
function badRoles(turns: number, every: number): { body: object; bad: number[] } {
  const messages = Array.from({ length: turns }, (_, i) => ({
    role: i % every === 0 ? 'robot' : i % 2 ? 'assistant' : 'user',
    // text that looks like structure: skipping a message must not count its brackets
    content: i % 3 ? `turn ${i}: "quoted", a } and ] in text, and \\ {[` : [{ type: 'text', text: `turn ${i}` }],
  }));
  const bad = messages.flatMap((m, i) => (m.role === 'robot' ? [i] : []));
  return { body: { model: 'model-opus-4-7', max_tokens: 64, messages }, bad };
}

/** The invalid-value problems of a check, each as its message index and range. */
function placedRoles(text: string, format: 'json' | 'yaml'): { index: number; span: Span }[] {
  return validateText(text, format, { now: NOW })
    .problems.filter(p => p.code === 'invalid-value')
    .map(p => {
      assert.equal(p.path.length, 3);
      assert.equal(p.path[2], 'role');
      return { index: p.path[1] as number, span: { start: p.start, end: p.end } };
    });
}

/** Every path of a value, container before contents (iterative). */
function allPaths(value: unknown): Path[] {
  const out: Path[] = [];
  const stack: { v: unknown; path: Path }[] = [{ v: value, path: [] }];
  for (let e = stack.pop(); e; e = stack.pop()) {
    out.push(e.path);
    if (e.v === null || typeof e.v !== 'object') continue;
    for (const [k, v] of Object.entries(e.v)) stack.push({ v, path: [...e.path, Array.isArray(e.v) ? Number(k) : k] });
  }
  return out;
}

describe('placing many problems', function () {
  // each test checks a thousand places against a parser's own answer: a second or two, more on a loaded machine
  this.timeout(20_000);

  const { body, bad } = badRoles(2000, 2);

  for (const [name, text] of [
    ['indented', JSON.stringify(body, null, 2)],
    ['on one line', JSON.stringify(body)],
  ] as const) {
    it(`JSON ${name}: 1,000 bad roles, each on the role value of its message`, () => {
      const placed = placedRoles(text, 'json');
      assert.deepEqual(
        placed.map(p => p.index),
        bad,
      );
      assert.equal(bad.length, 1000);
      // what jsonc-parser's tree says, and what locating each path alone from the start of the file says
      const tree = jsonc.parseTree(text)!;
      const parsed = parseRequest(text, 'json');
      for (const { index, span } of placed) {
        const node = jsonc.findNodeAtLocation(tree, ['messages', index, 'role'])!;
        assert.deepEqual(span, { start: node.offset, end: node.offset + node.length });
        // one by one from the start of the file, as before: slow, so for every fifth
        if (index % 5 === 0) assert.deepEqual(span, parsed.locate(['messages', index, 'role']));
        assert.equal(text.slice(span.start, span.end), '"robot"');
      }
    });
  }

  it('JSON that needs jsonc-parser (a comment): the same 1,000 ranges', () => {
    const text = `// a comment keeps JSON.parse out\n${JSON.stringify(body, null, 2)}`;
    const placed = placedRoles(text, 'json');
    assert.deepEqual(
      placed.map(p => p.index),
      bad,
    );
    for (const { span } of placed) assert.equal(text.slice(span.start, span.end), '"robot"');
  });

  it('YAML: 1,000 bad roles, each on the role value of its message', () => {
    const text = YAML.stringify(body);
    const placed = placedRoles(text, 'yaml');
    assert.deepEqual(
      placed.map(p => p.index),
      bad,
    );
    const doc = YAML.parseDocument(text);
    for (const { index, span } of placed) {
      const node = doc.getIn(['messages', index, 'role'], true) as YAML.Scalar;
      assert.deepEqual(span, { start: node.range![0], end: node.range![1] });
      assert.equal(text.slice(span.start, span.end), 'robot');
    }
  });

  it('YAML: 1,000 problems inside one list shared through an alias, all placed on the anchored field', () => {
    const doc = new YAML.Document(badRoles(2000, 2001).body);
    const messages = doc.get('messages') as YAML.YAMLSeq<YAML.YAMLMap>;
    const shared = doc.createNode([{ type: 'text', text: 'shared', colour: 'red' }]);
    shared.anchor = 'shared';
    const sharing = messages.items.filter(m => typeof m.get('content') === 'string').slice(0, 1000);
    sharing.forEach((m, k) => m.set('content', k === 0 ? shared : doc.createAlias(shared, 'shared')));
    const text = doc.toString();
    // a key a text block does not have: refused by the service, so an error of its own rule
    const unknown = validateText(text, 'yaml', { now: NOW }).problems.filter(p => p.code === 'extra-field-in-block');
    assert.equal(unknown.length, 1000);
    assert.equal(new Set(unknown.map(p => p.path.join('/'))).size, 1000);
    const anchored = text.indexOf('colour');
    for (const p of unknown) assert.deepEqual([p.start, p.end], [anchored, anchored + 'colour'.length]);
  });

  it('YAML: an alias stands for the last node before it with its anchor, as the yaml library resolves it', () => {
    const text =
      'model: model-opus-4-7\nmax_tokens: 5\nfirst: &turn {role: robot, content: one}\nmessages:\n' +
      '  - *turn\n  - {role: assistant, content: two}\n  - &turn {role: bot, content: three}\n  - *turn\n';
    const roles = validateText(text, 'yaml', { now: NOW }).problems.filter(p => p.code === 'invalid-value');
    const robot = text.indexOf('robot');
    const bot = text.indexOf('role: bot') + 'role: '.length;
    assert.deepEqual(
      roles.map(p => [p.path.join('/'), p.start, p.end]),
      [
        ['messages/0/role', robot, robot + 5],
        ['messages/2/role', bot, bot + 3],
        ['messages/3/role', bot, bot + 3],
      ],
    );
  });

  it('locateMany answers as locate does: every path and key, missing paths, later duplicates, escapes', () => {
    const texts = [
      // the last "x" counts, and what was under the first one is not there any more
      '\ufeff { "a\\"b" : 1, "x": [ {"k": "v\\\\"}, {"k": [1, {"z": null}]} ], "\\u0078": {"y": true, "k": []} }',
      '{"m":[{"r":"a","r":{"deep":[[],{}]}},{"r":"b"}],"m":[{"r":"c"}],"e":{},"n":[[[0]]],"s":"{[\\"]}"}',
      '[1, {"a": [2, 3]}, "x"]',
      '"just a string"',
      '{}',
      '{"skipped": ["}", "]", "\\"{", {"q": "[["}, "\\\\"], "wanted": {"k": 1}}',
      JSON.stringify({ a: [{ b: [{}, { c: 'd' }] }], e: 'f' }, null, '\t'),
      // without duplicates, found through the keys' places: items without keys, empty objects, an array root
      '{"a": [{}, [], "x", {"k": [ {}, {"m": 1} ]}, 3], "b": {"c": {}}, "d": {"e": [[{"f": 1}]]}}',
      ' [ {"a": 1}, [], {"b": {"c": 2}}, {} ] ',
      // integer-like keys come first in the value, whatever their place in the text
      '{"b": 1, "2": {"x": [1, {}]}, "a": {"1": 2, "z": [ {"k": 1}, [], {} , "s"]}}',
      // a wanted array whose items (or those after the last one wanted) hold keys: a request's system and tools
      '{"system": [{"type": "text", "text": "t"}], "tools": [{"name": "n"}], "m": [{"r": "u"}, {"r": "a", "c": 1}]}',
    ];
    for (const text of texts) {
      const parsed = parseRequest(text, 'json');
      assert.equal(parsed.problems.filter(p => p.code === 'json-syntax').length, 0, text);
      const paths = allPaths(parsed.value).concat(
        [['x', 0], ['x', 'y'], ['nope'], ['m', 0, 'r', 'deep', 1], ['m', 1], ['n', 0, 0, 1], ['a', -1], ['n', 0.5]],
        [
          ['1', 'a'],
          [1, '1'],
          [0, 0],
          ['s', 0],
        ],
      );
      // prepared for all of them, for some (the others answered by locate), for a few deep ones, for none
      const few: Path[] = [
        ['wanted', 'k'],
        ['m', 0, 'r'],
        ['x', 'k'],
      ];
      // and as the lenses ask: each top-level value, and the first item of each (a message)
      const parts = paths.filter(p => p.length === 1 || (p.length === 2 && p[1] === 0));
      const prepared = [paths, paths.filter((_, i) => i % 3 === 0), few, [], parts];
      for (const locate of prepared.map(p => parsed.locateMany(p))) {
        for (const path of paths)
          for (const key of [false, true])
            assert.deepEqual(locate(path, key), parsed.locate(path, key), `${JSON.stringify(path)} in ${text}`);
      }
    }
  });

  it('locateMany answers for a text checked before another one (its key offsets are read again)', () => {
    const first = parseRequest('{"a": {"b": [1, {"c": 2}]}, "d": "e"}', 'json');
    const second = parseRequest('{"x": 1, "y": {"z": [3]}}', 'json');
    const paths: Path[] = [['a', 'b', 1, 'c'], ['d'], ['a']];
    const locateFirst = first.locateMany(paths);
    const locateSecond = second.locateMany([['y', 'z', 0]]);
    for (const path of paths)
      for (const key of [false, true]) assert.deepEqual(locateFirst(path, key), first.locate(path, key));
    assert.deepEqual(locateSecond(['y', 'z', 0]), second.locate(['y', 'z', 0]));
  });

  it('the jsonc-parser path finds what findNodeAtLocation finds, keys included', () => {
    const text = '{"a": [1, {"b": 2, "b": 3}], /* c */ "c": {"d": {}}, "a": 4,}';
    const tree = jsonc.parseTree(text, [], { allowTrailingComma: true })!;
    const parsed = parseRequest(text, 'json');
    const locate = parsed.locateMany([['a', 1, 'b']]);
    for (const path of [[], ['a'], ['a', 1, 'b'], ['a', 0], ['a', 2], ['c', 'd'], ['c', 'x'], ['a', 'b']] as Path[]) {
      const node = jsonc.findNodeAtLocation(tree, path);
      const keyNode = node?.parent?.type === 'property' ? node.parent.children![0]! : node;
      const span = (n?: jsonc.Node) => (n ? { start: n.offset, end: n.offset + n.length } : undefined);
      assert.deepEqual(locate(path), span(node), JSON.stringify(path));
      assert.deepEqual(locate(path, true), span(keyNode), JSON.stringify(path));
    }
  });

  it('a value nested 100,000 deep before the problems neither throws nor moves them', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `{"metadata":{"user_id":"u","deep":${deep}},${JSON.stringify(body).slice(1)}`;
    const placed = placedRoles(text, 'json');
    assert.equal(placed.length, 1000);
    for (const { span } of placed) assert.equal(text.slice(span.start, span.end), '"robot"');
  });

  it('the span of each of 2,500 messages of a 50 MB file: found at once, not by a scan of the rest each', () => {
    // the token breakdown's lenses ask for every message: each span searched the 50 MB after it for a bracket no
    // message holds, 30 s in all
    const messages = Array.from({ length: 2500 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: 'x'.repeat(20_000),
    }));
    const text = JSON.stringify({ model: 'model-sonnet-4-6', max_tokens: 100, messages });
    const paths = messages.map((_, i) => ['messages', i]);
    const parsed = parseRequest(text, 'json');
    const t0 = performance.now();
    const locate = parsed.locateMany(paths);
    const spans = paths.map(p => locate(p)!);
    const ms = performance.now() - t0;
    const t1 = performance.now();
    JSON.parse(text);
    const parseMs = performance.now() - t1;
    for (const [i, span] of spans.entries())
      assert.deepEqual(JSON.parse(text.slice(span.start, span.end)), messages[i]);
    // linear: about a JSON.parse (the old way: 2,500 scans of the rest of the file, hundreds of them)
    assert.ok(ms < 20 * parseMs + 200, `${Math.round(ms)} ms to place them, JSON.parse ${Math.round(parseMs)} ms`);
  });
});
