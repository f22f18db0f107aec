// The v2 API spoken over the same machinery as v1 (ApiClient.send: deadline, retries, caps, no redirects,
// secrets hidden): one typed call per operation of the document, `call(operationId, {path, query, body})`,
// with the key as a Bearer token, v2's error envelope read into the same ApiError kinds, every write
// left unretried when its outcome is unknown (no v2 write is idempotent; the caller reads it back), and
// the documented rate limits kept by spacing requests.
import {
  idFormIn,
  V2_ANSWER_SHAPES,
  V2_NAMED_SHAPES,
  V2_ROUTES,
  type V2AnswerOf,
  type V2OperationId,
  type V2QueryOf,
} from '../../../wire/v2/index.js';
import { ApiClient, type ApiResponse, type CallOptions, type ClientOptions } from '../client.js';
import { MAX_ANSWER_DEPTH, nestsDeeperThan, notJson, shapeProblem, type AnswerProblem } from '../answers.js';
import { ApiError, summarizeBody } from '../errors.js';
import { echoProblem } from './echoes.js';
import type { V2Request } from './request.js';
import { describeV2Failure } from './errors.js';
import { followPages, type ListPage } from './paging.js';
import { VERSION } from '../../version.js';

const MiB = 1024 * 1024;
/** The largest v2 answer: a verification run's impacted targets (100,000 names), or a page of 100 PRs. */
const V2_ANSWER_LIMIT = 64 * MiB;

export type { V2Request } from './request.js';

/** The items of a list operation's pages. */
export type ItemsOf<Id extends V2OperationId> = V2AnswerOf<Id> extends { data: (infer T)[] } ? T[] : never;

export interface V2Answer<Id extends V2OperationId> {
  /** The answer's JSON (undefined for a 204, and for the Prometheus text of the metrics). */
  data: V2AnswerOf<Id>;
  response: ApiResponse;
}

/**
 * The documented rate limits (API-V2-NOTES §5), each as the spacing of its requests: pull-request reads
 * 5 a second per key, metrics 5 a second per organization, impacted-target uploads 10 a second per
 * repository, everything else 100 a second per organization. Each request takes the next free slot of
 * its bucket before it is sent, from the run's first request on, so concurrent calls never burst past a
 * limit; a 429 is still retried, after at least a second. Each spacing is about 5% over the limit's own (210 ms
 * for 5 a second): a service that counts in fixed one-second windows refuses a sixth request that lands a
 * millisecond early.
 */
const BUCKETS: { matches: (id: V2OperationId) => boolean; intervalMs: number }[] = [
  { matches: (id) => id.startsWith('pullRequests.') && V2_ROUTES[id].method === 'GET', intervalMs: 210 },
  { matches: (id) => id.endsWith('etrics'), intervalMs: 210 },
  { matches: (id) => id === 'impactedTargets.upload', intervalMs: 105 },
  { matches: () => true, intervalMs: 11 },
];

export class V2Transport {
  private readonly http: ApiClient;
  private readonly base: string;
  private readonly pacer = new RequestPacer();
  /** The service's time at its newest answer (its Date header), for the v1 view of a translated call. */
  newestServerTimeMs?: number;

  constructor(private readonly options: ClientOptions & { baseUrl: string; token: string }) {
    this.http = new ApiClient(options);
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** One operation of the v2 document; an ApiError (kind, status, code) when it fails. */
  async call<Id extends V2OperationId>(
    id: Id,
    request: V2Request<Id> = {},
    options: CallOptions = {},
  ): Promise<V2Answer<Id>> {
    const route = V2_ROUTES[id];
    const url = this.urlOf(id, route.path, request);
    await this.pace(id);
    const body = request.body === undefined ? null : JSON.stringify(request.body);
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain;q=0.9',
      authorization: `Bearer ${this.options.token}`,
      'user-agent': `merge-queue-action/${VERSION}`,
    };
    if (body !== null) headers['content-type'] = 'application/json';
    const textAnswer = id.endsWith('etrics');
    const response = await this.http.send(
      {
        name: id,
        method: route.method,
        url,
        body,
        headers,
        limit: V2_ANSWER_LIMIT,
        repeatable: !('write' in route),
        outcomeUnknownOnFailure: 'write' in route,
        answerProblem: (text, json) =>
          answerProblem(id, textAnswer, text, json) ?? echoProblem(id, request, json),
        describeFailure: (name, status, text, contentType, answerHeaders) =>
          describeV2Failure(name as V2OperationId, request.body, status, text, contentType, answerHeaders),
      },
      options,
    );
    if (response.serverTimeMs !== undefined) this.newestServerTimeMs = response.serverTimeMs;
    return { data: response.json as V2AnswerOf<Id>, response };
  }

