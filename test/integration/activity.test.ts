// The Activity Feed panel in the real extension host, against the fake service. The panel is driven
// through `handle`, the entry every webview message goes through (a test cannot click in the webview;
// test/ui/activity.test.mjs does that), and observed through what it loaded and what the fake received.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_COMPLIANCE_KEYS } from '../../src/core/demo/compliance';
import type { Fake } from '../fake/server';
import { ActivityPanel } from '../../src/vscode/compliance/activityPanel';
import { vscodePrompts } from '../../src/vscode/platform/prompts';
import { api, closeEditors, EXTENSION_ID, restoreKeysAfterEach, scripted, setKey, useFake, waitFor } from './helpers';

const FULL_KEY = 'sk-vendor-api01-full';
/** a Compliance Access Key without the feed's scope: the 403 names what it lacks */
const ORG_ONLY_KEY = 'sk-vendor-api01-orgonly';
const FEED = '/v1/compliance/activities';

async function activityPanel(): Promise<ActivityPanel> {
  return (await (await api()).features()).activity;
}

/** Opens the panel as a person does, and waits for its first page. */
async function openPanel(): Promise<ActivityPanel> {
  await vscode.commands.executeCommand('promptwright.openActivityFeed');
  const panel = await activityPanel();
  await waitFor('the first page', () => panel.loadedRecords().length > 0);
  await panel.idle();
  return panel;
}

/** The panel closed, with the whole feed as its filter (the filter outlives the panel, as for a person). */
async function closedOnTheWholeFeed(): Promise<void> {
  const panel = await activityPanel();
  await panel.handle({ type: 'apply', filter: {} });
  panel.dispose();
  panel.prompts = vscodePrompts;
}

const feedRequests = (fake: Fake) => fake.requests.filter(r => r.path === FEED);

/** Asks the fake directly (not through the extension) for one page, to know which cursor it hands out. */
async function pageFromFake(fake: Fake, query: Record<string, string>): Promise<{ last_id: string; data: unknown[] }> {
  const r = await fetch(`${fake.url}${FEED}?${new URLSearchParams(query).toString()}`, {
    headers: { 'x-api-key': FULL_KEY, 'vendor-version': '2023-06-01' },
  });
  assert.equal(r.status, 200);
  return (await r.json()) as { last_id: string; data: unknown[] };
}

function tempFile(name: string): vscode.Uri {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptwright-export-'));
  return vscode.Uri.file(path.join(dir, name));
}

function feedIds(fake: Fake, type?: string): string[] {
  return [...fake.compliance.activities()].filter(a => !type || a.activity_type === type).map(a => a.id);
}

