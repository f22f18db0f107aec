// The emulator's public API surface: auth, body limits, validation, plain-text errors and the
// pull-request endpoints, over HTTP.
import { describe, expect, it, beforeAll } from '@jest/globals';
import { Value } from '@sinclair/typebox/value';
import { MAX_BODY_BYTES, SubmittedPullRequest, TestingDetails } from '../../src/wire/index.js';
import { QueueDriver, request, useEmulator } from '../helpers/emulator.js';

const emu = useEmulator();
const queue = new QueueDriver(emu, 'octo-org/api-repo');

beforeAll(async () => {
  await queue.create();
});

const ref = () => ({ repo: queue.repo, targetBranch: queue.branch });

describe('authentication', () => {
  it('answers 401 Unauthorized in plain text without the token or with a wrong one', async () => {
    for (const headers of [{ 'x-api-token': '' }, { 'x-api-token': 'wrong' }]) {
      const answer = await emu.api('/getQueue', ref(), headers);
      expect(answer.status).toBe(401);
      expect(answer.contentType).toMatch(/^text\/plain/);
      expect(answer.text).toBe('Unauthorized');
    }
  });

  it('guards the control surface with the same token', async () => {
    const answer = await request(`${emu.current.origin}/_emulator/clock`, 'GET', undefined, {});
    expect(answer.status).toBe(401);
  });

  it('accepts the forked-workflow run id instead of the token on setImpactedTargets only', async () => {
    const body = { ...ref(), pr: { number: 40, sha: 'f0f0' }, impactedTargets: ['//a'] };
    const fork = { 'x-api-token': '', 'x-forked-workflow-run-id': '123456' };
    expect((await emu.api('/setImpactedTargets', body, fork)).status).toBe(200);
    expect((await emu.api('/getQueue', ref(), fork)).status).toBe(401);
    const blank = { 'x-api-token': '', 'x-forked-workflow-run-id': ' ' };
    expect((await emu.api('/setImpactedTargets', body, blank)).status).toBe(401);
  });
});

describe('request bodies', () => {
  it('takes a body of exactly 20 MiB and refuses one byte more with 413', async () => {
    const shell = JSON.stringify({ ...ref(), pr: { number: 41, sha: 'abc' }, impactedTargets: ['x'] });
    const atLimit = shell.replace('["x"]', `["${'x'.repeat(MAX_BODY_BYTES - shell.length + 1)}"]`);
    expect(Buffer.byteLength(atLimit)).toBe(MAX_BODY_BYTES);
    expect((await emu.api('/setImpactedTargets', atLimit)).status).toBe(200);
    const over = await emu.api('/setImpactedTargets', atLimit.replace('"x', '"xx'));
    expect(over.status).toBe(413);
    expect(over.contentType).toMatch(/^text\/plain/);
    expect(over.text).toMatch(/too large/);
  });

  it('answers 400 in plain text for malformed JSON, a wrong content type and a body the schema rejects', async () => {
    const malformed = await emu.api('/submitPullRequest', '{"repo":');
    expect([malformed.status, malformed.text]).toEqual([400, 'The request body is not valid JSON']);
    const form = await emu.api('/submitPullRequest', 'a=1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect([form.status, form.text]).toEqual([400, 'Content-Type must be application/json']);
    const missing = await emu.api('/submitPullRequest', { repo: queue.repo });
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/targetBranch/);
    const badEnum = await emu.api('/updateQueue', { ...ref(), mode: 'sideways' });
    expect(badEnum.text).toBe('Invalid request body: body/mode must be one of single, parallel (any case)');
    for (const answer of [malformed, form, missing, badEnum])
      expect(answer.contentType).toMatch(/^text\/plain/);
  });

  it('does not coerce types: a string PR number is refused except on setImpactedTargets', async () => {
    const submit = await emu.api('/submitPullRequest', { ...ref(), pr: { number: '42' } });
    expect(submit.status).toBe(400);
    const targets = await emu.api('/setImpactedTargets', {
      ...ref(),
      pr: { number: '42', sha: 'a1' },
      impactedTargets: 'ALL',
    });
    expect(targets.status).toBe(200);
  });

  it('accepts enum values in any case', async () => {
    await queue.submit(43, { priority: 'LOW' });
    expect(await queue.pr(43)).toMatchObject({ priorityName: 'low', priorityValue: 200 });
    const updated = await queue.update({ mergeMethod: 'REBASE' });
    expect(updated.json).toMatchObject({ mergeMethod: 'rebase' });
  });

  it('answers writes with {}', async () => {
    const answer = await emu.api('/submitPullRequest', { ...ref(), pr: { number: 44 } });
    expect([answer.status, answer.text]).toEqual([200, '{}']);
  });
});

