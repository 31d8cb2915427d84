// `promptwright test` and `promptwright count` on case files, against the fake service: each output format
// (text, json, JUnit XML that is well-formed and escaped), each exit code (0 all pass, 1 a failed assertion
// or request, 2 nothing sent, 130 cancelled), the concurrency limit as the fake saw it, and count's budget.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../../src/cli/main';
import { cliEnv, useFake } from '../../support/fake';

interface Run {
  code: number;
  out: string;
  err: string;
}

const REQUEST = `model: model-sonnet-4-6
max_tokens: 100
messages:
  - role: user
    content: "{{question}}"
`;

/**
 * Checks that a text is well-formed XML as far as a JUnit reader needs: tags nest and close, attribute
 * values are quoted and hold no `<`, text holds no raw `<` or `&` that is not an entity, and only
 * characters XML 1.0 allows. Returns the elements by name with their attributes.
 */
function parseXml(xml: string): { name: string; attrs: Record<string, string>; text: string }[] {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'), 'the XML declaration');
  assert.doesNotMatch(xml, /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u, 'only XML characters');
  const body = xml.slice(xml.indexOf('\n') + 1);
  const stack: string[] = [];
  const elements: { name: string; attrs: Record<string, string>; text: string }[] = [];
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi;
  const token = /<(\/?)([\w-]+)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let last = 0;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    last = token.lastIndex;
    if (m[5] !== undefined) {
      assert.doesNotMatch(m[5].replace(entity, ''), /[&<]/, `raw markup in text: ${m[5]}`);
      if (elements.length && stack.length) elements[elements.length - 1]!.text += m[5];
      continue;
    }
    const [, closing, name, attrText, selfClosing] = m;
    if (closing) {
      assert.equal(stack.pop(), name, `</${name}> closes what was open`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText!.matchAll(/([\w-]+)="([^"]*)"/g)) {
      assert.doesNotMatch(a[2]!.replace(entity, ''), /&/, `raw & in an attribute: ${a[2]}`);
      attrs[a[1]!] = a[2]!.replace(
        entity,
        e =>
          ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" })[e] ??
          String.fromCodePoint(Number(e.slice(2, -1))),
      );
    }
    elements.push({ name: name!, attrs, text: '' });
    if (!selfClosing) stack.push(name!);
  }
  assert.equal(last, body.length, `unreadable XML at ${body.slice(last, last + 40)}`);
  assert.deepEqual(stack, [], 'every element is closed');
  return elements;
}

