// The most each endpoint's answer may be, error answers included. An answer is read while it streams and
// dropped the moment it passes its cap, so that an endless or huge answer (a proxy gone wrong, a hostile
// host at api-url) ends in one line instead of exhausting the runner. Each cap is several times the
// largest answer the service can legitimately send, as each row's comment says.
import type { EndpointName } from '../../wire/index.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** A write answers `{}`, nothing or `OK`; an error answer is a line of text. */
const WRITE_ANSWER = 64 * KiB;

export const ANSWER_LIMITS: Record<EndpointName, number> = {
  submitPullRequest: WRITE_ANSWER,
  cancelPullRequest: WRITE_ANSWER,
  restartTestsOnPullRequest: WRITE_ANSWER,
  setImpactedTargets: WRITE_ANSWER,
  createQueue: WRITE_ANSWER,
  deleteQueue: WRITE_ANSWER,
  linkTicketToTestCase: WRITE_ANSWER,
  createCiRun: WRITE_ANSWER,
  deviceAuthInitiate: WRITE_ANSWER,
  deviceAuthTokens: WRITE_ANSWER,
  getStatus: WRITE_ANSWER,
  /** One PR: about 1 kB of fields plus its title. */
  getSubmittedPullRequest: 1 * MiB,
  /** The queue's settings and every PR in it (about 1 kB each): room for thousands. */
  getQueue: 16 * MiB,
  updateQueue: 16 * MiB,
  /** At most 100 PRs a page. */
  listPullRequests: 4 * MiB,
  /** A test run's PRs, checks and impacted targets (which a batch may carry for several PRs). */
  getMergeQueueTestingDetails: 64 * MiB,
  /** Prometheus text: a few hundred kB for an organization with many queues. */
  getMergeQueueMetrics: 8 * MiB,
  /** At most 100 tests a page, each a few kB with its failures. */
  listUnhealthyTests: 8 * MiB,
  listQuarantinedTests: 8 * MiB,
  listFailingTests: 8 * MiB,
  getTestDetails: 1 * MiB,
};

/** A size as the error line shows it. */
export function describeBytes(bytes: number): string {
  return bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${Math.round(bytes / KiB)} KiB`;
}
