import * as assert from 'node:assert/strict';
import * as YAML from 'yaml';
import { parseRequest, locateJson } from '../../../src/core/request/parse';
import { MAX_PER_RULE } from '../../../src/core/request/perRule';
import { check } from './helpers';

describe('parsing JSON (strict, as the API takes it)', () => {
  it('comments and trailing commas are errors at their place', () => {
    const s = check('{\n  // a comment\n  "model": "model-opus-4-7",\n  "max_tokens": 10,\n  "messages": [],\n}');
    assert.deepEqual(
      s.filter(p => p.code.startsWith('json-')).map(p => [p.code, p.at]),
      [
        ['json-comment', '// a comment'],
        ['json-trailing-comma', ','],
      ],
    );
  });
  it('syntax errors are reported with a message and the rest of the file is still checked', () => {
    const s = check('{"model": "model-opus-4-7", "max_tokens": 10 "messages": []}');
    assert.ok(s.some(p => p.code === 'json-syntax' && /comma is expected/.test(p.message)));
  });
  it('duplicate keys are reported on the second key, at any depth', () => {
    const s = check(
      '{"model":"a","model":"model-opus-4-7","max_tokens":1,"messages":[{"role":"user","role":"user","content":"x"}]}',
    );
    const d = s.filter(p => p.code === 'duplicate-key');
    assert.equal(d.length, 2);
    assert.deepEqual(
      d.map(p => p.path),
      ['model', 'messages/0/role'],
    );
  });
  it('an empty file, a non-object root, and a BOM are handled', () => {
    assert.match(check('')[0]!.message, /empty/);
    assert.match(check('[1,2]')[0]!.message, /one object/);
    assert.deepEqual(
      check('\ufeff{"model":"model-opus-4-7","max_tokens":1,"messages":[{"role":"user","content":"x"}]}'),
      [],
    );
  });
  it('locateJson finds keys and values through escapes, nesting and the last duplicate', () => {
    const text = '{ "a\\"b": 1, "x": [ {"k": "v\\\\"}, {"k": [1, {"z": null}]} ], "x": {"y": true} }';
    const at = (p: (string | number)[], key = false) => {
      const r = locateJson(text, p, key)!;
      return text.slice(r.start, r.end);
    };
    assert.equal(at(['a"b']), '1');
    assert.equal(at(['a"b'], true), '"a\\"b"');
    assert.equal(at(['x', 'y']), 'true'); // JSON.parse keeps the last "x"
    assert.equal(locateJson(text, ['x', 0]), undefined);
  });
  it('the fast path and the jsonc-parser path agree on ranges', () => {
    const text = JSON.stringify(
      { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: 'é"\\' }] }] },
      null,
      2,
    );
    const fast = parseRequest(text, 'json');
    const slow = parseRequest(`${text}\n// comment`, 'json');
    for (const p of [['messages', 0, 'content', 0, 'text'], ['max_tokens'], ['messages', 0]] as (string | number)[][]) {
      assert.deepEqual(fast.locate(p), slow.locate(p));
      assert.deepEqual(fast.locate(p, true), slow.locate(p, true));
    }
  });
});

