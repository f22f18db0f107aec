// The answer an operation is handed: the JSON the client checked against its endpoint's shape, typed as
// that endpoint answers, with what the tolerant check lets through made plain once (states lowercased,
// legacy queue field names mapped). No operation reads an answer as `unknown` or checks it again.
import {
  readPullRequest,
  readQueue,
  type ENDPOINTS,
  type EndpointName,
  type ResponseOf,
} from '../../wire/index.js';
import type { TSchema } from '@sinclair/typebox';

/** A PR's queue entry as read: its state lowercased, unknown fields and values kept. */
export type PullRequestEntry = ReturnType<typeof readPullRequest>;
/** A queue as read: legacy field names mapped, enums lowercased, its PRs read as entries. */
export type QueueAnswer = ReturnType<typeof readQueue>;

export interface PullRequestPage {
  pullRequests: PullRequestEntry[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/**
 * What `call(endpoint)` answers with. Enums are typed as documented, but a tolerant reader keeps any
 * case and unknown values: compare them with `enumValue`. A write without an answer shape answers an
 * object (kept as sent) or nothing (`{}`, empty, `OK`).
 */
export type AnswerOf<E extends EndpointName> = E extends 'getSubmittedPullRequest'
  ? PullRequestEntry
  : E extends 'getQueue'
    ? QueueAnswer
    : E extends 'updateQueue'
      ? QueueAnswer | undefined
      : E extends 'listPullRequests'
        ? PullRequestPage
        : E extends 'getMergeQueueMetrics'
          ? undefined
          : (typeof ENDPOINTS)[E] extends { response: TSchema }
            ? ResponseOf<E>
            : Record<string, unknown> | undefined;

/**
 * An answer as the v1 wire writes it, before the tolerant read: its answer schema's type, the metrics'
 * text, or for a write without an answer schema the object it answers (`{}`). What a v2 translation
 * (src/core/api/v2) builds for each endpoint it answers; for updateQueue, nothing when the changed queue
 * could not be read (the change stands).
 */
export type WireAnswerOf<E extends EndpointName> = E extends 'getMergeQueueMetrics'
  ? string
  : E extends 'updateQueue'
    ? ResponseOf<E> | undefined
    : (typeof ENDPOINTS)[E] extends { response: TSchema }
      ? ResponseOf<E>
      : Record<string, unknown>;

/** The typed answer of `endpoint` from its checked JSON (undefined when it was not JSON). */
export function typedAnswer<E extends EndpointName>(endpoint: E, json: unknown): AnswerOf<E> {
  return readAnswer(endpoint, json) as AnswerOf<E>;
}

function readAnswer(endpoint: EndpointName, json: unknown): unknown {
  switch (endpoint) {
    case 'getSubmittedPullRequest':
      return readPullRequest(json);
    case 'getQueue':
    case 'updateQueue':
      return json === undefined ? undefined : readQueue(json);
    case 'listPullRequests': {
      const page = json as { pullRequests: unknown[]; nextCursor?: string };
      return { ...page, pullRequests: page.pullRequests.map(readPullRequest) };
    }
    case 'getMergeQueueMetrics':
      return undefined;
    default:
      return json;
  }
}
