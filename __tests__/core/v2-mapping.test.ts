// How v2's answers are read into what people see: the dispatch order as the PR's place (what is directly
// ahead, what holds it, the run it is in), a run's checks in reading order, reasons and states in words,
// and the testing-results window checked before anything is sent.
import { describe, expect, it } from '@jest/globals';
import type { V2 } from '../../src/wire/v2/index.js';
import { dispatchLineOf, dispatchWords } from '../../src/core/operations/pull-request/v2/dispatch.js';
import { runChecks } from '../../src/core/operations/pull-request/v2/checks.js';
import { verificationRunReport } from '../../src/core/operations/pull-request/v2/run-report.js';
import { actorWords, reasonWords, stateWords } from '../../src/core/operations/pull-request/v2/words.js';
import { testingWindow } from '../../src/core/operations/pull-request/v2/testing-results.js';

const pr = (number: number): V2<'QueuedPullRequest'> => ({
  id: `pr-${number}`,
  number,
  sha: `${number}`.padEnd(40, 'a'),
  title: `PR ${number}`,
});

const ORDER: V2<'MergeQueueOrder'> = {
  mode: 'queue',
  queueState: 'running',
  batchingEnabled: true,
  isolationResolved: true,
  hasCycle: false,
  batches: [
    { verificationRunId: 'run-1', state: 'testing', isBisection: false, pullRequests: [pr(3), pr(4)] },
    { verificationRunId: 'run-2', state: 'pendingFailure', isBisection: false, pullRequests: [pr(5)] },
  ],
  pending: [
    {
      pullRequest: pr(6),
      schedulability: 'heldBehindFailure',
      directlyAhead: [pr(5)],
      heldBy: [pr(5)],
      predictedBatch: 1,
    },
    {
      pullRequest: pr(7),
      schedulability: 'heldBehindFailure',
      directlyAhead: [pr(6)],
      heldBy: [pr(5)],
      predictedBatch: 2,
    },
  ],
  awaitingAdmission: [pr(9)],
  awaitingAdmissionTotal: 1,
};

describe('the dispatch order as the PR place', () => {
  it('a waiting PR: what is directly ahead, what holds it, its predicted batch', () => {
    const line = dispatchLineOf(ORDER, 7);
    expect(line).toMatchObject({ queueState: 'running', position: 5, length: 5 });
    expect(line.ahead.map((p) => [p.prNumber, p.state])).toEqual([
      [3, 'testing'],
      [4, 'testing'],
      [5, 'pending_failure'],
      [6, 'pending'],
    ]);
    expect(dispatchWords(line.dispatch!)).toBe(
      'directly behind #6, held by #5 (failed; the queue is working out which PR is to blame), predicted batch 2',
    );
  });

  it('a PR under test: the run and the PRs tested with it', () => {
    expect(dispatchWords(dispatchLineOf(ORDER, 4).dispatch!)).toBe('in one run with #3');
    expect(dispatchWords(dispatchLineOf(ORDER, 5).dispatch!)).toBe('in its own run');
  });

  it('a PR not admitted yet has no place (v2 lists it apart), nor one not in the queue', () => {
    expect(dispatchLineOf(ORDER, 9)).toMatchObject({ position: undefined, ahead: [] });
    expect(dispatchLineOf(ORDER, 9).dispatch).toBeUndefined();
    expect(dispatchLineOf({ ...ORDER, queueState: 'switchingModes' }, 1).queueState).toBe('switching_modes');
  });
});

const check = (name: string, conclusion: V2<'CheckConclusion'>, status: V2<'CheckStatus'> = 'completed') =>
  ({
    id: name,
    name,
    kind: 'checkRun',
    status,
    conclusion,
    url: `https://ci.example/${name}`,
    provider: 'github',
  }) as V2<'Check'>;

const RUN: V2<'VerificationRun'> = {
  id: 'run-9',
  isBisection: false,
  testBranch: 'trunk-merge/pr-7/run-9',
  testBranchSha: 'b'.repeat(40),
  createdAt: '2026-01-05T08:00:00Z',
  updatedAt: '2026-01-05T08:12:00Z',
  status: 'failed',
  requiredStatuses: ['build', 'test'],
  checks: [
    check('lint', 'failure'),
    check('build', 'success'),
    check('docs', 'success'),
    check('test', 'timeout'),
  ],
  testedPullRequests: [pr(7)],
  dependentPullRequests: [],
};

describe("a verification run's checks", () => {
  it('required first, failures first among them, each said required or not', () => {
    expect(runChecks(RUN).map((c) => [c.name, c.result, c.required, c.failed])).toEqual([
      ['test', 'TIMED_OUT', true, true],
      ['build', 'SUCCESS', true, false],
      ['lint', 'FAILURE', false, true],
      ['docs', 'SUCCESS', false, false],
    ]);
  });

  it('a check still running shows its status, and is not a failure', () => {
    const running = runChecks({ ...RUN, checks: [check('test', 'success', 'inProgress')] });
    expect(running).toEqual([
      expect.objectContaining({ name: 'test', result: 'IN_PROGRESS', failed: false }),
    ]);
  });

  it('the failure summary names the failing checks, the required one first', () => {
    const report = verificationRunReport(RUN);
    expect(report).toMatchObject({ testRunId: 'run-9', status: 'failed', testedPrNumbers: [7] });
    expect(report.failing.map((c) => [c.name, c.conclusion, c.required])).toEqual([
      ['test', 'TIMED_OUT', true],
      ['lint', 'FAILURE', false],
    ]);
  });
});

describe('words', () => {
  it('reasons, states and actors as people say them; unknown values spelled out, never dropped', () => {
    expect(reasonWords('PREREQUISITE_MERGE_ITEM_FAILED')).toBe('a PR it was tested on top of failed');
    expect(reasonWords('SOME_NEW_REASON')).toBe('some new reason');
    expect(reasonWords(null)).toBe('');
    expect(stateWords('pendingFailure')).toBe('failed, waiting on the PRs ahead');
    expect(stateWords('someNewState')).toBe('some new state');
    expect(actorWords({ gitHubLogin: 'octocat' })).toBe('@octocat');
    expect(actorWords({ trunkUserId: 'u1' })).toBe('a Trunk user');
    expect(actorWords(undefined)).toBe('');
  });
});

describe('the testing-results window', () => {
  const now = Date.parse('2026-03-01T00:00:00Z');
  it('defaults to the 7 days before now, leaving the end to the service', () => {
    expect(testingWindow({}, now)).toEqual({ since: '2026-02-22T00:00:00.000Z' });
  });

  it('refuses more than 45 days, or an end before the start, in one line naming since', () => {
    expect(() => testingWindow({ since: '2026-01-01T00:00:00.000Z' }, now)).toThrow(
      'Input "since": is 59 days before now, and the API answers at most 45 days. Set since and until at most 45 days apart (ask for longer spans window by window).',
    );
    expect(() =>
      testingWindow({ since: '2026-02-10T00:00:00.000Z', until: '2026-02-01T00:00:00.000Z' }, now),
    ).toThrow('Input "since": is not before until. Set since to an earlier date-time than until.');
    expect(testingWindow({ since: '2026-01-15T00:00:00.000Z' }, now)).toEqual({
      since: '2026-01-15T00:00:00.000Z',
    });
  });
});
