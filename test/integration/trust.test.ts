// Where keys go, in the real extension host, with the workspace's own `.vscode/settings.json` naming another
// address (a second fake, which records every request it gets), another git and where to write files; run twice by
// the harness: in a trusted workspace, and again in Restricted Mode (a code-server with workspace trust on). With a
// request file open (its count, its cache lenses, the model list), the side bar's views loaded, a batch pending and
// polled, and commands run, no key arrives at the workspace's address: every request goes to the user's
// `promptwright.baseUrl`. A redirect is refused, a key echoed in an error is shown nowhere, git is taken from the Git
// extension (never a workspace's `git.path`) and runs not at all in Restricted Mode, and there the workspace cannot
// say where transcripts and case results are written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Features } from '../../src/features';
import { startFake, type Fake, type FakeRequest } from '../fake/server';
import { gitIn, gitRepo } from '../support/tempRepo';
import { api, closeEditors, errorsDuring, openEditor, setKey, useFake, waitFor, workspaceUri } from './helpers';

const API_KEY = 'sk-vendor-api03-trust-suite-0123456789';
const ADMIN_KEY = 'sk-vendor-admin-trust-suite-0123456789';
const COMPLIANCE_KEY = 'sk-vendor-api01-full';
const KEYS = [API_KEY, ADMIN_KEY, COMPLIANCE_KEY];
const DIR = 'trust-suite';
const CASES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'cases');
/** a setting the workspace sets beside the address, to know VS Code has read its settings file */
const SENTINEL = 37;

const trusted = () => vscode.workspace.isTrusted;
const keyOf = (r: FakeRequest) => r.headers['x-api-key'];
const request = (content: string) =>
  `${JSON.stringify({ model: 'model-opus-4-7', max_tokens: 64, messages: [{ role: 'user', content }] }, null, 2)}\n`;

async function features(): Promise<Features> {
  return (await api()).features();
}

