import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/core/api/client';
import { firstPage, Pager } from '../../../src/core/api/pager';
import type { SessionResource } from '../../../src/core/api/types';
import { checkAttachInput, describeResource } from '../../../src/core/sessions/resources';
import { useFake } from '../../support/fake';

describe('session resources (doc2 §2.1, §4.1)', () => {
  const fake = useFake();
  const waits: number[] = [];
  const pager = (limit: number) => {
    const client = new ApiClient({
      baseUrl: fake.url,
      apiKey: fake.apiKey,
      maxRetries: 2,
      sleep: async ms => {
        waits.push(ms);
      },
    });
    return new Pager<SessionResource>(cursor =>
      firstPage(client.resourcePages('ses_big', { limit, ...(cursor ? { page: cursor } : {}) })),
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