describe('Activity Feed panel (real extension host)', () => {
  const holder = useFake(
    { complianceKeys: { ...DEFAULT_COMPLIANCE_KEYS, [ORG_ONLY_KEY]: ['read:compliance_org_data'] } },
    { 'compliance.pageSize': 50 },
  );

  before(async () => {
    await setKey('compliance', FULL_KEY);
  });
  restoreKeysAfterEach();
  beforeEach(async () => {
    await closedOnTheWholeFeed();
    holder.fake.clear();
  });
  afterEach(async () => {
    await closeEditors();
    await closedOnTheWholeFeed();
  });

  it('opens on the first page only; a type filter then pages as the table scrolls, each after the last', async () => {
    const fake = holder.fake;
    const panel = await openPanel();
    assert.equal(panel.loadedRecords().length, 50, 'one page, not the whole feed');
    assert.deepEqual(
      feedRequests(fake).map(r => r.query),
      [{ limit: '50' }],
    );
    // the workbench tells the extension of its tabs a moment later
    await waitFor('the panel as an editor tab titled "Activity Feed"', () =>
      vscode.window.tabGroups.all.flatMap(g => g.tabs).find(t => t.label === 'Activity Feed'),
    );

    fake.clear();
    const type = 'model_chat_viewed';
    await panel.handle({ type: 'apply', filter: { types: [type] } });
    await panel.handle({ type: 'more' });
    await panel.handle({ type: 'more' });
    const requests = feedRequests(fake);
    assert.equal(requests.length, 3);
    for (const r of requests) {
      assert.equal(r.query['activity_types[]'], type);
      assert.equal(r.query.limit, '50');
    }
    // each after_id is the cursor the previous page ended with, asked of the fake independently
    assert.equal(requests[0]!.query.after_id, undefined);
    const first = await pageFromFake(fake, { 'activity_types[]': type, limit: '50' });
    assert.equal(requests[1]!.query.after_id, first.last_id);
    const second = await pageFromFake(fake, { 'activity_types[]': type, limit: '50', after_id: first.last_id });
    assert.equal(requests[2]!.query.after_id, second.last_id);

    const ids = panel.loadedRecords().map(a => a.id);
    assert.equal(ids.length, 150);
    assert.equal(new Set(ids).size, 150, 'no record twice');
    assert.ok(panel.loadedRecords().every(a => a.activity_type === type));
    assert.deepEqual(ids, feedIds(fake, type).slice(0, 150), 'the feed order, newest first');
    assert.deepEqual(panel.feed().status, { loaded: 150, end: false, keyKind: 'compliance' });
  });

  it('a timestamp that is not full RFC 3339 sends nothing and says which bound is wrong', async () => {
    const panel = await openPanel();
    const before = { filter: panel.feed().filter, loaded: panel.loadedRecords().length };
    holder.fake.clear();
    await panel.handle({ type: 'apply', filter: { types: ['model_file_uploaded'], created: { gte: '2026-01-01' } } });
    await panel.handle({ type: 'apply', filter: { updated: { lt: '2026-01-01T25:00:00Z' } } });
    assert.equal(feedRequests(holder.fake).length, 0);
    const error = panel.feed().error;
    assert.ok(error);
    assert.equal(error.type, 'invalid_filter');
    assert.match(error.message, /updated_at\.lt must be a full RFC 3339 timestamp/);
    assert.deepEqual(panel.feed().filter, before.filter, 'the filter in force is unchanged');
    assert.equal(panel.loadedRecords().length, before.loaded);
  });

  it('a new filter cancels the page in flight: only its own records arrive', async () => {
    const panel = await activityPanel();
    const stale = panel.handle({ type: 'apply', filter: { types: ['model_file_deleted'] } });
    await panel.handle({ type: 'apply', filter: { types: ['org_deleted_via_bulk'] } });
    await stale;
    await panel.idle();
    const loaded = panel.loadedRecords();
    assert.equal(loaded.length, 50);
    assert.ok(loaded.every(a => a.activity_type === 'org_deleted_via_bulk'));
    assert.equal(new Set(loaded.map(a => a.id)).size, 50);
  });

  it('"Open as JSON" opens a record as a read-only JSON document', async () => {
    const panel = await openPanel();
    const record = panel.loadedRecords()[3]!;
    await panel.handle({ type: 'open-json', id: record.id });
    const editor = await waitFor('the JSON editor', () =>
      vscode.window.activeTextEditor?.document.uri.path === `/activity-${record.id}.json`
        ? vscode.window.activeTextEditor
        : undefined,
    );
    assert.deepEqual(JSON.parse(editor.document.getText()), record);
    assert.equal(editor.document.languageId, 'json');
  });

  it('"Refresh organizations" on a membership activity lists the organizations again', async () => {
    const a = await api();
    const f = await a.features();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    let refreshed = 0;
    const panel = new ActivityPanel(ext.extensionUri, f.access, f.json, a.log, a.config, () => refreshed++);
    await panel.handle({ type: 'refresh-organizations', id: 'activity_00000007' });
    assert.equal(refreshed, 1);
    panel.dispose();
  });

  it('exports to CSV: a header, then one row per record with the record as JSON', async () => {
    const panel = await activityPanel();
    await panel.handle({ type: 'apply', filter: {} });
    holder.fake.clear();
    const file = tempFile('activities.csv');
    const result = await panel.exportTo(file, 'csv');
    assert.equal(result.outcome, 'done');
    const lines = fs.readFileSync(file.fsPath, 'utf8').split('\r\n');
    assert.equal(lines.at(-1), '', 'every row ends with CRLF');
    assert.equal(lines[0], 'id,activity_type,created_at,updated_at,record');
    const rows = lines.slice(1, -1);
    assert.equal(rows.length, 2000);
    const parsed = rows.map(line => {
      const [id, type, created, updated] = line.split(',', 4);
      const rest = line.slice([id, type, created, updated].join(',').length + 1);
      assert.match(rest, /^".*"$/, 'the record field is quoted (it holds commas and quotes)');
      return { id, type, record: JSON.parse(rest.slice(1, -1).replace(/""/g, '"')) as { id: string } };
    });
    assert.deepEqual(
      parsed.map(p => p.id),
      feedIds(holder.fake),
    );
    assert.ok(parsed.every(p => p.record.id === p.id));
    const requests = feedRequests(holder.fake).filter(r => r.query.limit === '1000');
    assert.equal(requests.length, 2, 'two pages of 1,000');
  });

  it('Export asks the format and the file; cancelling either writes nothing', async () => {
    const panel = await activityPanel();
    const file = tempFile('activities.jsonl');
    const seen: string[] = [];
    panel.prompts = scripted([undefined], seen);
    await panel.handle({ type: 'export' });
    panel.prompts = scripted(['CSV', undefined], seen);
    await panel.handle({ type: 'export' });
    assert.equal(feedRequests(holder.fake).length, 0);
    panel.prompts = scripted(['JSON Lines', file.fsPath], seen);
    await panel.handle({ type: 'export' });
    assert.match(seen[0]!, /^pick: Export the Activity Feed: JSON Lines\|CSV$/);
    assert.match(seen[2]!, /^saveAs: Export the Activity Feed$/);
    const lines = fs.readFileSync(file.fsPath, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 2000);
  });

  it('cancelling an export stops it and leaves no file', async () => {
    const panel = await activityPanel();
    const file = tempFile('cancelled.jsonl');
    const cancel = new AbortController();
    const pagesSeen: number[] = [];
    const result = await panel.exportTo(file, 'jsonl', {
      signal: cancel.signal,
      onProgress: p => {
        pagesSeen.push(p.pages);
        cancel.abort(); // as the notification's Cancel, once the first page is written
      },
    });
    assert.equal(result.outcome, 'cancelled');
    assert.deepEqual(pagesSeen, [1]);
    assert.equal(fs.existsSync(file.fsPath), false, 'the partial file is removed');
  });

  it('an Admin key reads the feed (doc3 §5 rule 4)', async () => {
    const panel = await activityPanel();
    await setKey('compliance', undefined);
    await setKey('admin', holder.fake.adminKey);
    holder.fake.clear();
    await panel.handle({ type: 'apply', filter: { types: ['model_project_created'] } });
    assert.equal(panel.feed().error, undefined);
    assert.equal(panel.loadedRecords().length, 50);
    assert.equal(panel.feed().status.keyKind, 'admin');
    assert.equal(feedRequests(holder.fake)[0]!.headers['x-api-key'], holder.fake.adminKey);
  });

  it('a standard API key is told it is the wrong kind of key; Retry with the right one recovers', async () => {
    const panel = await activityPanel();
    await setKey('compliance', holder.fake.apiKey);
    await panel.handle({ type: 'apply', filter: {} });
    const error = panel.feed().error;
    assert.ok(error);
    assert.equal(error.status, 401);
    assert.equal(error.type, 'authentication_error');
    assert.match(error.explanation ?? '', /needs a Compliance Access Key \(sk-vendor-api01…\), not a standard API key/);
    assert.ok(error.requestId, 'the request-id is shown');
    assert.equal(error.offerSetKey, true);
    assert.equal(panel.loadedRecords().length, 0);
    // scrolling does not ask again while the banner is up; Retry does
    holder.fake.clear();
    await panel.handle({ type: 'more' });
    assert.equal(feedRequests(holder.fake).length, 0);
    await setKey('compliance', FULL_KEY);
    await panel.handle({ type: 'retry' });
    assert.equal(panel.feed().error, undefined);
    assert.equal(panel.loadedRecords().length, 50);
    await panel.handle({ type: 'more' });
    assert.equal(panel.loadedRecords().length, 100, 'and scrolling pages again');
  });

  it('a key without the feed scope is told what it lacks', async () => {
    const panel = await activityPanel();
    await setKey('compliance', ORG_ONLY_KEY);
    await panel.handle({ type: 'apply', filter: {} });
    const error = panel.feed().error;
    assert.ok(error);
    assert.equal(error.status, 403);
    assert.equal(error.type, 'permission_error');
    assert.match(error.explanation ?? '', /cannot read the Activity Feed: it lacks read:compliance_activities/);
  });

  it('closing the panel drops what it loaded and cancels the page in flight', async () => {
    const panel = await openPanel();
    const pending = panel.handle({ type: 'more' });
    panel.dispose();
    await pending;
    assert.equal(panel.loadedRecords().length, 0);
    // and it opens again on the first page
    panel.open();
    await waitFor('the first page again', () => panel.loadedRecords().length === 50);
  });
});