describe('parsing YAML', () => {
  it('syntax errors are reported at their place', () => {
    const s = check('model: model-opus-4-7\nmessages: [a, b\nmax_tokens: 1\n', 'yaml');
    assert.ok(s.some(p => p.code === 'yaml-syntax'));
  });
  it('duplicate keys are errors', () => {
    const s = check('model: a\nmodel: b\nmax_tokens: 1\nmessages: []\n', 'yaml');
    assert.equal(s.filter(p => p.code === 'duplicate-key').length, 1);
  });
  it("duplicate keys: where the library's own check (uniqueKeys) puts them, in linear time", function () {
    this.timeout(30_000);
    const text = [
      'a: 1\na: 2\nb: {x: 1, x: 2}\n1: a\n1.0: b\n~: a\nnull: b\n.nan: 1\n.nan: 2\n"q": 1\nq: 2',
      '? [a]\n: 1\n? [a]\n: 2\n&k a2: 1\na2: 2\n<<: {m: 1}\n<<: {n: 2}\nl: [{u: 1, u: 2}]\nx:\n  y: 1\n  "y": 3\n',
    ].join('\n');
    const options = { uniqueKeys: true, merge: true, strict: true, prettyErrors: false, logLevel: 'error' } as const;
    const library = YAML.parseDocument(text, options).errors.filter(e => e.code === 'DUPLICATE_KEY');
    const ours = parseRequest(text, 'yaml').problems.filter(p => p.code === 'duplicate-key');
    assert.ok(library.length >= 8, `${library.length}`);
    assert.deepEqual(
      ours.map(p => p.start).sort((x, y) => x - y),
      library.map(e => e.pos[0]),
    );
    // 10,000 keys in one mapping, each once and then each again: about as long as the library takes to read them
    const keys = Array.from({ length: 10_000 }, (_, i) => `k${i}: 1`).join('\n');
    const big = `${keys}\n${keys}\n`;
    let t0 = performance.now();
    YAML.parseDocument(big, { ...options, uniqueKeys: false });
    const floor = performance.now() - t0;
    t0 = performance.now();
    const many = parseRequest(big, 'yaml').problems.filter(p => p.code === 'duplicate-key');
    const ms = performance.now() - t0;
    assert.ok(ms < 3 * floor + 200, `${ms.toFixed(0)} ms, the library reads it in ${floor.toFixed(0)} ms`);
    assert.equal(many.length, MAX_PER_RULE + 1, 'the first of them, and one that counts the rest');
    assert.match(many.at(-1)!.message, /^9,000 more duplicate-key problems in this file from here on are not shown/);
  });
  it('tabs used for indentation are errors that say so', () => {
    const s = check('model: a\nmessages:\n\t- role: user\n', 'yaml');
    assert.ok(
      s.some(p => p.severity === 'error'),
      JSON.stringify(s),
    );
  });
  it('a key that is a list is flagged as the unknown field it becomes, with no Node warning on stderr', async () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      const s = check('model: model-opus-4-7\nmax_tokens: 1\nmessages: []\n? [a, b]\n: 1\n', 'yaml');
      assert.deepEqual(
        s.filter(p => p.severity !== 'error').map(p => p.code),
        ['unknown-field'],
      );
      // Node emits a warning on the next tick
      await new Promise(resolve => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    assert.deepEqual(warnings, []);
  });
  it('several documents in one file are an error on the second one', () => {
    const s = check('model: model-opus-4-7\nmax_tokens: 1\nmessages: []\n---\nmodel: b\n', 'yaml');
    const p = s.find(x => x.code === 'yaml-multiple-documents')!;
    assert.ok(p.at.includes('model: b'));
  });
  it('aliases expand (the API takes JSON) and a "billion laughs" bomb is refused fast', () => {
    assert.deepEqual(
      check('model: &m model-opus-4-7\nmax_tokens: 1\nmessages:\n  - {role: user, content: *m}\n', 'yaml'),
      [],
    );
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const t0 = Date.now();
    const s = check(`${levels.join('\n')}\nmodel: x\n`, 'yaml');
    assert.ok(Date.now() - t0 < 2000, 'bounded time');
    assert.ok(
      s.some(p => p.code === 'yaml-alias' && /billion laughs/.test(p.message)),
      JSON.stringify(s),
    );
  });
  it('ranges: a wrong value on the value, an unknown key on the key, a missing field on the holding key', () => {
    const text =
      'model: model-opus-4-7\nmax_tokens: lots\nfoo: 1\nthinking:\n  type: enabled\nmessages:\n  - role: user\n' +
      '    content: hi\n';
    const s = check(text, 'yaml');
    assert.equal(s.find(p => p.path === 'max_tokens')!.at, 'lots');
    assert.equal(s.find(p => p.path === 'foo')!.at, 'foo');
    assert.equal(s.find(p => p.message.includes('budget_tokens'))!.at, 'thinking');
  });
});
