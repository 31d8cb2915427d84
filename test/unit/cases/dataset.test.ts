// Datasets: a case file's rows read from CSV, TSV, JSON Lines and JSON arrays in chunks (never whole), promptfoo's
// column conventions, stable case ids, duplicates, the columns against the request's placeholders, and the problems
// of a file that cannot be read, each at its line.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { caseIdOf, caseIdsOf } from '../../../src/core/cases/caseId';
import { readDataset } from '../../../src/core/cases/dataset';
import { assertionOfText } from '../../../src/core/cases/datasetRows';
import { scanSuite, unassertedRows, type SuiteScan } from '../../../src/core/cases/suite';
import type { Assertion, DatasetFormat, TestCase, VarValue } from '../../../src/core/cases/types';

const bytes = (s: string) => new TextEncoder().encode(s);

/** Sets a key, "__proto__" as a key of its own (as JSON.parse and a CSV header make it). */
const own = (o: Record<string, unknown>, k: string, v: unknown) =>
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

/** A text as byte chunks of `size` (a character's bytes may be cut between two). */
function* chunked(text: string | Uint8Array, size: number): Generator<Uint8Array> {
  const b = typeof text === 'string' ? bytes(text) : text;
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

async function scan(text: string | Uint8Array, format: DatasetFormat, placeholders = ['q'], size = 65_536) {
  return scanSuite({
    listed: [],
    dataset: { chunks: chunked(text, size), format },
    placeholders: new Set(placeholders),
    keep: true,
  });
}

const rows = (s: SuiteScan) => s.chosen.map(c => ({ name: c.name, line: c.line, vars: c.vars, assert: c.assert }));
const problems = (s: SuiteScan) => s.problems.map(p => `${p.line}:${p.column} ${p.severity} ${p.code}`);

/** Case ids as released: a change here changes the ids in users' CI history. */
const PINNED_IDS = [
  'cec8d1418fa574a8',
  '3ef366505c7404d0',
  'a7f9d5825782cbae',
  '592c0ad087dde9b5',
  'dada59b361dc3388',
  '4cb23602d54c304c',
];
/** What a scan of the generated CSV and JSON Lines files below gives, as released (a digest of all of it). */
const PINNED_CSV_SCAN = '73d4984059e83ae2edd86e65bf161d4c08e6404f4dac2d384ee92567bb85326f';
const PINNED_JSONL_SCAN = '45e9bbd09426d34c3b750c3bcf9cd1659c005544cfa8db3de8f3b36dfd9cc5a5';

describe('cases: datasets', () => {
  describe('CSV', () => {
    it('reads a BOM, CRLF line ends, quoted separators and newlines, and skips empty lines', async () => {
      const csv = '\uFEFFq,__description\r\nhello,first\r\n"a, b",\r\n"two\r\nlines",third\r\n\r\nlast,\r\n';
      for (const size of [1, 3, 65_536]) {
        const s = await scan(csv, 'csv', ['q'], size);
        assert.deepEqual(problems(s), [], `chunks of ${size}`);
        assert.deepEqual(
          s.chosen.map(c => [c.name, c.line, c.vars?.q]),
          [
            ['first', 2, 'hello'],
            ['row 3', 3, 'a, b'],
            ['third', 4, 'two\r\nlines'],
            ['row 7', 7, 'last'],
          ],
          `chunks of ${size}`,
        );
      }
    });

    it('a row starts on its line after values holding line ends of each kind, whatever the chunks', async () => {
      const lines = async (csv: string, size: number) => {
        const out: number[][] = [];
        for await (const batch of readDataset(chunked(csv, size), 'csv'))
          for (const item of batch) if (item.kind === 'record') out.push([item.line, item.endLine]);
        return out;
      };
      for (const size of [1, 2, 5, 65_536]) {
        const lf = 'q,n\na,1\n"b\rc",2\n"d\r\ne",3\n"f\ng",4\nh,5\n';
        assert.deepEqual(
          await lines(lf, size),
          [
            [2, 2],
            [3, 4],
            [5, 6],
            [7, 8],
            [9, 9],
          ],
          `chunks of ${size}`,
        );
        const crlf = 'q,n\r\na,1\r\n"b\r\nc",2\r\n\r\nd,3';
        assert.deepEqual(
          await lines(crlf, size),
          [
            [2, 2],
            [3, 4],
            [6, 6],
          ],
          `chunks of ${size}`,
        );
      }
    });

    it('an empty file and a header alone have no rows, and no error', async () => {
      for (const csv of ['', 'q\n', '\uFEFF', '\uFEFFq']) {
        const s = await scan(csv, 'csv', ['q']);
        assert.equal(s.total, 0);
        assert.deepEqual(
          s.problems.filter(p => p.severity === 'error'),
          [],
        );
      }
    });

    it('reads a 10 MB cell', async function () {
      this.timeout(60_000);
      const big = 'x'.repeat(10 * 1024 * 1024);
      const s = await scan(`q\n"${big}"\nsmall\n`, 'csv');
      assert.deepEqual(problems(s), []);
      assert.equal((s.chosen[0]!.vars!.q as string).length, big.length);
      assert.equal(s.chosen[1]!.line, 3);
    });

    it('a ragged row and a bad quote stop at their line, with what to do', async () => {
      const s = await scan('q,a\n1,2\n3\n4,5\n6,"7"x\n8,9\n', 'csv', ['q', 'a']);
      assert.deepEqual(problems(s), ['3:1 error dataset-syntax', '5:1 error dataset-syntax']);
      assert.match(s.problems[0]!.message, /1 fields; the header has 2/);
      assert.match(s.problems[1]!.message, /quote/);
      assert.deepEqual(
        s.chosen.map(c => c.line),
        [2, 4],
      );
    });

    it('invalid UTF-8 stops at its line, even when a chunk cuts a character in two', async () => {
      const text = bytes('q\nété\nok\n');
      const bad = new Uint8Array([...text, 0xff, 0x0a]);
      for (const size of [1, 2, 65_536]) {
        const s = await scan(bad, 'csv', ['q'], size);
        assert.deepEqual(problems(s), ['4:1 error dataset-syntax'], `chunks of ${size}`);
        assert.match(s.problems[0]!.message, /UTF-8/);
      }
      const good = await scan(text, 'csv', ['q'], 1);
      assert.deepEqual(
        good.chosen.map(c => c.vars?.q),
        ['été', 'ok'],
      );
    });

    it('TSV: tabs separate, a quote inside a value is kept', async () => {
      const s = await scan('q\t__expected\nsays "hi"\tcontains: hi\n', 'tsv');
      assert.deepEqual(problems(s), []);
      assert.deepEqual(rows(s), [{ name: 'row 2', line: 2, vars: { q: 'says "hi"' }, assert: [{ contains: 'hi' }] }]);
    });

    it('promptfoo columns: __expected, __expected1…, __description; kinds, llm-rubric, else equals', async () => {
      const csv = [
        'q,__expected,__expected1,__expected2,__description',
        'hi,contains: hello,llm-rubric: is friendly,max-output-tokens: 30,greeting',
        'capital,Paris,,,',
        'x,starts-with: Bon,is-json,not-contains:  no ,',
      ].join('\n');
      const s = await scan(csv, 'csv');
      assert.deepEqual(problems(s), []);
      assert.deepEqual(rows(s), [
        {
          name: 'greeting',
          line: 2,
          vars: { q: 'hi' },
          assert: [{ contains: 'hello' }, { rubric: 'is friendly' }, { 'max-output-tokens': 30 }],
        },
        { name: 'row 3', line: 3, vars: { q: 'capital' }, assert: [{ equals: 'Paris' }] },
        {
          name: 'row 4',
          line: 4,
          vars: { q: 'x' },
          assert: [{ regex: '^Bon' }, { 'json-schema': {} }, { 'not-contains': 'no' }],
        },
      ]);
    });

    it('a promptfoo kind with no equivalent, a bad number or a bad pattern is an error of its row', async () => {
      const s = await scan('q,__expected\na,javascript: output.length < 5\nb,max-cost: cheap\nc,regex: (\n', 'csv');
      assert.deepEqual(problems(s), ['2:1 error dataset-row', '3:1 error dataset-row', '4:1 error dataset-row']);
      assert.match(s.problems[0]!.message, /"javascript" is a promptfoo assertion with no equivalent/);
      assert.deepEqual(assertionOfText('http://example.com'), { assertion: { equals: 'http://example.com' } });
    });

    it('columns against the placeholders: a missing one is an error, an unused one ONE warning', async () => {
      const csv = `question,extra,__metric\n${Array.from({ length: 50 }, (_, i) => `q${i},e${i},m`).join('\n')}\n`;
      const s = await scan(csv, 'csv', ['q', 'question']);
      assert.deepEqual(problems(s), [
        '1:10 warning unused-column',
        '1:16 warning unused-column',
        '1:1 error undefined-placeholder',
      ]);
      assert.equal(s.total, 50);
    });
  });

  describe('JSON Lines and JSON', () => {
    it('JSON Lines: rows of values, case objects (ours and promptfoo’s assertions), a bad line', async () => {
      const jsonl = [
        '{"q": "a", "__expected": "contains: a"}',
        '{"q": bad}',
        '',
        '{"name": "obj", "vars": {"q": "c"}, "assert": [{"contains": "c"}, ' +
          '{"type": "llm-rubric", "value": "ok", "threshold": 0.5}]}',
        '{"vars": {"q": 1}, "options": {}}\r',
        '["not an object"]',
      ].join('\n');
      const s = await scan(jsonl, 'jsonl');
      assert.deepEqual(problems(s), [
        '2:1 error dataset-syntax',
        '5:20 warning unused-column',
        '6:1 error dataset-row',
      ]);
      assert.deepEqual(rows(s), [
        { name: 'row 1', line: 1, vars: { q: 'a' }, assert: [{ contains: 'a' }] },
        {
          name: 'obj',
          line: 4,
          vars: { q: 'c' },
          assert: [{ contains: 'c' }, { rubric: { criteria: 'ok', threshold: 0.5 } }],
        },
        { name: 'row 5', line: 5, vars: { q: 1 }, assert: undefined },
      ]);
    });

    it('JSON Lines: a row without a placeholder’s value is an error; an unused key one warning', async () => {
      const s = await scan('{"q": "a", "x": 1}\n{"x": 2}\n{"x": 3, "q": "b"}\n', 'jsonl');
      assert.deepEqual(problems(s), ['1:12 warning unused-column', '2:1 error undefined-placeholder']);
    });

    it('a JSON array is read an element at a time, whatever its chunks and the brackets in its strings', async () => {
      const json = '[\n  {"q": "a, ] }"},\n  {"q": "b\\"[", "n": [1, {"k": "}"}]},\n  {"q": "c"}\n]\n';
      for (const size of [1, 5, 65_536]) {
        const s = await scan(json, 'json', ['q'], size);
        // "n" is a list: an error of its row, at the key
        assert.deepEqual(problems(s), ['3:17 error dataset-row'], `chunks of ${size}`);
        assert.deepEqual(
          s.chosen.map(c => [c.line, c.vars?.q]),
          [
            [2, 'a, ] }'],
            [3, 'b"['],
            [4, 'c'],
          ],
          `chunks of ${size}`,
        );
      }
      assert.deepEqual(problems(await scan('{"q": 1}', 'json')), ['1:1 error dataset-syntax']);
      assert.deepEqual(problems(await scan('[{"q": "a"},', 'json')), ['1:12 error dataset-syntax']);
      assert.deepEqual(problems(await scan('[{"q": "a"}] []', 'json')), ['1:14 error dataset-syntax']);
      assert.deepEqual(problems(await scan('[{"q": "a"},,{"q":"b"}]', 'json')), ['1:13 error dataset-syntax']);
    });
  });

  describe('case ids', () => {
    it('a case keeps its id when rows move around it; its name counts only when given', async () => {
      const a = await scan('q,__description\none,\ntwo,named\nthree,\n', 'csv');
      const b = await scan('q,__description\nzero,\nthree,\ntwo,named\nfour,\n', 'csv');
      const idOf = (s: SuiteScan, q: string) => s.chosen.find(c => c.vars?.q === q)!.id;
      assert.equal(idOf(a, 'two'), idOf(b, 'two'));
      assert.equal(idOf(a, 'three'), idOf(b, 'three'));
      assert.notEqual(idOf(a, 'one'), idOf(a, 'three'));
      assert.equal(
        caseIdOf({ name: 'row 2', vars: { q: 'x' } }, false),
        caseIdOf({ name: 'row 9', vars: { q: 'x' } }, false),
      );
      assert.notEqual(caseIdOf({ name: 'a', vars: { q: 'x' } }, true), caseIdOf({ name: 'b', vars: { q: 'x' } }, true));
      assert.equal(
        caseIdOf({ name: 'a', vars: { q: 'x', r: 'y' } }, true),
        caseIdOf({ name: 'a', vars: { r: 'y', q: 'x' } }, true),
      );
      assert.match(idOf(a, 'one'), /^[0-9a-f]{16}$/);
    });

    it('ids are stable across releases: these cases keep the ids users have in their CI history', () => {
      const ids = [
        caseIdOf({ name: 'row 2', vars: { q: 'hello' } }, false),
        caseIdOf({ name: 'row 7', vars: { word: 'w0' }, assert: [{ contains: 'w0' }] }, false),
        caseIdOf(
          {
            name: 'greeting',
            vars: { q: 'hi', n: 3, ok: true },
            assert: [{ rubric: 'is friendly' }, { 'max-output-tokens': 30 }],
          },
          true,
        ),
        caseIdOf({ name: 'été "quoted"\n', vars: { b: 'naïve, 😀', a: '\u2028\\' } }, true),
        caseIdOf(
          { name: 'x', vars: {}, assert: [{ rubric: { criteria: 'c', threshold: 0.5 } }, { 'json-schema': {} }] },
          false,
        ),
        caseIdOf({ name: 'x', vars: JSON.parse('{"__proto__": "p", "z": -0.5, "10": "a", "9": "b"}') }, false),
      ];
      assert.deepEqual(ids, PINNED_IDS);
    });

    it("a batch's ids, hashed in a loop of their own, are each case's own; none where a row is no case", async () => {
      const rows = [
        { testCase: { name: 'row 2', vars: { q: 'hello' } }, named: false },
        undefined,
        { named: false },
        { testCase: { name: 'greeting', vars: { q: 'hi' }, assert: [{ contains: 'hi' }] }, named: true },
      ];
      const one = (i: number) => caseIdOf(rows[i]!.testCase!, rows[i]!.named);
      assert.deepEqual(caseIdsOf(rows), [one(0), undefined, undefined, one(3)]);
      // the suite's scan hashes its rows a batch at a time: its ids are the pinned ones
      const scanned = await scan('q\nhello\n', 'csv');
      assert.equal(scanned.chosen[0]!.id, PINNED_IDS[0]);
    });

    it('an id is the first 16 hex digits of the SHA-256 of JSON.stringify([name, keys, values, assertions])', () => {
      const odd = [
        'plain',
        '',
        'q"uote \\ back\u0000\u001f\u007f',
        'é😀\u2028',
        '\ud800 lone',
        'lone \udfff',
        0,
        -0,
        1e21,
        -1.5e-7,
        NaN,
        Infinity,
        true,
        false,
        null,
        undefined,
      ];
      let seed = 7;
      const pick = <T>(a: readonly T[]): T => a[(seed = (seed * 48271) % 2147483647) % a.length]!;
      const value = (depth: number): unknown => {
        const kind = depth > 3 ? 0 : pick([0, 0, 0, 1, 2, 3]);
        if (kind === 0) return pick(odd);
        if (kind === 1) return Array.from({ length: pick([0, 1, 3]) }, () => value(depth + 1));
        if (kind === 3) return new Date(0);
        const o: Record<string, unknown> = {};
        for (const k of ['b', '10', '2', '__proto__', 'a"\\', '']) if (pick([0, 1])) own(o, k, value(depth + 1));
        return o;
      };
      const reference = (c: TestCase, named: boolean) => {
        const keys = Object.keys(c.vars ?? {}).sort();
        const text = JSON.stringify([named ? c.name : null, keys, keys.map(k => c.vars![k]), c.assert ?? []]);
        return crypto.hash('sha256', text, 'hex').slice(0, 16);
      };
      for (let i = 0; i < 2000; i++) {
        const vars: Record<string, VarValue> = {};
        for (const k of ['q', 'a', 'é', '__proto__', 'Z', '1']) if (pick([0, 1])) own(vars, k, pick(odd));
        const c = {
          name: String(pick(odd)),
          vars,
          ...(pick([0, 1]) ? { assert: Array.from({ length: 3 }, () => value(0)) as Assertion[] } : {}),
        };
        for (const named of [true, false]) assert.equal(caseIdOf(c, named), reference(c, named), JSON.stringify(c));
      }
      let deep: unknown = 'x';
      for (let i = 0; i < 3000; i++) deep = i % 2 ? [deep] : { x: deep };
      const c = { name: 'deep', vars: {}, assert: [deep as Assertion] };
      assert.equal(caseIdOf(c, true), reference(c, true));
      // an enumerable key on Object.prototype (for…in finds it): not part of any id, as JSON.stringify leaves it out
      const polluted: TestCase[] = [
        { name: 'p', vars: { q: 'a' }, assert: [{ contains: 'a' }] },
        { name: 'p', vars: { q: 'b', r: 1 }, assert: [{ 'json-schema': { type: 'object' } }] as Assertion[] },
      ];
      for (const p of polluted) caseIdOf(p, false);
      Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, configurable: true });
      try {
        for (const p of polluted) assert.equal(caseIdOf(p, false), reference(p, false));
      } finally {
        delete (Object.prototype as { polluted?: unknown }).polluted;
      }
    });

    it('a dataset of every kind of row reads as it always has: cases, ids, assertions, lines, problems', async () => {
      const lines = ['q,__expected,__expected1,__description,n'];
      for (let i = 0; i < 3000; i++) {
        const q = i % 7 === 0 ? `"say ""${i}"", please"` : i % 11 === 0 ? `"two\r\nlines ${i}"` : `w${i}`;
        const kinds = ['contains: w', 'llm-rubric: kind ', 'Paris ', '', 'max-output-tokens: ', 'starts-with: B.'];
        const e = i % 8 === 6 ? 'is-json' : i % 8 === 7 ? ' icontains:  x ' : `${kinds[i % 8]}${i}`;
        const row = `${q},${e},${i % 5 ? '' : `regex: ^a${i}`},${i % 3 ? '' : `case ${i % 300}`},${i % 13}`;
        lines.push(row);
        if (i % 97 === 0) lines.push(row);
        if (i % 401 === 0) lines.push('ragged');
        if (i % 499 === 0) lines.push('');
      }
      const text = `${lines.join('\n')}\n`;
      const digest = (s: SuiteScan) =>
        crypto.hash('sha256', JSON.stringify([s.chosen, s.problems, s.total, s.rows, s.unasserted]), 'hex');
      for (const size of [7, 65_536]) assert.equal(digest(await scan(text, 'csv', ['q'], size)), PINNED_CSV_SCAN);
      const jsonl = Array.from({ length: 500 }, (_, i) =>
        i % 2
          ? JSON.stringify({ q: `w${i}`, n: i, __expected: `contains: ${i}` })
          : JSON.stringify({ name: i % 4 ? `n${i}` : '', vars: { q: i, b: i % 3 === 0 }, assert: [`equals: ${i}`] }),
      ).join('\n');
      assert.equal(digest(await scan(jsonl, 'jsonl', ['q'], 100)), PINNED_JSONL_SCAN);
    });

    it('a column named twice is an error at the header, and each row reads the later one', async () => {
      const s = await scan('q,__expected,q,__expected,__description\na,contains: x,b,contains: y,one\n', 'csv');
      assert.deepEqual(problems(s), ['1:14 error dataset-syntax', '1:16 error dataset-syntax']);
      assert.deepEqual(rows(s), [{ name: 'one', line: 2, vars: { q: 'b' }, assert: [{ contains: 'y' }] }]);
    });

    it('the same content and name twice: duplicate-case-name, both lines; a name given twice told apart', async () => {
      const s = await scan('q,__description\nsame,n\nother,n\nsame,n\nsame,n\n', 'csv');
      assert.deepEqual(problems(s), ['4:1 error duplicate-case-name', '5:1 error duplicate-case-name']);
      assert.match(s.problems[0]!.message, /Line 4 and line 2 are the same case/);
      assert.deepEqual(
        s.chosen.map(c => c.name),
        ['n', 'n (line 3)'],
      );
    });
  });

  describe('a page of rows (the Test Explorer)', () => {
    it('a page is the rows a run names, each with its lines; the reading stops at the row after it', async () => {
      const text = 'q,__description\nsame,n\n"two\nlines",n\nsame,n\nd,x\ne,y\n';
      const page = async (from: number, size: number, chunks: Iterable<Uint8Array> = chunked(text, 7)) => {
        const s = await scanSuite({ listed: [], dataset: { chunks, format: 'csv' }, page: { from, size } });
        return { rows: s.chosen.map(c => `${c.name}@${c.line}-${c.endLine}`), more: s.more };
      };
      // the duplicate at line 5 is no row; the second "n" is told apart as a run tells it
      assert.deepEqual(await page(0, 2), { rows: ['n@2-2', 'n (line 3)@3-4'], more: true });
      assert.deepEqual(await page(2, 2), { rows: ['x@6-6', 'y@7-7'], more: false });
      assert.deepEqual(await page(4, 2), { rows: [], more: false });
      // the reading stops after the page (the streams read ahead by their buffers): a file of endless rows gives one
      let read = 0;
      function* endless(): Generator<Uint8Array> {
        yield bytes('q\n');
        for (let k = 0; ; k++) {
          read++;
          yield bytes(Array.from({ length: 100 }, (_, j) => `r${k}-${j}\n`).join(''));
        }
      }
      const first = await page(100, 50, endless());
      assert.deepEqual(first.rows.slice(0, 2), ['row 102@102-102', 'row 103@103-103']);
      assert.equal(first.more, true);
      assert.ok(read < 1000, `${read} chunks of 100 rows read`);
    });

    it('a JSON element over several lines ends at its last line', async () => {
      const s = await scanSuite({
        listed: [],
        dataset: { chunks: ['[{"q": 1},\n {\n  "q": 2\n }]'], format: 'json' },
        page: { from: 0, size: 5 },
      });
      assert.deepEqual(
        s.chosen.map(c => `${c.line}-${c.endLine}`),
        ['1-1', '2-4'],
      );
    });
  });

  describe('the case file', () => {
    it('takes dataset and a file-level assert, and cases may be left out (or empty) with a dataset', () => {
      const ok = parseCaseFile('request: r.prompt.yaml\ndataset: d.csv\nassert:\n  - max-output-tokens: 300\n', 'yaml');
      assert.deepEqual(ok.problems, []);
      assert.deepEqual(ok.file, {
        request: 'r.prompt.yaml',
        dataset: 'd.csv',
        assert: [{ 'max-output-tokens': 300 }],
        cases: [],
      });
      assert.deepEqual(parseCaseFile('request: r.prompt.yaml\ndataset: d.csv\ncases: []\n', 'yaml').problems, []);
      const codes = (t: string) => parseCaseFile(t, 'yaml').problems.map(p => p.code);
      assert.deepEqual(codes('request: r.prompt.yaml\n'), ['case-missing-field']);
      assert.deepEqual(codes('request: r.prompt.yaml\ncases: []\n'), ['case-invalid-value']);
      assert.deepEqual(codes('request: r.prompt.yaml\ndataset: d.xlsx\n'), ['case-invalid-value']);
      assert.deepEqual(codes('request: r.prompt.yaml\ndataset: d.csv\nassert:\n  - regex: "("\n'), ['invalid-regex']);
      assert.deepEqual(codes('request: r.prompt.yaml\ndataset: d.csv\nassert:\n  - contain: x\n'), [
        'unknown-assertion',
      ]);
    });
  });

  it('rows with no assertion, in a file with no assert:, are ONE case-without-assertions warning', async () => {
    const warn = async (caseFile: string, csv: string) => {
      const parsed = parseCaseFile(caseFile, 'yaml');
      return unassertedRows(parsed.file!, await scan(csv, 'csv'), parsed.locate);
    };
    const bare = 'request: r.prompt.yaml\ndataset: d.csv\n';
    const all = await warn(bare, `q\n${Array.from({ length: 5000 }, (_, i) => `q${i}\n`).join('')}`);
    assert.equal(all?.code, 'case-without-assertions');
    assert.equal(all?.severity, 'warning');
    assert.equal(all?.start, bare.indexOf('d.csv'));
    assert.match(all?.message ?? '', /^No row of d\.csv has an assertion, and the case file has no "assert:"/);
    const some = await warn(bare, 'q,__expected\na,contains: a\nb,\nc,\n');
    assert.match(some?.message ?? '', /^2 rows of d\.csv \(the first at line 3\) have no assertion/);
    assert.equal(await warn(bare, 'q,__expected\na,contains: a\n'), undefined);
    // the file's own assert: is every row's
    assert.equal(await warn(`${bare}assert: [{ max-output-tokens: 300 }]\n`, 'q\na\nb\n'), undefined);
  });

  it('RULES.md: each dataset rule’s CSV example fires it, and its fixed version is clean', async () => {
    const lines = fs.readFileSync('RULES.md', 'utf8').split('\n');
    for (const rule of ['dataset-syntax', 'dataset-row', 'unused-column']) {
      const from = lines.indexOf(`### ${rule}`);
      const to = lines.findIndex((l, i) => i > from && l.startsWith('### '));
      const fences: { text: string; fixed: boolean }[] = [];
      for (let i = from; i < (to < 0 ? lines.length : to); i++) {
        if (lines[i] !== '```csv') continue;
        const end = lines.indexOf('```', i + 1);
        const before = lines
          .slice(from, i)
          .reverse()
          .find(l => l.trim());
        fences.push({ text: `${lines.slice(i + 1, end).join('\n')}\n`, fixed: /^Fixed/.test(before ?? '') });
        i = end;
      }
      assert.equal(fences.length, 2, rule);
      for (const f of fences) {
        const s = await scan(f.text, 'csv', ['question']);
        const codes = s.problems.map(p => p.code);
        assert.equal(codes.includes(rule as never), !f.fixed, `${rule}: ${codes.join(', ')}\n${f.text}`);
        if (f.fixed) assert.deepEqual(codes, [], rule);
      }
    }
  });

  // a minute or more of parsing: run with PROMPTWRIGHT_LARGE_TESTS=1 (the bench reads a million rows every run)
  const large = process.env.PROMPTWRIGHT_LARGE_TESTS === '1' ? it : it.skip;
  large('reads the records of a stream without holding it: a 1 GB CSV made as it is read', async function () {
    this.timeout(1_800_000);
    const row = `${'lorem ipsum dolor sit amet '.repeat(9)},contains: x\n`;
    const n = Math.ceil((1024 * 1024 * 1024) / row.length);
    const chunk = bytes(row.repeat(256));
    async function* big() {
      yield bytes('q,__expected\n');
      for (let i = 0; i < n; i += 256) yield chunk;
    }
    let records = 0;
    let last = 0;
    const before = process.memoryUsage().rss;
    let peak = before;
    for await (const batch of readDataset(big(), 'csv'))
      for (const item of batch) {
        if (item.kind === 'problem') assert.fail(item.message);
        if (item.kind !== 'record') continue;
        records++;
        last = item.line;
        if (records % 100_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
      }
    const expected = Math.ceil(n / 256) * 256;
    assert.equal(records, expected);
    assert.equal(last, expected + 1);
    assert.ok(peak - before < 200 * 1024 * 1024, `memory grew by ${Math.round((peak - before) / 1e6)} MB`);
  });
});
