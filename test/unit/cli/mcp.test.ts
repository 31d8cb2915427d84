// MCP servers in `promptwright test` and `promptwright mcp`, as a user runs them: dist/cli.js spawned against the
// fake, with a real MCP server no one here wrote (@modelcontextprotocol/server-everything, a devDependency, over
// stdio; it is never asked anything that reaches the network). Its answers, a server that exits at once, a call
// that hangs, a malformed .vscode/mcp.json, and Ctrl-C during a call: no server process is left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnv, useFake } from '../../support/fake';
import { assertPrompt, runCli, spawnCli, type Ran } from '../../support/spawnCli';

const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const REQUEST = [
  'model: model-sonnet-4-6',
  'max_tokens: 400',
  'tools:',
  ...['echo', 'get-tiny-image', 'trigger-long-running-operation', 'lookup_order', 'get_weather'].map(
    n => `  - { name: ${n}, input_schema: { type: object } }`,
  ),
  'messages:',
  '  - role: user',
  '    content: "{{q}}"',
  '',
].join('\n');

/** The child processes of a process (its MCP servers), from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('MCP servers: test and mcp against @modelcontextprotocol/server-everything', function () {
  this.timeout(60_000);
  const fake = useFake({ keepAliveMs: 60_000 });
  let dir: string;
  const env = (extra: Record<string, string> = {}) => ({ ...process.env, ...cliEnv(fake), ...extra });
  const cli = (args: string[], extra: Record<string, string> = {}): Promise<Ran> =>
    runCli(fake, args, { cwd: dir, env: env(extra), killAfterMs: 40_000 });
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  const mcpJson = (servers: Record<string, unknown>) =>
    write('.vscode/mcp.json', `// the workspace's servers\n${JSON.stringify({ servers }, null, 2)}\n`);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-mcp-'));
    fs.mkdirSync(path.join(dir, '.git'));
    fs.mkdirSync(path.join(dir, '.vscode'));
    write('a.prompt.yaml', REQUEST);
    mcpJson({ everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('test: calls answered by the server (text blocks, an image block), source mcp; closed at exit', async () => {
    write(
      'a.cases.yaml',
      [
        'request: a.prompt.yaml',
        'tools:',
        '  echo: { mcp: everything }',
        '  get-tiny-image: { mcp: everything }',
        'cases:',
        '  - { name: echo, vars: { q: "say 42 #script=echo" }, assert: [{ contains: "Echo: 42" }] }',
        '  - { name: image, vars: { q: "#script=image" }, assert: [{ tool-called: get-tiny-image }] }',
        '',
      ].join('\n'),
    );
    const r = await cli(['test', 'a.cases.yaml', '--format', 'json']);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const [echo, image] = JSON.parse(r.out) as { tool_calls: { source: string; result: { type: string }[] }[] }[];
    assert.deepEqual(echo!.tool_calls[0]!.result, [{ type: 'text', text: 'Echo: 42' }]);
    assert.equal(echo!.tool_calls[0]!.source, 'mcp');
    assert.deepEqual(
      image!.tool_calls[0]!.result.map(b => b.type),
      ['text', 'image', 'text'],
    );
    // what the model was sent: the image as an image block of the tool_result
    const sent = fake.requests.map(q => JSON.stringify(q.body)).find(b => b.includes('"type":"image"'));
    assert.match(
      sent ?? '',
      /"type":"tool_result","tool_use_id":"toolu_fake_1_1","content":\[\{"type":"text".*"source":\{"type":"base64","media_type":"image\/png"/,
    );
    assertPrompt(r);
  });

  it('a server that exits at once, a call that hangs past its timeout: each its cell’s ERROR', async () => {
    write(
      'a.cases.yaml',
      [
        'request: a.prompt.yaml',
        'mcp-servers:',
        `  broken: { command: ${JSON.stringify(process.execPath)}, ` +
          `args: ["-e", "console.error('no config'); process.exit(3)"] }`,
        'tools:',
        '  lookup_order: { mcp: broken }',
        '  trigger-long-running-operation: { mcp: everything }',
        '  echo: { mcp: everything }',
        'cases:',
        '  - { name: exits, vars: { q: "order 7 #script=once" } }',
        '  - { name: hangs, vars: { q: "#script=slow" } }',
        '  - { name: fine, vars: { q: "say 5 #script=echo" }, assert: [{ contains: "Echo: 5" }] }',
        '',
      ].join('\n'),
    );
    const t0 = Date.now();
    const r = await cli(['test', 'a.cases.yaml'], { PROMPTWRIGHT_TOOL_TIMEOUT_MS: '1500' });
    assert.equal(r.code, 1, `${r.out}\n${r.err}`);
    assert.match(
      r.out,
      /ERROR {5}exits .*\n {12}mcp_error: MCP server "broken" could not be started: .*Its last words: no config/,
    );
    assert.match(
      r.out,
      /ERROR {5}hangs .*\n {12}mcp_error: MCP server "everything" failed on trigger-long-running-operation: .*\(no answer within 1500 ms; PROMPTWRIGHT_TOOL_TIMEOUT_MS sets the limit\)/,
    );
    assert.match(r.out, /PASS {6}fine/);
    // the hanging call ends at its timeout, after the fake's last response: the run's whole time is the bound here
    assert.ok(Date.now() - t0 < 15_000, 'the hanging call did not hold the run up');
  });

  it('a malformed .vscode/mcp.json: its error at its line; the cell that needs a server says to fix it', async () => {
    write('.vscode/mcp.json', '{\n  "servers": {\n    "everything": { "command": "node", }\n    "x": 1\n  }\n}\n');
    write(
      'a.cases.yaml',
      'request: a.prompt.yaml\ntools:\n  echo: { mcp: everything }\n' +
        'cases:\n  - { name: a, vars: { q: "#script=echo" } }\n',
    );
    const r = await cli(['test', 'a.cases.yaml']);
    assert.equal(r.code, 1, `${r.out}\n${r.err}`);
    assert.match(r.err, /^\.vscode\/mcp\.json:4:5: error mcp-config: CommaExpected in the MCP config$/m);
    assert.match(
      r.out,
      /mcp_error: MCP server "everything" is not available: \.vscode\/mcp\.json:4:5 does not define it .*: fix the file/,
    );
  });

  it('Ctrl-C during a slow call: exit 130, and the server’s process is gone', async () => {
    write(
      'a.cases.yaml',
      'request: a.prompt.yaml\ntools:\n  trigger-long-running-operation: { mcp: everything }\n' +
        'cases:\n  - { name: slow, vars: { q: "#script=slow" } }\n',
    );
    const run = spawnCli(['test', 'a.cases.yaml'], { cwd: dir, env: env() });
    let servers: number[] = [];
    for (let i = 0; i < 200 && !servers.length; i++) {
      await new Promise(r => setTimeout(r, 50));
      if (fake.requests.length) servers = childrenOf(run.child.pid!);
    }
    assert.equal(servers.length, 1, 'the server started');
    // the call is under way once the model's tool_use has come and the server is up
    await new Promise(r => setTimeout(r, 1500));
    const interrupted = Date.now();
    run.child.kill('SIGINT');
    const code = await run.exited;
    // the server is sent SIGTERM after a short grace, not after the SDK's 2 s (the exit took 3.8 s)
    const exitMs = Date.now() - interrupted;
    await run.closed;
    assert.equal(code, 130, run.err);
    assert.ok(exitMs < 2000, `exited ${exitMs} ms after Ctrl-C`);
    for (let i = 0; i < 40 && alive(servers[0]!); i++) await new Promise(r => setTimeout(r, 50));
    assert.ok(!alive(servers[0]!), `server ${servers[0]} is still running`);
  });

  it('--record writes NAME.fixtures.yaml (each call’s whole input); a later run replays it, no server', async () => {
    write(
      'a.cases.yaml',
      [
        'request: a.prompt.yaml',
        'tools:',
        '  echo: { mcp: everything }',
        '  get_weather: { simulate: "A weather API: the sky and the temperature" }',
        '  lookup_order: "shipped"',
        'cases:',
        '  - { name: echo, vars: { q: "say 42 #script=echo" }, assert: [{ contains: "Echo: 42" }] }',
        '  - { name: weather, vars: { q: "order 5 #script=order" } }',
        '',
      ].join('\n'),
    );
    const recorded = await cli(['test', 'a.cases.yaml', '--record']);
    assert.equal(recorded.code, 0, `${recorded.out}\n${recorded.err}`);
    assert.match(recorded.err, /recorded 2 answers in a\.fixtures\.yaml/);
    const fixtures = fs.readFileSync(path.join(dir, 'a.fixtures.yaml'), 'utf8');
    assert.match(fixtures, /^# Recorded by `promptwright test a\.cases\.yaml --record` on /);
    // the tools by name, each answer under the call's whole input; the file's own entries are not recorded
    assert.match(
      fixtures,
      /\ntools:\n {2}echo:\n {4}- when:\n {8}message: "42"\n {6}result: "Echo: 42"\n {2}get_weather:\n {4}- when:\n {8}city: Paris\n {6}result: /,
    );
    assert.doesNotMatch(fixtures, /lookup_order/);
    // without the servers: the recorded answers, and nothing is started
    fs.rmSync(path.join(dir, '.vscode'), { recursive: true });
    fake.clear();
    const replayed = await cli(['test', 'a.cases.yaml', '--format', 'json']);
    assert.equal(replayed.code, 0, `${replayed.out}\n${replayed.err}`);
    const records = JSON.parse(replayed.out) as { tool_calls: { name: string; source: string }[] }[];
    assert.deepEqual(
      records.flatMap(r => r.tool_calls.map(c => `${c.name}:${c.source}`)),
      ['echo:recorded', 'lookup_order:file', 'get_weather:recorded'],
    );
    // no request to simulate a tool went to the model this time: only the loops' own turns
    assert.ok(fake.requests.every(q => !JSON.stringify(q.body).includes('You stand in for a software tool')));
    assertPrompt(replayed);
  });

  it('mcp list names the servers; mcp tools prints a server’s tools as request-file tools entries', async () => {
    const list = await runCli(fake, ['mcp', 'list'], { cwd: dir, env: env() });
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /^everything\tstdio\t.*server-everything\/dist\/index\.js stdio\n$/);
    const json = await runCli(fake, ['mcp', 'tools', 'everything', '--format', 'json'], { cwd: dir, env: env() });
    assert.equal(json.code, 0, json.err);
    const tools = JSON.parse(json.out) as {
      name: string;
      description?: string;
      input_schema: Record<string, unknown>;
    }[];
    const echo = tools.find(t => t.name === 'echo')!;
    assert.deepEqual(echo, {
      name: 'echo',
      description: 'Echoes back the input string',
      input_schema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      },
    });
    const yaml = await runCli(fake, ['mcp', 'tools', 'everything'], { cwd: dir, env: env() });
    assert.match(
      yaml.out,
      /^tools:\n {2}- name: echo\n {4}description: Echoes back the input string\n {4}input_schema:\n/,
    );
    const unknown = await runCli(fake, ['mcp', 'tools', 'nope'], { cwd: dir, env: env() });
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /names no server "nope" \(it names everything\)/);
  });
});
