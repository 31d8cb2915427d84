// `promptwright schema`: the validating JSON Schema other tools read. It must never refuse a body the service
// accepted (the accepted corpus), must refuse what the schema says is required, and is its own for count_tokens.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { parse as parseYaml } from 'yaml';
import { parseCaseFile } from '../../../src/core/cases/caseFile';
import { toolJsonSchema } from '../../../src/core/language/toolSchema';
import { runCliSync } from '../../support/spawnCli';

const validator = (kind: 'messages' | 'count_tokens' | 'cases') => new Validator(toolJsonSchema(kind), '7', false);
const errors = (v: Validator, body: unknown) => v.validate(body).errors.map(e => e.error);

describe('promptwright schema: the JSON Schema for every YAML and JSON tool', () => {
  const messages = validator('messages');

  it('takes every body of the accepted corpus, and the request files of the fixtures', () => {
    const dir = path.join('test', 'fixtures', 'accepted');
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { file: string }[];
    const refused = manifest.filter(
      e => !messages.validate(JSON.parse(fs.readFileSync(path.join(dir, e.file), 'utf8'))).valid,
    );
    assert.deepEqual(
      refused.map(e => e.file),
      [],
    );
    for (const f of [
      'examples/weather-tool.prompt.yaml',
      'examples/thinking.prompt.yml',
      'test/fixtures/cases/support.prompt.yaml',
    ])
      assert.deepEqual(errors(messages, parseYaml(fs.readFileSync(f, 'utf8'))), [], f);
  });

  it('says what is missing, and a block type it does not know, in one place', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    assert.deepEqual(errors(messages, body), ['Instance does not have required property "max_tokens".']);
    const bad = { ...body, max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'txt', text: 'a' }] }] };
    assert.ok(
      errors(messages, bad).some(e => /does not match any of \["text","image",/.test(e)),
      errors(messages, bad).join('\n'),
    );
    // a custom tool may leave its type out; a built-in one is checked by its type
    assert.deepEqual(
      errors(messages, { ...body, max_tokens: 5, tools: [{ name: 't', input_schema: { type: 'object' } }] }),
      [],
    );
    // an unknown field is a warning in Promptwright: a schema has none, so it says nothing
    assert.deepEqual(errors(messages, { ...body, max_tokens: 5, temprature: 1 }), []);
  });

  it('count_tokens has its own: no max_tokens, and nothing a create-message body needs beyond it', () => {
    const count = toolJsonSchema('count_tokens');
    assert.ok(!JSON.stringify(count).includes('max_tokens'));
    assert.deepEqual((count as { required: string[] }).required.sort(), ['messages', 'model']);
    assert.deepEqual(
      errors(validator('count_tokens'), { model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      [],
    );
  });

  it('case files: the fixtures and examples pass, a case file without cases or a dataset does not', () => {
    const cases = validator('cases');
    for (const f of ['examples/support.cases.yaml', 'test/fixtures/cases/support.cases.yaml'])
      assert.deepEqual(errors(cases, parseYaml(fs.readFileSync(f, 'utf8'))), [], f);
    assert.ok(errors(cases, { request: 'a.prompt.yaml' }).length);
    // a dataset's rows are its cases
    assert.deepEqual(errors(cases, { request: 'a.prompt.yaml', dataset: 'rows.csv' }), []);
    // a JSON case file may name its schema: Promptwright does not take `$schema` for a misspelt key
    const named = JSON.stringify({
      $schema: './cases.schema.json',
      request: 'a.prompt.json',
      cases: [{ name: 'a', assert: [{ contains: 'a' }] }],
    });
    assert.deepEqual(parseCaseFile(named, 'json').problems, []);
  });

  it('docs/schemas holds what the command prints, and the SchemaStore entries point at it', () => {
    const files = { messages: 'request', count_tokens: 'count', cases: 'cases' } as const;
    for (const [kind, name] of Object.entries(files)) {
      const file = path.join('docs', 'schemas', `${name}.schema.json`);
      assert.deepEqual(
        JSON.parse(fs.readFileSync(file, 'utf8')),
        toolJsonSchema(kind as keyof typeof files),
        `${file} is out of date: promptwright schema … > ${file}`,
      );
    }
    const catalog = JSON.parse(fs.readFileSync('docs/schemastore-catalog.json', 'utf8')) as {
      schemas: { url: string; fileMatch: string[] }[];
    };
    assert.deepEqual(
      catalog.schemas.map(s => s.url.replace(/.*\/main\//, '')),
      ['docs/schemas/request.schema.json', 'docs/schemas/count.schema.json', 'docs/schemas/cases.schema.json'],
    );
  });

  it('the command: --endpoint and --cases, JSON on stdout; a wrong option is a usage error (exit 2)', function () {
    // seven processes of the CLI, on a machine that may be busy
    this.timeout(30_000);
    const run = (...args: string[]) => runCliSync(['schema', ...args]);
    const m = run();
    assert.equal(m.status, 0);
    assert.deepEqual(JSON.parse(m.stdout), toolJsonSchema('messages'));
    assert.deepEqual(JSON.parse(run('--endpoint', 'count_tokens').stdout), toolJsonSchema('count_tokens'));
    assert.deepEqual(JSON.parse(run('--cases').stdout), toolJsonSchema('cases'));
    for (const bad of [
      ['--endpoint', 'batches'],
      ['--cases', '--endpoint', 'messages'],
      ['extra'],
      ['--format', 'json'],
    ]) {
      const r = run(...bad);
      assert.equal(r.status, 2, bad.join(' '));
      assert.match(r.stderr, /^promptwright schema: [^\n]+\n$/, bad.join(' '));
    }
  });
});
