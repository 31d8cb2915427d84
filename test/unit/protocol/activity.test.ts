// The Activity Feed's protocol: what the webview sends is untrusted input, so every malformed message is
// dropped; a filter's shape is checked here and its timestamps by the extension (filterProblems).
import * as assert from 'node:assert/strict';
import {
  activityRow,
  parseFilter,
  parseFromActivityWebview,
  parseActivityWebviewState,
  type FromActivityWebview,
} from '../../../src/protocol/activity';

describe('Activity Feed protocol', () => {
  describe('parseFromActivityWebview', () => {
    it('accepts every message kind in its shape', () => {
      const good: FromActivityWebview[] = [
        { type: 'ready' },
        { type: 'more' },
        { type: 'newer' },
        { type: 'export' },
        { type: 'retry' },
        { type: 'set-key' },
        { type: 'open', id: 'activity_00000042' },
        { type: 'refresh-organizations', id: 'activity_00000007' },
        { type: 'apply', filter: {} },
        {
          type: 'apply',
          filter: {
            types: ['model_chat_viewed', 'org_deleted_via_bulk', 'a_type_the_spec_does_not_list'],
            created: { gte: '2026-01-01T00:00:00Z', lt: '2026-02-01T00:00:00+02:00' },
            updated: { gt: '2026-01-05T10:00:00.5Z' },
          },
        },
      ];
      for (const m of good) assert.deepEqual(parseFromActivityWebview(m), m, JSON.stringify(m));
    });

    it('keeps only the known fields of a message', () => {
      assert.deepEqual(parseFromActivityWebview({ type: 'more', after_id: 'forged' }), { type: 'more' });
      assert.deepEqual(parseFromActivityWebview({ type: 'open', id: 'activity_1', html: '<b>' }), {
        type: 'open',
        id: 'activity_1',
      });
    });

    it('drops what is not an object, an unknown type, and a missing or bad id', () => {
      const bad: unknown[] = [
        undefined,
        null,
        'ready',
        42,
        [],
        [{ type: 'ready' }],
        {},
        { type: 'READY' },
        { type: 'load-everything' },
        { type: 'open' },
        { type: 'open', id: '' },
        { type: 'open', id: 7 },
        { type: 'open', id: 'x'.repeat(501) },
        { type: 'refresh-organizations', id: null },
        { type: 'toString' },
        { type: '__proto__' },
      ];
      for (const m of bad) assert.equal(parseFromActivityWebview(m), undefined, JSON.stringify(m));
    });

    it('drops an apply whose filter is malformed', () => {
      const filters: unknown[] = [
        undefined,
        null,
        'types=model_chat_viewed',
        { types: 'model_chat_viewed' },
        { types: [1] },
        { types: ['two words'] },
        { types: ['<script>'] },
        { types: ['x'.repeat(201)] },
        { types: Array.from({ length: 101 }, (_, i) => `type_${i}`) },
        { created: '2026-01-01T00:00:00Z' },
        { created: ['2026-01-01T00:00:00Z'] },
        { created: { eq: '2026-01-01T00:00:00Z' } },
        { created: { gte: 20260101 } },
        { updated: { lt: null } },
        { updated: { lt: 'x'.repeat(65) } },
      ];
      for (const filter of filters)
        assert.equal(parseFromActivityWebview({ type: 'apply', filter }), undefined, JSON.stringify(filter));
    });

    it('leaves the timestamp check to the extension: a bad bound is passed on to be reported, not dropped', () => {
      assert.deepEqual(parseFromActivityWebview({ type: 'apply', filter: { created: { gte: '2026-01-01' } } }), {
        type: 'apply',
        filter: { created: { gte: '2026-01-01' } },
      });
    });
  });

  describe('parseFilter', () => {
    it('drops repeated types and empty parts', () => {
      assert.deepEqual(parseFilter({ types: ['model_chat_viewed', 'model_chat_viewed'], created: {}, updated: {} }), {
        types: ['model_chat_viewed'],
      });
      assert.deepEqual(parseFilter({ types: [] }), {});
    });
  });

  describe('parseActivityWebviewState', () => {
    it('restores a saved filter and refuses anything else', () => {
      assert.deepEqual(parseActivityWebviewState({ filter: { types: ['org_deleted_via_bulk'] } }), {
        filter: { types: ['org_deleted_via_bulk'] },
      });
      assert.equal(parseActivityWebviewState(undefined), undefined);
      assert.equal(parseActivityWebviewState({ filter: { types: 'x y' } }), undefined);
      assert.equal(parseActivityWebviewState({ runId: 3 }), undefined);
    });
  });

  describe('activityRow', () => {
    it('summarizes a record as the fake (and, as far as the spec shows, the service) writes it', () => {
      const row = activityRow({
        id: 'activity_00000012',
        type: 'activity',
        activity_type: 'org_join_proposal_decided',
        created_at: '2026-01-01T00:25:00.000Z',
        updated_at: '2026-01-01T00:25:00.000Z',
        actor: { type: 'user', id: 'user_01', email: 'ada@example.com' },
        organization_id: '4a1f0c2e-0000-4000-8000-000000000001',
        target: { type: 'organization', id: '4a1f0c2e-0000-4000-8000-000000000001' },
      });
      assert.deepEqual(row, {
        id: 'activity_00000012',
        time: '2026-01-01T00:25:00.000Z',
        type: 'org_join_proposal_decided',
        label: 'Organization join proposal decided',
        actor: 'ada@example.com',
        target: '4a1f0c2e-0000-4000-8000-000000000001',
        targetKind: 'organization',
        organization: '4a1f0c2e-0000-4000-8000-000000000001',
        membership: true,
      });
    });

    it('reads fields it cannot be sure of defensively (the spec does not show them)', () => {
      assert.deepEqual(activityRow({ id: 'activity_1', type: 'model_chat_viewed', actor: 'svc-account' }), {
        id: 'activity_1',
        time: '',
        type: 'model_chat_viewed',
        label: 'Chat viewed',
        actor: 'svc-account',
        target: '',
        targetKind: '',
        organization: '',
        membership: false,
      });
      const odd = activityRow({ id: 'activity_2', actor: { name: 'Ada' }, target: 'model_file_9', org_id: 'o1' });
      assert.equal(odd.actor, 'Ada');
      assert.equal(odd.target, 'model_file_9');
      assert.equal(odd.organization, 'o1');
      assert.equal(activityRow({ id: 'a', actor: { id: { nested: true } } }).actor, '');
    });
  });
});
