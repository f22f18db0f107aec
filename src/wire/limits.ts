// Limits of the service that both sides hold to.

const KiB = 1024;
const MiB = 1024 * KiB;

/** The service refuses request bodies over this many bytes with 413. */
export const MAX_BODY_BYTES = 20 * MiB;

/**
 * The most an answer of each kind may be, error answers included: several times the largest answer the
 * service can legitimately send. Each endpoint's row (endpoint-row.ts) names its kind; the client drops an
 * answer the moment it passes its cap, so that an endless or huge answer ends in one line.
 */
export const ANSWER_CAPS = {
  /** `{}`, nothing, `OK`, a line of error text, or a few small fields. */
  write: 64 * KiB,
  /** One PR or one test: about 1 kB of fields and a title. */
  record: 1 * MiB,
  /** At most 100 PRs a page. */
  prPage: 4 * MiB,
  /** At most 100 tests a page, each a few kB with its failures. */
  testPage: 8 * MiB,
  /** Prometheus text: a few hundred kB for an organization with many queues. */
  metrics: 8 * MiB,
  /** The queue's settings and every PR in it (about 1 kB each): room for thousands. */
  queue: 16 * MiB,
  /** A test run's PRs, checks and impacted targets (which a batch may carry for several PRs). */
  testRun: 64 * MiB,
} as const;

export type AnswerCap = keyof typeof ANSWER_CAPS;