describe('promptwright test / count on case files (CLI, against the fake)', function () {
  this.timeout(20_000);
  const fake = useFake();
  let dir: string;
  let env: Record<string, string>;
  let cwd: string;
  before(async () => {
    env = cliEnv(fake, { PROMPTWRIGHT_MAX_RETRIES: '0' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cli-test-'));
    for (const f of ['support.prompt.yaml', 'support.cases.yaml'])
      fs.copyFileSync(path.join('test', 'fixtures', 'steered', f), path.join(dir, f));
    fs.writeFileSync(path.join(dir, 'q.prompt.yaml'), REQUEST);
    cwd = process.cwd();
    process.chdir(dir);
  });
  after(async () => {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function cli(args: string[], o: { env?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Run> {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      stdout: { write: s => (out += s) },
      stderr: { write: s => (err += s) },
      env: { ...env, ...o.env },
      ...(o.signal ? { signal: o.signal } : {}),
    });
    return { code, out, err };
  }

  /** A case file next to q.prompt.yaml, its cases given as YAML lines. */
  function caseFile(name: string, cases: string, head = 'request: q.prompt.yaml\n'): string {
    fs.writeFileSync(name, `${head}cases:\n${cases}`);
    return name;
  }

  describe('test', () => {
    it('text: the example, every cell in order; the deliberate failure exits 1', async () => {
      const r = await cli(['test', 'support.cases.yaml']);
      assert.equal(r.code, 1, r.err);
      const lines = r.out.split('\n');
      assert.equal(lines[0], 'support.cases.yaml');
      assert.deepEqual(
        lines
          .filter(l => /^ {2}\S/.test(l))
          .map(l =>
            l
              .trim()
              .replace(/\s+\(.*\)$/, '')
              .replace(/\s+/, ' '),
          ),
        [
          'FAIL refund in French · model-sonnet-4-6',
          'FAIL refund in French · model-haiku-4-5',
          'PASS weather for a delivery · model-sonnet-4-6',
          'PASS weather for a delivery · model-haiku-4-5',
          'PASS order status as JSON · model-sonnet-4-6',
          'PASS order status as JSON · model-haiku-4-5',
        ],
      );
      assert.match(
        r.out,
        /✗ regex \/\^Bonjour\/: no match in the reply \(the reply: "Hello! You said: Puis-je être remboursé \?"\)/,
      );
      assert.match(r.out, /^6 cells: 4 passed, 2 failed; 26 of 28 assertions held · \$0\.\d{4}$/m);
      assert.equal(fake.requests.length, 6);
      assert.deepEqual(fake.requests.map(q => (q.body as { model: string }).model).sort(), [
        'model-haiku-4-5',
        'model-haiku-4-5',
        'model-haiku-4-5',
        'model-sonnet-4-6',
        'model-sonnet-4-6',
        'model-sonnet-4-6',
      ]);
      const first = fake.requests.find(q => JSON.stringify(q.body).includes('rembours'))!.body as {
        system: string;
        messages: { content: string }[];
      };
      assert.match(first.system, /in a formal tone/);
      assert.equal(first.messages[0]!.content, 'Puis-je être remboursé ?');
    });

    it('json: one record per cell with what the cell did', async () => {
      const r = await cli(['test', '--format', 'json', '.']);
      assert.equal(r.code, 1);
      const cells = JSON.parse(r.out) as Record<string, unknown>[];
      assert.deepEqual(
        cells.map(c => [c.file, c.case, c.model, c.pass]),
        [
          ['support.cases.yaml', 'refund in French', 'model-sonnet-4-6', false],
          ['support.cases.yaml', 'refund in French', 'model-haiku-4-5', false],
          ['support.cases.yaml', 'weather for a delivery', 'model-sonnet-4-6', true],
          ['support.cases.yaml', 'weather for a delivery', 'model-haiku-4-5', true],
          ['support.cases.yaml', 'order status as JSON', 'model-sonnet-4-6', true],
          ['support.cases.yaml', 'order status as JSON', 'model-haiku-4-5', true],
        ],
      );
      const c = cells[4]!;
      assert.deepEqual(Object.keys(c), [
        'file',
        'case',
        'case_id',
        'model',
        'pass',
        'status',
        'assertions',
        'text',
        'usage',
        'stop_reason',
        'latency_ms',
        'waited_ms',
        'request_id',
        'samples',
        'passed_samples',
        'min_pass',
        'flaky',
        'cost_usd',
        'judge_cost_usd',
      ]);
      assert.equal(c.text, '{"answer":"Where is order 1234? Answer in JSON."}');
      // one sample: the cell's own; its cost from the usage and the built-in price of model-sonnet-4-6
      const samples = c.samples as { text: string; cost_usd: number; usage: { input_tokens: number } }[];
      assert.equal(samples.length, 1);
      assert.equal(samples[0]!.text, c.text);
      const usage = c.usage as { input_tokens: number; output_tokens: number };
      assert.equal(c.cost_usd, (usage.input_tokens * 3 + usage.output_tokens * 15) / 1e6);
      assert.deepEqual([c.passed_samples, c.min_pass, c.flaky, c.judge_cost_usd], [1, 1, false, null]);
      assert.equal(c.stop_reason, 'end_turn');
      assert.equal(typeof c.latency_ms, 'number');
      assert.match(c.request_id as string, /^req_fake_stream_\d+$/);
      assert.ok((c.usage as { input_tokens: number }).input_tokens > 0);
      assert.deepEqual(
        (c.assertions as { type: string; pass: boolean }[]).map(a => [a.type, a.pass]),
        [
          ['json-schema', true],
          ['contains', true],
          ['max-output-tokens', true],
        ],
      );
      const failed = (cells[0]!.assertions as { type: string; pass: boolean; message: string }[]).find(a => !a.pass)!;
      assert.equal(failed.type, 'regex');
    });

    it('junit: well-formed, a testsuite per file, a testcase per cell, failures and errors, all escaped', async () => {
      const tricky = 'Say <b>&amp;</b> "quoted" \'single\' ]]> \u0001 bell\ttab';
      caseFile(
        'tricky.cases.yaml',
        `  - name: "a <case> & \\"more\\""\n    vars: { question: ${JSON.stringify(tricky)} }\n` +
          '    assert:\n      - contains: nope\n',
      );
      const r = await cli(['test', '--format=junit', 'tricky.cases.yaml', 'support.cases.yaml']);
      assert.equal(r.code, 1);
      const xml = parseXml(r.out);
      const names = (n: string) => xml.filter(e => e.name === n);
      assert.equal(names('testsuites').length, 1);
      assert.deepEqual(names('testsuites')[0]!.attrs, {
        name: 'promptwright test',
        tests: '7',
        failures: '3',
        errors: '0',
        skipped: '0',
        time: names('testsuites')[0]!.attrs.time!,
      });
      assert.deepEqual(
        names('testsuite').map(s => [s.attrs.name, s.attrs.tests, s.attrs.failures]),
        [
          ['support.cases.yaml', '6', '2'],
          ['tricky.cases.yaml', '1', '1'],
        ].sort((a, b) => r.out.indexOf(`name="${a[0]}"`) - r.out.indexOf(`name="${b[0]}"`)),
      );
      const trickyCase = names('testcase').find(t => t.attrs.classname === 'tricky.cases.yaml')!;
      assert.equal(trickyCase.attrs.name, 'a <case> & "more" on model-sonnet-4-6');
      const failure = names('failure').find(f => f.attrs.message!.startsWith('contains "nope"'))!;
      assert.ok(failure.attrs.message!.includes('Say <b>&amp;</b> \\"quoted\\"'), failure.attrs.message);
      assert.equal(failure.attrs.type, 'assertion');
      assert.match(
        r.out,
        /<system-out>Hello! You said: Say &lt;b&gt;&amp;amp;&lt;\/b&gt; "quoted" 'single' \]\]&gt; \\x01 bell\ttab<\/system-out>/,
      );
      assert.equal(names('testcase').length, 7);
      assert.ok(names('testcase').every(t => /^\d+\.\d{3}$/.test(t.attrs.time!)));
    });

    it('junit: a failed request is an <error> with its type and request-id; text: ERROR; exit 1', async () => {
      caseFile('one.cases.yaml', '  - name: only\n    vars: { question: hi }\n    assert: [ { contains: hi } ]\n');
      fake.fail({ status: 529, errorType: 'overloaded_error', message: 'Overloaded' });
      const r = await cli(['test', '--format', 'junit', 'one.cases.yaml']);
      assert.equal(r.code, 1);
      const error = parseXml(r.out).find(e => e.name === 'error')!;
      assert.equal(error.attrs.type, 'overloaded_error');
      assert.match(error.attrs.message!, /^overloaded_error: Overloaded \(request-id req_fake_\d+\)$/);
      fake.fail({ status: 529, errorType: 'overloaded_error', message: 'Overloaded' });
      const text = await cli(['test', 'one.cases.yaml']);
      assert.equal(text.code, 1);
      assert.match(
        text.out,
        /ERROR {5}only · model-sonnet-4-6 .*\n {12}overloaded_error: Overloaded \(request-id req_fake_\d+\)/,
      );
      assert.match(text.out, /1 cell: 0 passed, 0 failed, 1 could not run \(the request failed\)/);
    });

    it('exit 0 when every assertion holds; --model replaces the models', async () => {
      caseFile(
        'pass.cases.yaml',
        '  - name: a\n    vars: { question: hi }\n' +
          '    assert: [ { contains: "You said: hi" }, { stop_reason: end_turn } ]\n' +
          '  - name: b\n    vars: { question: yo }\n    assert: [ { equals: "Hello! You said: yo" } ]\n',
        'request: q.prompt.yaml\nmodels: [model-opus-4-7]\n',
      );
      const r = await cli(['test', 'pass.cases.yaml', '--model', 'model-haiku-4-5', '--model', 'model-opus-4-6']);
      assert.equal(r.code, 0, r.out + r.err);
      assert.deepEqual(fake.requests.map(q => (q.body as { model: string }).model).sort(), [
        'model-haiku-4-5',
        'model-haiku-4-5',
        'model-opus-4-6',
        'model-opus-4-6',
      ]);
      assert.match(r.out, /4 cells: 4 passed, 0 failed; 6 of 6 assertions held/);
    });

    it('exit 2 and nothing sent: a case file with errors, a request with errors, a missing value', async () => {
      const bad = caseFile(
        'bad.cases.yaml',
        '  - name: a\n    vars: { question: hi }\n    assert: [ { contain: hi } ]\n',
      );
      let r = await cli(['test', bad]);
      assert.equal(r.code, 2);
      assert.match(
        r.err,
        /^bad\.cases\.yaml:5:17: error unknown-assertion: Unknown assertion "contain"\. Did you mean "contains"\?$/m,
      );
      assert.match(r.err, /promptwright test: nothing sent: 1 error \(above\)/);

      fs.writeFileSync(
        'nomax.prompt.yaml',
        'model: model-opus-4-7\nmessages: [ { role: user, content: "{{question}}" } ]\n',
      );
      caseFile(
        'nomax.cases.yaml',
        '  - name: a\n    vars: { question: hi }\n  - name: b\n    vars: { question: yo }\n',
        'request: nomax.prompt.yaml\n',
      );
      r = await cli(['test', 'nomax.cases.yaml']);
      assert.equal(r.code, 2);
      assert.match(
        r.err,
        /^nomax\.cases\.yaml: error: missing-field at \/: Missing required field "max_tokens" .*\(case "a" on model-opus-4-7, case "b" on model-opus-4-7\)$/m,
      );
      // one problem of two cells: one line, counted once
      assert.match(r.err, /promptwright test: nothing sent: 1 error \(above\)/);

      caseFile('lacking.cases.yaml', '  - name: a\n    vars: { other: x }\n');
      r = await cli(['test', 'lacking.cases.yaml']);
      assert.equal(r.code, 2);
      assert.match(
        r.err,
        /^q\.prompt\.yaml:5:15: error undefined-placeholder: No case gives \{\{question\}\} a value/m,
      );
      assert.match(r.err, /^lacking\.cases\.yaml:4:5: error undefined-placeholder: /m);
      assert.match(r.err, /^lacking\.cases\.yaml:4:13: warning unused-var: /m);

      caseFile('missing.cases.yaml', '  - name: a\n', 'request: nowhere.prompt.yaml\n');
      r = await cli(['test', 'missing.cases.yaml']);
      assert.equal(r.code, 2);
      assert.match(
        r.err,
        /^missing\.cases\.yaml:1:10: error request-not-found: The request file "nowhere\.prompt\.yaml" cannot be read/m,
      );

      fs.writeFileSync('nomodel.prompt.yaml', 'max_tokens: 5\nmessages: [ { role: user, content: hi } ]\n');
      caseFile('nomodel.cases.yaml', '  - name: a\n', 'request: nomodel.prompt.yaml\n');
      r = await cli(['test', 'nomodel.cases.yaml']);
      assert.equal(r.code, 2);
      assert.match(r.err, /no model: the request has no "model", the case file no "models"/);
      assert.equal(fake.requests.length, 0, 'nothing was sent');
    });

    it('exit 2: usage errors, and no key or address (named, before anything is sent)', async () => {
      const usage: [string[], RegExp][] = [
        [['test'], /expected at least one FILE/],
        [
          ['test', 'support.cases.yaml', '--format', 'xml'],
          /--format must be text, json, jsonl, junit or markdown, got "xml"/,
        ],
        [['test', 'support.cases.yaml', '--concurrency', '0'], /--concurrency must be a whole number from 1 to 64/],
        [['test', 'support.cases.yaml', '--concurrency', 'many'], /--concurrency must be a whole number/],
        [['test', 'support.prompt.yaml'], /support\.prompt\.yaml is not a case file/],
        [['test', 'nothing.cases.yaml'], /no file matches nothing\.cases\.yaml/],
        [['test', 'support.cases.yaml', '--verbose'], /unknown option --verbose/],
      ];
      for (const [args, said] of usage) {
        const r = await cli(args);
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.err, said);
      }
      const noKey = await cli(['test', 'support.cases.yaml'], { env: { PROMPTWRIGHT_API_KEY: '' } });
      assert.equal(noKey.code, 2);
      assert.match(noKey.err, /promptwright test: no API key: set the environment variable PROMPTWRIGHT_API_KEY/);
      const noUrl = await cli(['test', 'support.cases.yaml'], { env: { PROMPTWRIGHT_BASE_URL: '' } });
      assert.match(noUrl.err, /PROMPTWRIGHT_BASE_URL/);
      assert.equal(fake.requests.length, 0);
    });

    it('--concurrency: never more in flight at the fake than asked', async () => {
      const cases = Array.from(
        { length: 8 },
        (_, i) => `  - name: c${i}\n    vars: { question: "q${i} #slow=5" }\n`,
      ).join('');
      caseFile('many.cases.yaml', cases);
      const r = await cli(['test', 'many.cases.yaml', '--concurrency', '2', '--format', 'json']);
      assert.equal(r.code, 0, r.err);
      const spans = fake.requests.map(q => [q.at, q.closedAt!] as const);
      const most = Math.max(...spans.map(([at]) => spans.filter(([a, b]) => a <= at && at < b).length));
      assert.equal(spans.length, 8);
      assert.ok(most <= 2, `${most} in flight`);
      assert.ok(most === 2, 'and it did use both');
    });

    it('Ctrl-C: exit 130 within the bound, "Cancelled", what finished printed, the rest cancelled', async () => {
      const cases = Array.from(
        { length: 6 },
        (_, i) => `  - name: c${i}\n    vars: { question: "q${i}${i ? ' #slow=200' : ''}" }\n`,
      ).join('');
      caseFile('slow.cases.yaml', cases);
      const ctl = new AbortController();
      const running = cli(['test', 'slow.cases.yaml', '--concurrency', '2'], { signal: ctl.signal });
      const t0 = Date.now();
      while (!fake.requests.some(q => JSON.stringify(q.body).includes('q1'))) {
        assert.ok(Date.now() - t0 < 5000, 'the second cell started');
        await new Promise(res => setTimeout(res, 5));
      }
      await new Promise(res => setTimeout(res, 30));
      const abortAt = Date.now();
      ctl.abort();
      const r = await running;
      assert.ok(Date.now() - abortAt < 500, `exited ${Date.now() - abortAt} ms after the cancel`);
      assert.equal(r.code, 130);
      assert.match(r.err, /^promptwright test: Cancelled\.$/m);
      assert.match(r.out, /NO ASSERTIONS c0 · model-sonnet-4-6/);
      assert.match(r.out, /CANCELLED c5 · model-sonnet-4-6/);
      assert.match(r.out, /6 cells: 0 passed, 0 failed, 1 with no assertions, 5 cancelled/);
      assert.ok(fake.requests.length <= 3, 'queued cells were never sent');
    });
  });

  describe('count', () => {
    it('case files: every case with its values filled in; request files as before; --format json', async () => {
      const r = await cli(['count', '--format', 'json', 'support.cases.yaml', 'q.prompt.yaml']);
      assert.equal(r.code, 0, r.err);
      const rows = JSON.parse(r.out) as { file: string; case?: string; input_tokens: number; input_cost_usd: number }[];
      // each count's cost at the model's input price (model-sonnet-4-6: $3 per million)
      for (const x of rows) assert.equal(x.input_cost_usd, (x.input_tokens * 3) / 1e6);
      assert.deepEqual(
        rows.map(x => [x.file, x.case]),
        [
          ['q.prompt.yaml', undefined],
          ['support.cases.yaml', 'refund in French'],
          ['support.cases.yaml', 'weather for a delivery'],
          ['support.cases.yaml', 'order status as JSON'],
        ],
      );
      assert.ok(rows.every(x => Number.isInteger(x.input_tokens) && x.input_tokens > 0));
      const sent = fake.requests.map(q => JSON.stringify(q.body));
      assert.ok(
        sent.every(b => !b.includes('max_tokens')),
        'only what count_tokens takes',
      );
      assert.ok(sent[1]!.includes('Puis-je'), 'the values filled in');
      const one = await cli(['count', 'q.prompt.yaml']);
      assert.match(one.out, /^\d+\n$/, 'one request file: the number alone, as before');
      const text = await cli(['count', 'support.cases.yaml']);
      assert.match(text.out, /^INPUT_TOKENS {2}FILE {16}CASE\n\d+ +support\.cases\.yaml {2}refund in French\n/);
    });

    it('--budget N: exit 1 when any is over, naming it; 0 when all fit', async () => {
      const counts = JSON.parse((await cli(['count', '--format', 'json', 'support.cases.yaml'])).out) as {
        input_tokens: number;
      }[];
      const most = Math.max(...counts.map(c => c.input_tokens));
      const fits = await cli(['count', 'support.cases.yaml', '--budget', String(most)]);
      assert.equal(fits.code, 0, fits.err);
      const over = await cli(['count', 'support.cases.yaml', '--budget', String(most - 1)]);
      assert.equal(over.code, 1);
      assert.match(
        over.err,
        new RegExp(
          `support\\.cases\\.yaml \\(case "[^"]+"\\): ${most.toLocaleString('en-US')} input tokens, ` +
            `over the budget of ${(most - 1).toLocaleString('en-US')} by 1`,
        ),
      );
      const bad = await cli(['count', 'support.cases.yaml', '--budget', 'lots']);
      assert.equal(bad.code, 2);
      assert.match(bad.err, /--budget must be a whole number of tokens/);
    });

    it('a case file with errors is not counted (exit 2, as a request file with errors)', async () => {
      caseFile('lacking2.cases.yaml', '  - name: a\n');
      const r = await cli(['count', 'lacking2.cases.yaml', 'q.prompt.yaml']);
      assert.equal(r.code, 2);
      assert.match(r.err, /undefined-placeholder/);
      assert.equal(fake.requests.length, 0);
    });
  });
});
