// The v1 pull-request endpoints over v2: submit, cancel, restart, look up, upload impacted targets and a
// test run's details, each as v1 asked and answered, writes read back when their outcome is unknown.
import type { RequestOf } from '../../../wire/index.js';
import type { V2 } from '../../../wire/v2/index.js';
import type { PayloadOf, StreamedBody } from '../client.js';
import type { WireAnswerOf } from '../typed-answers.js';
import { ApiError } from '../errors.js';
import { notFound } from './ids.js';
import { submittedPullRequestV1, testingDetailsV1 } from './to-v1.js';
import { writeOnce } from './unknown-outcome.js';
import type { V2Session } from './session.js';
import type { Translations } from './translation.js';

/** A write's answer over v1: an empty object. */
type Written = WireAnswerOf<'cancelPullRequest'>;

const TERMINAL = new Set(['merged', 'failed', 'cancelled']);
const WITH_A_RUN = new Set(['testsPassed', 'pendingFailure', 'failed']);

function priorityFields(priority: RequestOf<'submitPullRequest'>['priority']) {
  if (priority === undefined || priority === null) return {};
  return typeof priority === 'number'
    ? { priorityValue: priority }
    : { priorityName: priority.toLowerCase() };
}

async function submit(
  s: V2Session,
  payload: RequestOf<'submitPullRequest'>,
): Promise<WireAnswerOf<'submitPullRequest'>> {
  const { repo, targetBranch, pr } = payload;
  const queueId = await s.ids.queueId(repo, targetBranch);
  const body: V2<'SubmitPullRequestRequest'> = {
    number: pr.number,
    ...priorityFields(payload.priority),
    ...(payload.noBatch ? { allowBatching: false } : {}),
  };
  const answer = await writeOnce(
    () => s.v2.call('mergeQueues.submitPullRequest', { path: { id: queueId }, body }),
    {
      name: 'submitPullRequest',
      log: s.log,
      wasDone: async () => {
        const now = await s.ids.findPullRequest(repo, pr.number);
        const entry = now?.queueEntry;
        return entry?.mergeQueueId === queueId && !TERMINAL.has(entry.state);
      },
    },
  );
  return answer ? submittedPullRequestV1(answer.data) : {};
}

/** The PR as getSubmittedPullRequest answered: a 404 when it has no entry in this queue. */
async function lookUp(
  s: V2Session,
  payload: RequestOf<'getSubmittedPullRequest'>,
): Promise<WireAnswerOf<'getSubmittedPullRequest'>> {
  const { repo, targetBranch, pr } = payload;
  const [queueId, id] = await Promise.all([
    s.ids.queueId(repo, targetBranch),
    s.ids.pullRequestId(repo, pr.number),
  ]);
  const { data } = await s.v2.call('pullRequests.get', { path: { id } });
  if (data.queueEntry?.mergeQueueId !== queueId) {
    throw notFound('pullRequests.get', `no queue entry of pull request #${pr.number} in this queue`);
  }
  const answer = submittedPullRequestV1(data);
  // v2 names the verifying run only once the PR merged from tests passed; v1's field is the latest run.
  // It is read (one more call in the 5/s pull-request bucket) only where a report names the run's
  // checks: a PR passed or failing (while testing, v2 names no run, and neither does this answer).
  if (answer.verifiedByTestRun === null && WITH_A_RUN.has(data.queueEntry.state)) {
    const runs = await s.v2.call('pullRequests.listVerificationRuns', { path: { id }, query: { limit: 1 } });
    answer.verifiedByTestRun = runs.data.data[0]?.id ?? null;
  }
  return answer;
}

/** cancelPullRequest: dequeue; an entry already concluded is "not in the queue" (v1's 404). */
async function cancel(s: V2Session, payload: RequestOf<'cancelPullRequest'>): Promise<Written> {
  const { repo, pr } = payload;
  const id = await s.ids.pullRequestId(repo, pr.number);
  await writeOnce(() => inQueue(s.v2.call('pullRequests.dequeue', { path: { id } })), {
    name: 'cancelPullRequest',
    log: s.log,
    wasDone: async () => {
      const { data } = await s.v2.call('pullRequests.get', { path: { id } });
      return !data.queueEntry || TERMINAL.has(data.queueEntry.state);
    },
  });
  return {};
}

/** restartTestsOnPullRequest: done when the entry's state changed since it was last read. */
async function restart(s: V2Session, payload: RequestOf<'restartTestsOnPullRequest'>): Promise<Written> {
  const { repo, pr } = payload;
  const id = await s.ids.pullRequestId(repo, pr.number);
  const before = await s.v2.call('pullRequests.get', { path: { id } });
  const changedAt = before.data.queueEntry?.stateChangedAt;
  await writeOnce(() => inQueue(s.v2.call('pullRequests.restartTests', { path: { id } })), {
    name: 'restartTestsOnPullRequest',
    log: s.log,
    wasDone: async () => {
      const { data } = await s.v2.call('pullRequests.get', { path: { id } });
      return data.queueEntry?.stateChangedAt !== changedAt;
    },
  });
  return {};
}

/** v2's "not in an active state" is v1's "not in the queue". */
async function inQueue<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'PR_NOT_IN_ACTIVE_STATE') {
      throw error.readAs(404);
    }
    throw error;
  }
}

/** getMergeQueueTestingDetails: the verification run (v1's `-bisection` suffix is not part of its id). */
async function testingDetails(
  s: V2Session,
  payload: RequestOf<'getMergeQueueTestingDetails'>,
): Promise<WireAnswerOf<'getMergeQueueTestingDetails'>> {
  const id = payload.testRunId.replace(/-bisection$/, '');
  const { data } = await s.v2.call('mergeQueueVerificationRuns.get', { path: { id } });
  return testingDetailsV1(data);
}

/** setImpactedTargets: the same list (or ALL) as an upload; repeating it sets the same list again. */
async function uploadTargets(s: V2Session, payload: PayloadOf<'setImpactedTargets'>): Promise<Written> {
  const request = JSON.parse(await bodyText(payload)) as RequestOf<'setImpactedTargets'>;
  const { repo, targetBranch, pr, impactedTargets } = request;
  const body: V2<'UploadImpactedTargetsRequest'> = {
    repositoryId: await s.ids.repositoryId(repo),
    targetBranch,
    sha: pr.sha,
    number: Number(pr.number),
    ...(impactedTargets === 'ALL' ? { impactsAllTargets: true } : { impactedTargets }),
  };
  await writeOnce(() => s.v2.call('impactedTargets.upload', { body }), {
    name: 'setImpactedTargets',
    log: s.log,
    wasDone: () => Promise.resolve(false),
  });
  return {};
}

/** The v1 body as text: a streamed one is read whole (its size was checked against the limit). */
async function bodyText(payload: string | StreamedBody): Promise<string> {
  if (typeof payload === 'string') return payload;
  const chunks: Buffer[] = [];
  for await (const chunk of payload.open()) chunks.push(Buffer.from(chunk as Buffer));
  await payload.checked;
  return Buffer.concat(chunks).toString('utf8');
}

/** How v2 answers the pull-request endpoints (service-client.ts gathers every area's rows). */
export const PULL_REQUEST_TRANSLATIONS = {
  submitPullRequest: submit,
  getSubmittedPullRequest: lookUp,
  cancelPullRequest: cancel,
  restartTestsOnPullRequest: restart,
  setImpactedTargets: uploadTargets,
  getMergeQueueTestingDetails: testingDetails,
} satisfies Translations;
