// The CLI as a user runs it, for prompt caching: the built dist/cli.js spawned against the fake over TCP.
// `check` on the three bodies the service refused for their breakpoints (exit code, the message, line:col at
// the marker); `count --cache` with each breakpoint's prefix, ttl and minimum; `run` twice, the second reading
// the cache, said in words; `test --format json` with the usage as the service sent it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, clientOf, useFake } from '../../support/fake';
import { assertPrompt, runCli, type Ran } from '../../support/spawnCli';

const LONG = 'The handbook says the office opens at nine and closes at five. '.repeat(80);
const REJECTED = path.resolve('test', 'fixtures', 'rejected');

/** 1-based line:column of the `n`th occurrence (0-based) of `needle` in `text`. */
function at(text: string, needle: string, n = 0): string {
  let i = -1;
  for (let k = 0; k <= n; k++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, `no ${needle} #${n}`);
  const before = text.slice(0, i).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

describe('the CLI and prompt caching, as a process against the fake', function () {
  this.timeout(30_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  let env: Record<string, string>;
  const request = {
    model: 'model-sonnet-4-5',
    max_tokens: 50,
    cache_control: { type: 'ephemeral' },
    tools: [
      {
        name: 'opening_hours',
        description: 'The opening hours of an office.',
        input_schema: { type: 'object', properties: { office: { type: 'string' } } },
        cache_control: { type: 'ephemeral', ttl: '1h' },
      },
    ],
    system: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Notes: the Lisbon office moved.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'When does the office open?' },
        ],
      },
    ],
  };

  before(async () => {
    env = cliEnv(fake);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-cache-'));
    for (const f of ['too-many-cache-breakpoints', 'cache-ttl-order', 'cache-control-on-empty-text'])
      fs.copyFileSync(path.join(REJECTED, `${f}.json`), path.join(dir, `${f}.prompt.json`));
    fs.writeFileSync(path.join(dir, 'handbook.prompt.json'), JSON.stringify(request, null, 2));
    fs.writeFileSync(
      path.join(dir, 'short.prompt.yaml'),
      'model: model-haiku-4-5\nmax_tokens: 50\nsystem:\n  - type: text\n    text: You are terse.\n' +
        '    cache_control: { type: ephemeral }\nmessages:\n  - role: user\n    content: Hi\n',
    );
    fs.writeFileSync(
      path.join(dir, 'hours.cases.yaml'),
      'request: handbook.prompt.json\nmodels: [model-sonnet-4-5]\n' +
        'cases:\n  - { name: opens, assert: [{ contains: open }] }\n',
    );
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]): Promise<Ran> => runCli(fake, args, { cwd: dir, env: { ...process.env, ...env } });
  const promptly = assertPrompt;

  it('check: more than 4 breakpoints, exit 1, at the fifth marker', async () => {
    const file = 'too-many-cache-breakpoints.prompt.json';
    const r = await cli(['check', file]);
    assert.equal(r.code, 1, r.out);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const fifth = at(text, '"cache_control"', 4);
    const line = `${file}:${fifth}: error too-many-cache-breakpoints: A request may have at most 4 `;
    assert.ok(r.out.includes(line), r.out);
    assert.match(r.out, /1 file checked: 1 error/);
    assert.equal(fake.requests.length, 0, 'check sends nothing');
  });

  it('check: a 1-hour ttl after a 5-minute one, exit 1, at the later ttl', async () => {
    const file = 'cache-ttl-order.prompt.json';
    const r = await cli(['check', '--format', 'json', file]);
    assert.equal(r.code, 1, r.out);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const [rec, ...rest] = (JSON.parse(r.out) as { code: string; line: number; column: number; path: string }[]).filter(
      x => x.code === 'cache-ttl-order',
    );
    assert.equal(rest.length, 0);
    assert.equal(`${rec!.line}:${rec!.column}`, at(text, '"1h"'));
    assert.equal(rec!.path, '/messages/0/content/0/cache_control/ttl');
  });

  it('check: a breakpoint under the minimum (local estimate) is a warning at the marker (exit 0)', async () => {
    const file = 'short.prompt.yaml';
    const r = await cli(['check', file]);
    assert.equal(r.code, 0, r.out);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const line = r.out.split('\n').find(l => l.includes('cache-prefix-below-minimum'));
    assert.ok(line?.startsWith(`${file}:${at(text, 'cache_control')}: warning cache-prefix-below-minimum: `), r.out);
    assert.match(line ?? '', /about \d+ tokens? \(a local estimate/);
    assert.match(line ?? '', /under the 4,096 tokens model-haiku-4-5 caches from/);
    assert.match(r.out, /1 file checked: 0 errors, 1 other problem/);
    assert.equal(fake.requests.length, 0, 'check sends nothing');
    // the handbook's breakpoints reach the minimum of model-sonnet-4-5 from the system prompt on: none before it
    const handbook = await cli(['check', '--format', 'json', 'handbook.prompt.json']);
    const warned = (JSON.parse(handbook.out) as { code: string; path: string }[])
      .filter(x => x.code === 'cache-prefix-below-minimum')
      .map(x => x.path);
    assert.deepEqual(warned, ['/tools/0/cache_control']);
  });

  it('check: a marker on an empty text block, exit 1, at its cache_control', async () => {
    const file = 'cache-control-on-empty-text.prompt.json';
    const r = await cli(['check', file]);
    assert.equal(r.code, 1, r.out);
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    assert.ok(
      r.out.includes(
        `${file}:${at(text, '"cache_control"')}: error cache-control-on-empty-text: ` +
          'cache_control cannot be set on an empty text block',
      ),
      r.out,
    );
  });

  it('count --cache --format json: each breakpoint in the order the service reads them, counted', async () => {
    const r = await cli(['count', '--cache', '--format', 'json', 'handbook.prompt.json']);
    assert.equal(r.code, 0, r.err);
    promptly(r);
    // the expected prefixes, asked of the fake directly: tools and system as the difference they make
    const c = clientOf(fake);
    const n = async (b: object) => (await c.countTokens(b as Record<string, unknown>)).input_tokens;
    const base = { model: request.model, messages: [{ role: 'user', content: 'x' }] };
    const whole = await n(request);
    const tools = (await n({ ...base, tools: request.tools })) - (await n(base));
    const system = (await n({ ...base, tools: request.tools, system: request.system })) - (await n(base));
    const note = await n({
      ...request,
      messages: [{ role: 'user', content: request.messages[0]!.content.slice(0, 1) }],
    });
    assert.deepEqual(JSON.parse(r.out), [
      {
        file: 'handbook.prompt.json',
        input_tokens: whole,
        breakpoints: [
          { path: '/tools/0', ttl: '1h', prefix_tokens: tools, min_tokens: 1024, cacheable: false, automatic: false },
          { path: '/system/0', ttl: '5m', prefix_tokens: system, min_tokens: 1024, cacheable: true, automatic: false },
          {
            path: '/messages/0/content/0',
            ttl: '5m',
            prefix_tokens: note,
            min_tokens: 1024,
            cacheable: true,
            automatic: false,
          },
          {
            path: '/messages/0/content/1',
            ttl: '5m',
            prefix_tokens: whole,
            min_tokens: 1024,
            cacheable: true,
            automatic: true,
          },
        ],
      },
    ]);
  });

  it('count --cache: one call per prefix (the shared base once, the whole request not twice)', async () => {
    const r = await cli(['count', '--cache', 'handbook.prompt.json', 'short.prompt.yaml']);
    assert.equal(r.code, 0, r.err);
    // handbook: the whole (1), the tools prefix and its base (2), the system prefix (1), the note's cut (1);
    // the automatic breakpoint's prefix is the whole request. short: the whole (1) and the system prefix (2).
    assert.equal(fake.requests.filter(q => q.path === '/v1/messages/count_tokens').length, 8);
    assert.match(r.out, /^handbook\.prompt\.json: [\d,]+ input tokens, 4 cache breakpoints\n/);
    assert.match(r.out, /\n {2}# +PATH +TTL +PREFIX_TOKENS +MIN_TOKENS +CACHEABLE\n/);
    assert.match(r.out, /\n {2}1 +\/tools\/0 +1h +\d+ +1,024 +no: nothing is cached, and no error is returned\n/);
    assert.match(r.out, /\n {2}4 +\/messages\/0\/content\/1 \(automatic\) +5m +[\d,]+ +1,024 +yes\n/);
    assert.match(
      r.out,
      /\nshort\.prompt\.yaml: \d+ input tokens, 1 cache breakpoint\n {2}#.*\n {2}1 +\/system\/0 +5m +\d+ +4,096 +no: /,
    );
  });

  it('run twice: the second run reads the cache, and the summary says so in words', async () => {
    const first = await cli(['run', 'handbook.prompt.json']);
    assert.equal(first.code, 0, first.err);
    assert.match(
      first.err,
      /stop_reason: end_turn · [\d,]+ input tokens \([\d,]+ written to it, [\d,]+ for 5 minutes and [\d,]+ for 1 hour\) and \d+ output tokens · \$[\d.]+ · request-id req_fake_/,
    );
    const second = await cli(['run', 'handbook.prompt.json']);
    assert.match(
      second.err,
      /stop_reason: end_turn · [\d,]+ input tokens \([\d,]+ read from the cache: \d+% of the input\) and \d+ output tokens · /,
    );
    promptly(second);
  });

  it('test --format json: the usage as the service sent it, cache counts and their 5m/1h split included', async () => {
    const r = await cli(['test', '--format', 'json', 'hours.cases.yaml']);
    assert.equal(r.code, 0, r.err);
    const [cell] = JSON.parse(r.out) as { usage: Record<string, unknown> }[];
    const sent = fake.requests.find(q => q.path === '/v1/messages')!;
    assert.equal(sent.status, 200);
    const u = cell!.usage;
    assert.ok((u.cache_creation_input_tokens as number) > 1024, JSON.stringify(u));
    assert.deepEqual(Object.keys(u).sort(), [
      'cache_creation',
      'cache_creation_input_tokens',
      'cache_read_input_tokens',
      'input_tokens',
      'output_tokens',
      'service_tier',
    ]);
    assert.deepEqual(u.cache_creation, {
      ephemeral_5m_input_tokens:
        (u.cache_creation_input_tokens as number) -
        (u.cache_creation as { ephemeral_1h_input_tokens: number }).ephemeral_1h_input_tokens,
      ephemeral_1h_input_tokens: (u.cache_creation as { ephemeral_1h_input_tokens: number }).ephemeral_1h_input_tokens,
    });
  });
});