  /**
   * The pages of a list, 100 items each, in turn: bounded by followPages (a repeated cursor, an empty
   * page that says more follow, a page cap, timeout-seconds for the whole list).
   */
  pages<Id extends V2OperationId>(id: Id, request: V2Request<Id>): AsyncGenerator<V2Answer<Id>> {
    const fetch = (cursor: string | undefined, deadlineAt: number) => {
      const query = { ...request.query, limit: 100, ...(cursor ? { cursor } : {}) } as V2QueryOf<Id>;
      return this.call(id, { ...request, query }, { deadlineAt });
    };
    return followPages(id, fetch, { deadlineMs: this.options.deadlineMs });
  }

  /** The items of every page of a list, up to `max` of them. */
  async all<Id extends V2OperationId>(id: Id, request: V2Request<Id>, max = 10_000): Promise<ItemsOf<Id>> {
    const items: unknown[] = [];
    for await (const { data } of this.pages(id, request)) {
      items.push(...(data as unknown as ListPage).data);
      if (items.length >= max) break;
    }
    return items as ItemsOf<Id>;
  }

  /** The request's URL: each id checked against its form (nothing is sent otherwise), one path segment. */
  private urlOf(id: V2OperationId, path: string, request: V2Request<V2OperationId>): string {
    const params = (request.path ?? {}) as Record<string, unknown>;
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      const form = idFormIn(path, name);
      if (typeof value !== 'string' || !form?.pattern.test(value)) {
        // The id may have come from the service's answer: its value goes apart from our words.
        const shown = typeof value === 'string' ? 'text' : 'missing';
        throw new ApiError(
          id,
          `the ${name} to send is ${shown}, not ${form?.what ?? 'an id'}, so nothing was sent. Check the id given (or, when it came from the service's answer, report this message: the service's answer changed).`,
          { kind: 'invalid-response', said: typeof value === 'string' ? summarizeBody(value) : '' },
        );
      }
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) query.set(key, String(value));
    }
    const search = query.toString();
    return `${this.base}${filled}${search ? `?${search}` : ''}`;
  }

  private async pace(id: V2OperationId): Promise<void> {
    const wait = this.pacer.delayMs(id, Date.now());
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** The spacing of BUCKETS: how long each request waits for its bucket's next free slot. */
export class RequestPacer {
  /** When each bucket's next request may go (ms since the epoch). */
  private readonly nextSlot = new Map<number, number>();

  /** Takes the next free slot of `id`'s bucket for a request asked for at `nowMs`; how long it waits. */
  delayMs(id: V2OperationId, nowMs: number): number {
    const bucket = BUCKETS.findIndex((b) => b.matches(id));
    const slot = Math.max(nowMs, this.nextSlot.get(bucket) ?? 0);
    this.nextSlot.set(bucket, slot + (BUCKETS[bucket]?.intervalMs ?? 0));
    return slot - nowMs;
  }
}

/**
 * Why a 2xx answer is not the operation's: JSON where JSON is due, of the shape the document gives it
 * (types and required fields; unknown fields and enum values are kept).
 */
function answerProblem(
  id: V2OperationId,
  textAnswer: boolean,
  text: string,
  json: unknown,
): AnswerProblem | undefined {
  const success = V2_ROUTES[id].success;
  if (success === 204 || textAnswer) return undefined;
  // An accepted upload may answer nothing.
  if (success === 202 && text.trim() === '') return undefined;
  if (nestsDeeperThan(text, MAX_ANSWER_DEPTH))
    return { what: `JSON nested deeper than ${MAX_ANSWER_DEPTH} levels` };
  if (json === undefined) return text.trim() === '' ? { what: 'an empty body' } : notJson(text.trim());
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { what: 'a body that is not an object' };
  const shape = V2_ANSWER_SHAPES[id];
  return shape && shapeProblem(shape, json, V2_NAMED_SHAPES);
}