describe('pull requests', () => {
  it('answers 404 Not Found for a PR never submitted', async () => {
    const answer = await emu.api('/getSubmittedPullRequest', { ...ref(), pr: { number: 999 } });
    expect([answer.status, answer.text]).toEqual([404, 'Not Found']);
  });

  it('answers 404 in plain text when cancelling or restarting a PR not in the queue', async () => {
    for (const answer of [await queue.cancel(998), await queue.restart(998)]) {
      expect(answer.status).toBe(404);
      expect(answer.text).toBe("Pull request #998 is not in the merge queue for branch 'main'");
    }
  });

  it('answers 404 when the branch has no queue', async () => {
    const answer = await emu.api('/submitPullRequest', {
      repo: queue.repo,
      targetBranch: 'nowhere',
      pr: { number: 1 },
    });
    expect(answer.status).toBe(404);
    expect(answer.text).toMatch(/No merge queue for branch 'nowhere'/);
  });

  it('takes impacted targets before the repository has a queue, and keeps them for it (a choice)', async () => {
    const early = new QueueDriver(emu, 'octo-org/targets-first');
    await early.targets(1, 'a'.repeat(40), ['//app']);
    await early.create({ mode: 'parallel' });
    await early.submit(1);
    expect(await early.pr(1)).toMatchObject({ state: 'testing', readiness: { hasImpactedTargets: true } });
  });

  it('returns every field of a submitted PR, readiness and the test run that verifies it', async () => {
    const other = new QueueDriver(emu, 'octo-org/fields');
    await other.create();
    await other.setPr(7, { title: 'Add caching', author: 'mona', headSha: 'c0ffee' });
    await other.submit(7, { priority: 'high', noBatch: true });
    const pr = await other.pr(7);
    expect(Value.Check(SubmittedPullRequest, pr)).toBe(true);
    expect(pr).toMatchObject({
      state: 'testing',
      prNumber: 7,
      prTitle: 'Add caching',
      prAuthor: 'mona',
      prSha: 'c0ffee',
      prBaseBranch: 'main',
      priorityName: 'high',
      priorityValue: 10,
      skipTheLine: false,
      noBatch: true,
      forceEnqueued: false,
      isCurrentlySubmittedToQueue: true,
      readiness: {
        hasImpactedTargets: false,
        requiresImpactedTargets: false,
        doesBaseBranchMatch: true,
        gitHubMergeability: 'mergeable',
      },
    });
    const details = await other.testingDetails(pr.verifiedByTestRun as string);
    expect(details.status).toBe(200);
    expect(Value.Check(TestingDetails, details.json)).toBe(true);
    expect(details.json).toMatchObject({
      testBranch: `trunk-merge/pr-7/${pr.verifiedByTestRun as string}`,
      status: 'in_progress',
      testedPullRequests: [{ prNumber: 7, title: 'Add caching' }],
    });
    await other.runUntilIdle();
    expect(await other.pr(7)).toMatchObject({ state: 'merged', isCurrentlySubmittedToQueue: false });
    expect((await other.testingDetails(pr.verifiedByTestRun as string)).json).toMatchObject({
      status: 'succeeded',
    });
  });

  it('names the default priority when none was given', async () => {
    await queue.submit(45);
    expect(await queue.pr(45)).toMatchObject({
      priorityName: 'medium',
      priorityValue: 100,
      usedDefaultPriorityName: 'medium',
    });
  });

  it('keeps one submission when a queued PR is submitted again, with the new priority and batching', async () => {
    const again = new QueueDriver(emu, 'octo-org/resubmit');
    await again.create();
    await again.submit(1);
    await again.submit(2);
    const before = await again.pr(2);
    await again.submit(2, { priority: 'low', noBatch: true });
    const after = await again.pr(2);
    expect(after).toMatchObject({ id: before.id, priorityName: 'low', noBatch: true });
    const listed = await emu.api<{ pullRequests: { prNumber: number }[] }>('/listPullRequests', {
      repo: again.repo,
      targetBranch: 'main',
    });
    expect(listed.json.pullRequests.map((p) => p.prNumber)).toEqual([1, 2]);
    expect((await again.history()).filter((e) => e.prNumber === 2 && e.from === null)).toHaveLength(1);
  });

  it('cancels a queued PR and restarts a failed one only while it is in the queue', async () => {
    const cancel = new QueueDriver(emu, 'octo-org/cancel');
    await cancel.create();
    await cancel.submit(3);
    expect((await cancel.cancel(3)).status).toBe(200);
    expect(await cancel.pr(3)).toMatchObject({ state: 'cancelled', isCurrentlySubmittedToQueue: false });
    expect((await cancel.restart(3)).status).toBe(404);
  });

  it('answers 404 Not Found for an unknown test run', async () => {
    const answer = await queue.testingDetails('00000000-0000-4000-8000-000000000000');
    expect([answer.status, answer.text]).toEqual([404, 'Not Found']);
  });
});