describe('Activity Feed export under rate limiting (real extension host)', () => {
  // one request a second for the whole interface, and no retries in the transport: every 429 reaches the
  // export, which must wait and ask for the same cursor again
  const holder = useFake({ complianceRate: { limit: 1, windowMs: 1000 } }, { maxRetries: 0 });

  before(async () => {
    await setKey('compliance', FULL_KEY);
  });
  after(closedOnTheWholeFeed);

  it('exports all 2,000 records to JSON Lines in feed order, asking a refused cursor again', async function () {
    this.timeout(60000);
    const fake = holder.fake;
    const panel = await activityPanel();
    await panel.handle({ type: 'apply', filter: {} });
    assert.deepEqual(panel.feed().filter, {}, 'the whole feed');
    // what that page cost is forgotten: the budget starts afresh for the export
    fake.clear();
    // and one refusal injected before the first page, on top of the budget's own
    fake.fail({ path: FEED, status: 429, errorType: 'rate_limit_error', headers: { 'retry-after': '1' } });
    const file = tempFile('activities.jsonl');
    const progress: number[] = [];
    const result = await panel.exportTo(file, 'jsonl', { onProgress: p => progress.push(p.records) });
    assert.equal(result.outcome, 'done');
    assert.deepEqual(progress, [1000, 2000]);

    const lines = fs.readFileSync(file.fsPath, 'utf8').split('\n');
    assert.equal(lines.pop(), '');
    const ids = lines.map(l => (JSON.parse(l) as { id: string }).id);
    assert.equal(ids.length, 2000);
    assert.equal(new Set(ids).size, 2000, 'no duplicate ids');
    assert.deepEqual(ids, feedIds(fake), 'the order of the feed');

    const cursors = feedRequests(fake).map(r => r.query.after_id);
    assert.ok(fake.compliance.throttled.length >= 1, 'the budget refused at least one request');
    // runs of one cursor: the first page (asked twice, once refused by the fault), then the second page's
    // cursor, asked again after each 429 and never skipped past
    const runs = cursors.filter((c, i) => i === 0 || cursors[i - 1] !== c);
    assert.equal(runs.length, 2);
    assert.equal(runs[0], undefined);
    const second = cursors.filter(c => c === runs[1]).length;
    assert.ok(cursors.filter(c => c === undefined).length >= 2, `first page asked again: ${cursors.join(' ')}`);
    assert.ok(second >= 2, `the refused cursor asked again (${second} times)`);
    assert.ok(feedRequests(fake).every(r => r.query.limit === '1000'));
  });
});
