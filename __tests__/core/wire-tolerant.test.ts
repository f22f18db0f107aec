// Reading answers tolerantly: the answer schemas say exactly what the service writes; `tolerant(...)` of
// them takes what the service has been seen to send as well (any case, new enum values, new fields) and
// still refuses a wrong shape.
import { describe, expect, it } from '@jest/globals';
import { Value } from '@sinclair/typebox/value';
import { ENDPOINTS, SubmittedPullRequest, WEBHOOK_EVENTS, tolerant } from '../../src/wire/index.js';

const pr = {
  id: '6f1f2d0e-0000-4000-8000-000000000001',
  state: 'testing',
  stateChangedAt: '2025-01-06T09:00:00.000Z',
  priorityValue: 100,
  priorityName: 'medium',
  skipTheLine: false,
  forceEnqueued: false,
  isCurrentlySubmittedToQueue: true,
  prNumber: 7,
  prTitle: 'Add caching',
  prSha: 'c0ffee',
  prBaseBranch: 'main',
  prAuthor: 'mona',
  readiness: { requiresImpactedTargets: false, doesBaseBranchMatch: true, gitHubMergeability: 'mergeable' },
};

describe('answer schemas', () => {
  it('take exactly the values the service writes', () => {
    expect(Value.Check(SubmittedPullRequest, pr)).toBe(true);
    expect(Value.Check(SubmittedPullRequest, { ...pr, state: 'TESTING' })).toBe(false);
    expect(Value.Check(SubmittedPullRequest, { ...pr, state: 'queued_for_merge' })).toBe(false);
  });

  it('read tolerantly: any case, unknown enum values and unknown fields', () => {
    const reader = tolerant(ENDPOINTS.getSubmittedPullRequest.response);
    expect(Value.Check(reader, { ...pr, state: 'TESTING' })).toBe(true);
    expect(Value.Check(reader, { ...pr, state: 'queued_for_merge', mergeGroup: { id: 3 } })).toBe(true);
    expect(
      Value.Check(reader, { ...pr, readiness: { ...pr.readiness, gitHubMergeability: 'BLOCKED' } }),
    ).toBe(true);
  });

  it('still refuse a wrong shape when reading tolerantly', () => {
    const reader = tolerant(SubmittedPullRequest);
    const { prNumber: _dropped, ...missing } = pr;
    expect(Value.Check(reader, missing)).toBe(false);
    expect(Value.Check(reader, { ...pr, prNumber: '7' })).toBe(false);
    expect(Value.Check(reader, { ...pr, state: 3 })).toBe(false);
    expect(Value.Check(reader, 'OK')).toBe(false);
  });

  it('read webhook event names in any case but not another event', () => {
    const reader = tolerant(WEBHOOK_EVENTS['pull_request.merged']!);
    const merged = {
      type: 'pull_request.merged',
      action: 'merged',
      status: 'merged',
      author: 'mona',
      http_details_url: 'https://app.example/pr/7',
      pr_number: 7,
      repository: { host: 'github.com', owner: 'acme', name: 'web' },
      target_branch: 'main',
      timestamp: '2025-01-06T09:00:00Z',
    };
    expect(Value.Check(WEBHOOK_EVENTS['pull_request.merged']!, merged)).toBe(true);
    expect(Value.Check(reader, { ...merged, action: 'MERGED', merged_reason: 'SOMETHING_NEW' })).toBe(true);
    expect(Value.Check(reader, { ...merged, type: 'pull_request.failed' })).toBe(false);
  });
});
