// Reading answers tolerantly: the answer schemas say exactly what the service writes; `tolerant(...)` of
// them takes what the service has been seen to send as well (any case, new enum values, new fields) and
// still refuses a wrong shape.
import { describe, expect, it } from '@jest/globals';
import { Value } from '@sinclair/typebox/value';
import { readFileSync } from 'node:fs';
import { format } from 'prettier';
import { renderAnswerShapes } from '../../scripts/answer-shapes.js';
import { answerProblem } from '../../src/core/api/answers.js';
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

// The action checks answers against the answer shapes, the tolerant schemas written out as plain data,
// so that a run does not load the schema builder.
describe('answer shapes', () => {
  it('are what `npm run metadata` writes from the answer schemas today', async () => {
    const file = 'src/wire/answer-shapes.ts';
    const prettier = JSON.parse(readFileSync('.prettierrc.json', 'utf8')) as Record<string, unknown>;
    const rendered = await format(renderAnswerShapes(), { ...prettier, parser: 'typescript' });
    expect(rendered === readFileSync(file, 'utf8') || `${file} is out of date: run npm run metadata`).toBe(
      true,
    );
  });

  it('take and refuse the answers the tolerant schema takes and refuses', () => {
    const reader = tolerant(ENDPOINTS.getSubmittedPullRequest.response);
    const { prNumber: _dropped, ...missing } = pr;
    const answers = [
      pr,
      { ...pr, state: 'TESTING', mergeGroup: { id: 3 } },
      { ...pr, readiness: { ...pr.readiness, gitHubMergeability: 'BLOCKED' } },
      missing,
      { ...pr, prNumber: '7' },
      { ...pr, state: 3 },
      { ...pr, readiness: [] },
      { ...pr, verifiedByTestRun: 12 },
      [pr],
    ];
    const verdicts = answers.map((answer) => {
      const text = JSON.stringify(answer);
      return answerProblem('getSubmittedPullRequest', text, answer) === undefined;
    });
    expect(verdicts).toEqual(answers.map((answer) => Value.Check(reader, answer)));
    expect(verdicts.filter(Boolean)).toHaveLength(3);
  });
});
