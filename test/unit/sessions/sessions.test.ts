import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import { checkAttachInput, describeResource, ResourcePager } from '../../../src/core/sessions/resources';
import { isDefaultWorkspace, limiterText, workspaceView } from '../../../src/core/sessions/limits';
import type { RateLimitEntry } from '../../../src/core/api/types';
import { startFake, type Fake } from '../../fake/server';

describe('session resources (doc2 §2.1, §4.1)', () => {
  let fake: Fake;
  const waits: number[] = [];
  before(async () => {
    fake = await startFake();
  });
  after(async () => {
    await fake.close();
  });
  const pager = (limit: number) => {
    const client = new ApiClient({
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      maxRetries: 2,
      sleep: async ms => {
        waits.push(ms);
      },
    });
    return new ResourcePager(
      async cursor =>
        (await client.resourcePages('ses_big', { limit, ...(cursor ? { page: cursor } : {}) }).next()).value!,
    );
  };
  it('pages follow next_page to the end, a page at a time', async () => {
    const p = pager(1000);
    await p.loadMore();
    assert.equal(p.items.length, 1000);
    assert.equal(p.done, false);
    await p.loadAll();
    assert.equal(p.items.length, 2500);
    assert.equal(p.done, true);
    assert.deepEqual(p.items.map(r => r.id ?? r.memory_store_id).slice(0, 2), ['sesrsc_big_0', 'sesrsc_big_1']);
  });
  it('a 429 on a page waits and repeats the same page', async () => {
    const p = pager(500);
    await p.loadMore();
    fake.clear();
    fake.fail({ status: 429, headers: { 'retry-after': '3' }, path: '/resources' });
    waits.length = 0;
    await p.loadMore();
    assert.equal(p.items.length, 1000);
    assert.deepEqual(waits, [3000]);
    assert.equal(fake.requests[0]!.query.page, fake.requests[1]!.query.page);
  });
  it('after an error it keeps what it has and retries from the same cursor', async () => {
    const p = pager(500);
    await p.loadMore();
    const cursor = p.cursor;
    fake.fail({ status: 404, path: '/resources' });
    await p.loadMore();
    assert.ok(p.error);
    assert.equal(p.cursor, cursor);
    await p.loadMore();
    assert.equal(p.error, undefined);
    assert.equal(p.items.length, 1000);
  });
  it('describes each resource type', () => {
    const gh = describeResource({
      id: 'sesrsc_1',
      type: 'github_repository',
      url: 'https://github.com/acme/app',
      mount_path: '/workspace/app',
      checkout: { type: 'commit', sha: 'a'.repeat(40) },
    });
    assert.deepEqual([gh.label, gh.description, gh.icon], ['acme/app', 'commit aaaaaaaaaaaa · /workspace/app', 'repo']);
    const f = describeResource({
      id: 'sesrsc_2',
      type: 'file',
      file_id: 'file_9',
      mount_path: '/mnt/session/uploads/file_9',
    });
    assert.deepEqual([f.label, f.description, f.icon], ['file_9', '/mnt/session/uploads/file_9', 'file']);
    const m = describeResource({
      type: 'memory_store',
      memory_store_id: 'memstore_1',
      name: 'notes',
      access: 'read_only',
      mount_path: '/mnt/memory/notes',
    });
    assert.deepEqual([m.label, m.description, m.icon], ['notes', 'read-only · /mnt/memory/notes', 'database']);
  });
  it('attach input is validated before sending', () => {
    assert.match(checkAttachInput('', '')!, /required/);
    assert.match(checkAttachInput('file 1', '')!, /no spaces/);
    assert.match(checkAttachInput('file_1', 'relative/path')!, /absolute/);
    assert.equal(checkAttachInput('file_1', ''), undefined);
  });
});

describe('workspace rate-limit overrides (doc2 §2.7 rules 1-4)', () => {
  const org: RateLimitEntry[] = [
    {
      type: 'rate_limit',
      group_type: 'model_group',
      models: ['model-opus-4-7'],
      limits: [
        { type: 'requests_per_minute', value: 4000 },
        { type: 'input_tokens_per_minute', value: 2000000 },
      ],
    },
    {
      type: 'rate_limit',
      group_type: 'batch',
      models: null,
      limits: [{ type: 'enqueued_batch_requests', value: 500000 }],
    },
  ];
  const ws: RateLimitEntry[] = [
    {
      type: 'workspace_rate_limit',
      group_type: 'model_group',
      models: ['model-opus-4-7'],
      limits: [{ type: 'requests_per_minute', value: 1000, org_limit: 4000 }],
    },
  ];
  const v = workspaceView(org, ws);
  it('rule 1: a group absent from the workspace inherits the organization limits (not unlimited)', () => {
    const batch = v.find(g => g.groupType === 'batch')!;
    assert.equal(batch.inherited, true);
    assert.deepEqual(batch.limiters, [{ type: 'enqueued_batch_requests', value: 500000, source: 'inherited' }]);
  });
  it('rule 2: a limiter absent from a present group inherits the organization value', () => {
    const g = v.find(x => x.groupType === 'model_group')!;
    assert.deepEqual(
      g.limiters.find(l => l.type === 'input_tokens_per_minute'),
      { type: 'input_tokens_per_minute', value: 2000000, source: 'inherited' },
    );
  });
  it('rule 3: an override shows org_limit beside it', () => {
    const l = v.find(x => x.groupType === 'model_group')!.limiters.find(x => x.type === 'requests_per_minute')!;
    assert.deepEqual(limiterText(l), {
      label: 'requests_per_minute: 1,000',
      description: 'override · organization 4,000',
    });
    const none = workspaceView(org, [
      { ...ws[0]!, limits: [{ type: 'output_tokens_per_minute', value: 5, org_limit: null }] },
    ]);
    assert.match(limiterText(none[0]!.limiters[0]!).description, /organization none configured/);
  });
  it('rule 4: the default workspace has no overrides', () => {
    assert.equal(isDefaultWorkspace('default'), true);
    assert.equal(isDefaultWorkspace('wrkspc_1'), false);
  });
});