describe('where keys go: the workspace names another address (trusted, and again in Restricted Mode)', function () {
  this.timeout(120_000);
  const holder = useFake({ apiKey: API_KEY, adminKey: ADMIN_KEY, batchProcessingMs: 1500 });
  let service: Fake;
  let recorder: Fake;
  let outside: string;
  let marker: string;
  const settingsFile = () => workspaceUri('.vscode', 'settings.json').fsPath;
  const uri = (...name: string[]) => workspaceUri(DIR, ...name);
  /** A request file of its own for a test, its text never counted before (no count is taken from a cache). */
  let made = 0;
  const fresh = async () => {
    const name = `fresh-${++made}.prompt.json`;
    fs.writeFileSync(uri(name).fsPath, request(`A question of its own, ${made} at ${Date.now()}`));
    return openEditor(DIR, name);
  };

  before(async () => {
    service = holder.fake;
    recorder = await startFake({ apiKey: API_KEY, adminKey: ADMIN_KEY });
    await setKey('admin', ADMIN_KEY);
    await setKey('compliance', COMPLIANCE_KEY);
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-trust-outside-'));
    // a program a repository ships as its "git": it leaves a mark when run
    marker = path.join(outside, 'git-ran');
    const fakeGit = path.join(outside, 'git');
    fs.writeFileSync(fakeGit, `#!/bin/sh\necho "$@" >> '${marker}'\nexec git "$@"\n`, { mode: 0o755 });
    fs.mkdirSync(uri().fsPath, { recursive: true });
    for (const f of fs.readdirSync(CASES)) fs.copyFileSync(path.join(CASES, f), uri(f).fsPath);
    fs.writeFileSync(uri('hello.prompt.json').fsPath, request('Hello there'));
    // a git repository, the request file committed and then changed
    gitRepo(uri().fsPath);
    gitIn(uri().fsPath)('add', '-A');
    gitIn(uri().fsPath)('commit', '-q', '-m', 'base');
    fs.writeFileSync(uri('hello.prompt.json').fsPath, request('Hello there, and a longer question'));
    // the repository's own settings
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({
        'promptwright.baseUrl': recorder.url,
        'promptwright.sessions.pageSize': SENTINEL,
        'promptwright.transcripts.folder': path.join(outside, 'transcripts'),
        'promptwright.cases.resultsInRepository': true,
        'git.path': fakeGit,
      }),
    );
    await waitFor(
      "VS Code to read the workspace's settings",
      () => vscode.workspace.getConfiguration('promptwright').get('sessions.pageSize') === SENTINEL,
    );
  });
  after(async () => {
    const f = await features();
    f.cases.cancel();
    await f.cases.idle();
    await f.batches.idle();
    await closeEditors();
    fs.rmSync(settingsFile(), { force: true });
    await waitFor(
      "VS Code to forget the workspace's settings",
      () => vscode.workspace.getConfiguration('promptwright').get('sessions.pageSize') !== SENTINEL,
    );
    fs.rmSync(uri().fsPath, { recursive: true, force: true });
    fs.rmSync(workspaceUri('.promptwright').fsPath, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    await recorder.close();
  });
  beforeEach(() => {
    service.clear();
    recorder.clear();
  });
  afterEach(async () => {
    // nothing of any test reached the workspace's address, and no key either
    assert.deepEqual(
      recorder.requests.map(r => `${r.method} ${r.path}`),
      [],
      "requests went to the workspace's address",
    );
    if (fs.existsSync(marker)) assert.fail(`the workspace's git.path ran: ${fs.readFileSync(marker, 'utf8')}`);
    await closeEditors();
  });

  it('runs in the mode the harness opened it in', () => {
    assert.equal(trusted(), !process.env.PROMPTWRIGHT_RESTRICTED);
  });

  it('the address is the user’s setting, whatever the workspace says; it shows in the status bar', async () => {
    const a = await api();
    assert.equal(a.config.baseUrl, service.url);
    const inspect = vscode.workspace.getConfiguration('promptwright').inspect('baseUrl');
    assert.equal(inspect?.globalValue, service.url);
    // a request file open: its count (live when trusted; asked for in Restricted Mode, which sends nothing alone)
    await fresh();
    if (!trusted()) {
      await waitFor('the estimate of Restricted Mode', () => a.tokens.state.kind === 'estimate');
      const counts = () => service.requests.filter(r => r.path === '/v1/messages/count_tokens');
      assert.deepEqual(counts(), [], 'nothing counted on its own in Restricted Mode');
      await vscode.commands.executeCommand('promptwright.countTokens');
    }
    await waitFor('a count from the service', () => a.tokens.state.kind === 'count', 20_000);
    const tip = (a.tokens.item.tooltip as vscode.MarkdownString).value;
    assert.ok(tip.includes(`Counted by \`${service.url}\``), tip);
    assert.ok(service.requests.some(r => r.path === '/v1/messages/count_tokens' && keyOf(r) === API_KEY));
  });

  it('cache lenses, the model list, Send Request: each to the user’s address', async () => {
    await fresh();
    await vscode.commands.executeCommand('promptwright.countCacheBreakpoints');
    await vscode.commands.executeCommand('promptwright.refreshModels');
    await vscode.commands.executeCommand('promptwright.sendRequest');
    const f = await features();
    assert.equal(f.runner.current?.view.outcome, 'done');
    assert.equal(f.runner.current?.view.service, service.url, 'the panel names the address');
    const paths = service.requests.map(r => r.path);
    assert.ok(paths.includes('/v1/models'), paths.join());
    assert.ok(paths.includes('/v1/messages'), paths.join());
    // the side bar's views, shown by another test, may still page with the Admin or Compliance key meanwhile
    const asked = service.requests.filter(r => /^\/v1\/(messages|models)/.test(r.path));
    const otherKey = asked.filter(r => keyOf(r) !== API_KEY).map(r => `${r.method} ${r.path}`);
    assert.deepEqual(otherKey, [], 'the API key with every request of the file');
  });

  it('the side bar shown: sessions, rate limits, organization, compliance, from the user’s address', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.promptwright');
    const f = await features();
    await f.sessions.getChildren();
    f.rateLimits.refresh();
    await f.rateLimits.getChildren();
    f.org.refresh();
    await f.org.getChildren();
    for (const n of await f.complianceTree.getChildren())
      if (n.kind === 'organizations') await f.complianceTree.getChildren(n);
    await f.batches.getChildren();
    await waitFor('the Admin and Compliance keys used', () =>
      [ADMIN_KEY, COMPLIANCE_KEY].every(k => service.requests.some(r => keyOf(r) === k)),
    );
  });

  it('a batch pending: submitted, polled after a reload, collected; all at the user’s address', async () => {
    const f = await features();
    f.batches.pace = { firstMs: 100, maxMs: 300, factor: 1.5 };
    const run = f.cases.runner.run(uri('support.cases.yaml'), { scope: 'all' }, { batch: {} });
    await waitFor('the cells queued in batch', () => f.cases.grid()?.cells.some(c => !!c.batchId));
    f.cases.cancel();
    await run;
    const id = f.cases.grid()!.cells[0]!.batchId!;
    const ended = new Promise<void>(resolve => {
      const d = f.batches.onDidEnd(r => {
        if (r.id === id) {
          d.dispose();
          resolve();
        }
      });
    });
    await f.batches.reload();
    await ended;
    await f.cases.idle();
    const polls = service.requests.filter(r => r.method === 'GET' && r.path === `/v1/messages/batches/${id}`);
    assert.ok(polls.length > 0 && polls.every(r => keyOf(r) === API_KEY));
  });

  it('a redirect to the workspace’s address is refused, for a count and for a streamed request', async () => {
    const a = await api();
    const f = await features();
    await fresh();
    service.fail({ path: '/v1/messages/count_tokens', status: 307, headers: { location: `${recorder.url}/v1/x` } }, 2);
    await vscode.commands.executeCommand('promptwright.countTokens');
    const failed = await waitFor('the count refused', () =>
      a.tokens.state.kind === 'error' ? a.tokens.state : undefined,
    );
    assert.equal(failed.type, 'redirect');
    assert.match(failed.message, new RegExp(`redirected to ${recorder.url}/v1/x`));
    service.fail({ path: '/v1/messages', status: 308, headers: { location: `${recorder.url}/v1/messages` } });
    const shown = await errorsDuring(() => vscode.commands.executeCommand('promptwright.sendRequest'));
    assert.equal(f.runner.current?.view.error?.type, 'redirect');
    assert.match(shown.join('\n'), /no redirect is followed/);
  });

  it('a key echoed in an error: not in the notification, the panel, the transcript, the results', async () => {
    const f = await features();
    const echo = `key ${API_KEY} (admin ${ADMIN_KEY}, compliance ${COMPLIANCE_KEY}) refused`;
    await fresh();
    service.fail({ path: '/v1/messages', status: 400, message: echo });
    const shown = await errorsDuring(() => vscode.commands.executeCommand('promptwright.sendRequest'));
    const view = f.runner.current!.view;
    assert.match(view.error!.message, /key \[redacted\] \(admin \[redacted\], compliance \[redacted\]\) refused/);
    const transcript = await vscode.commands.executeCommand<vscode.Uri>('promptwright.saveTranscript');
    // the workspace's transcripts folder is its to set once trusted, never in Restricted Mode
    const folder = trusted() ? path.join(outside, 'transcripts') : uri().fsPath;
    assert.equal(path.dirname(transcript.fsPath), folder);
    const saved = fs.readFileSync(transcript.fsPath, 'utf8');
    fs.rmSync(transcript.fsPath);
    // a case run whose every request is refused the same way: its results file
    service.fail({ path: '/v1/messages', status: 400, message: echo }, 20);
    await vscode.commands.executeCommand('promptwright.runCases', uri('support.cases.yaml'));
    await f.cases.idle();
    const savedTo = await waitFor('the results saved', () => f.cases.grid()?.savedPath);
    const results = fs.readFileSync(savedTo, 'utf8');
    assert.match(results, /\[redacted\]/);
    // results in the repository: the workspace's to turn on once trusted, never in Restricted Mode
    assert.equal(savedTo.startsWith(workspaceUri('.promptwright').fsPath), trusted(), savedTo);
    for (const text of [shown.join('\n'), JSON.stringify(view), saved, results])
      for (const k of KEYS) assert.ok(!text.includes(k), `a key in: ${text.slice(0, 400)}`);
  });

  it('git: the Git extension’s, never the workspace’s git.path; none at all in Restricted Mode', async () => {
    const a = await api();
    await openEditor(DIR, 'hello.prompt.json');
    // the change against HEAD is looked for once the file is counted (asked for in Restricted Mode)
    if (!trusted()) await vscode.commands.executeCommand('promptwright.countTokens');
    const base = await waitFor(
      'the count against HEAD',
      () => (a.tokens.baseCount?.kind === 'counting' ? undefined : a.tokens.baseCount),
      20_000,
    );
    if (trusted()) assert.equal(base.kind, 'count', JSON.stringify(base));
    else
      assert.match(base.kind === 'error' ? base.message : JSON.stringify(base), /git does not run in Restricted Mode/);
  });
});
