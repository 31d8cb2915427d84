import * as assert from 'node:assert/strict';
import type { RateLimitEntry } from '../../../src/core/api/types';
import {
  groupSummary,
  groupText,
  isDefaultWorkspace,
  limiterText,
  organizationView,
  workspaceView,
} from '../../../src/core/rateLimits/limits';

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
      label: '1,000 requests/min',
      description: 'override · organization: 4,000',
    });
    const none = workspaceView(org, [
      { ...ws[0]!, limits: [{ type: 'output_tokens_per_minute', value: 5, org_limit: null }] },
    ]);
    assert.match(limiterText(none[0]!.limiters[0]!).description, /organization: none set/);
  });
  it('rule 4: the default workspace has no overrides', () => {
    assert.equal(isDefaultWorkspace('default'), true);
    assert.equal(isDefaultWorkspace('wrkspc_1'), false);
  });
});

describe('rate limits in words', () => {
  it('a model group by its family, the other groups by name, limits as a person reads them', () => {
    const [opus, mixed, batch, files] = organizationView([
      {
        type: 'rate_limit',
        group_type: 'model_group',
        models: ['model-opus-4-7', 'model-opus-4-6', 'model-opus-4-5-20251101'],
        limits: [
          { type: 'requests_per_minute', value: 4000 },
          { type: 'input_tokens_per_minute', value: 2000000 },
          { type: 'output_tokens_per_minute', value: 400000 },
        ],
      },
      { type: 'rate_limit', group_type: 'model_group', models: ['model-opus-4-7', 'model-sonnet-4-6'], limits: [] },
      {
        type: 'rate_limit',
        group_type: 'batch',
        models: null,
        limits: [{ type: 'enqueued_batch_requests', value: 500000 }],
      },
      { type: 'rate_limit', group_type: 'files', models: null, limits: [{ type: 'storage_bytes', value: 10 }] },
    ]);
    assert.equal(groupText(opus!), 'Opus models');
    assert.equal(groupSummary(opus!), '4,000 requests/min · 2,000,000 input tokens/min · 400,000 output tokens/min');
    assert.equal(groupText(mixed!), 'Model group');
    assert.equal(groupText(batch!), 'Batches');
    assert.equal(groupSummary(batch!), '500,000 queued batch requests');
    // a limiter type the spec does not show is still said in words
    assert.equal(groupSummary(files!), '10 storage bytes');
  });
});
