// One method per v1 endpoint. Every call: the auth header, a per-attempt timeout inside one overall
// deadline, retries with exponential backoff and jitter on 429, 5xx and network errors (honouring
// Retry-After), no redirects, and one human-readable error for everything else.
import { HttpClient } from '@actions/http-client';
import type { IncomingMessage } from 'node:http';
import { ENDPOINTS, type EndpointName, type RequestOf } from '../../wire/index.js';
import { ApiError, describeForeignPage, describeHttpFailure, isHtmlPage } from './errors.js';
import { VERSION } from '../version.js';

export interface RetryPolicy {
  /** First backoff; doubles each attempt, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is cut to it. */
  maxRetryAfterMs: number;
  /** One attempt may take at most this long (and never past the deadline). */
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 30_000,
  attemptTimeoutMs: 30_000,
};

export interface ClientOptions {
  /** The API base, e.g. https://api.trunk.io/v1 (validated by settings). */
  baseUrl: string;
  /** The organization token; absent for a fork PR's impacted-targets upload. */
  token?: string;
  /** Sent instead of the token by a fork PR's workflow (setImpactedTargets only). */
  forkedWorkflowRunId?: string;
  /** The deadline for one call, all its retries included. */
  deadlineMs: number;
  retry?: Partial<RetryPolicy>;
  /** Told about each retry, for the log. */
  onRetry?: (message: string) => void;
}

export interface ApiResponse {
  status: number;
  contentType: string;
  /** The raw body as the service sent it. */
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON (`OK`, say). */
  json: unknown;
}

/** A body too big to hold twice in memory: its exact size, and a fresh stream of it for each attempt. */
export interface StreamedBody {
  byteLength: number;
  open(): NodeJS.ReadableStream;
}

type RequestBody = string | StreamedBody | null;

type Attempt = { response: ApiResponse } | { retryable: ApiError; retryAfterMs?: number };

export class ApiClient {
  private readonly policy: RetryPolicy;
  private http: HttpClient;

  constructor(private readonly options: ClientOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.http = this.newHttpClient();
  }

  submitPullRequest = (body: RequestOf<'submitPullRequest'>) => this.call('submitPullRequest', body);
  cancelPullRequest = (body: RequestOf<'cancelPullRequest'>) => this.call('cancelPullRequest', body);
  restartTestsOnPullRequest = (body: RequestOf<'restartTestsOnPullRequest'>) =>
    this.call('restartTestsOnPullRequest', body);
  getSubmittedPullRequest = (body: RequestOf<'getSubmittedPullRequest'>) =>
    this.call('getSubmittedPullRequest', body);
  /** Takes the body already serialized, so that its exact size can be checked against the limit first. */
  setImpactedTargets = (serializedBody: string | StreamedBody) =>
    this.call('setImpactedTargets', serializedBody);
  getMergeQueueTestingDetails = (body: RequestOf<'getMergeQueueTestingDetails'>) =>
    this.call('getMergeQueueTestingDetails', body);
  createQueue = (body: RequestOf<'createQueue'>) => this.call('createQueue', body);
  getQueue = (body: RequestOf<'getQueue'>) => this.call('getQueue', body);
  /** Takes extra fields too: settings this version does not know are sent as given. */
  updateQueue = (body: RequestOf<'updateQueue'> & Record<string, unknown>) => this.call('updateQueue', body);
  deleteQueue = (body: RequestOf<'deleteQueue'>) => this.call('deleteQueue', body);
  listPullRequests = (body: RequestOf<'listPullRequests'>) => this.call('listPullRequests', body);
  getMergeQueueMetrics = (query: RequestOf<'getMergeQueueMetrics'>) =>
    this.call('getMergeQueueMetrics', query);
  listUnhealthyTests = (body: RequestOf<'listUnhealthyTests'>) => this.call('listUnhealthyTests', body);
  listQuarantinedTests = (body: RequestOf<'listQuarantinedTests'>) => this.call('listQuarantinedTests', body);
  listFailingTests = (body: RequestOf<'listFailingTests'>) => this.call('listFailingTests', body);
  getTestDetails = (body: RequestOf<'getTestDetails'>) => this.call('getTestDetails', body);
  linkTicketToTestCase = (body: RequestOf<'linkTicketToTestCase'>) => this.call('linkTicketToTestCase', body);

  private async call(endpoint: EndpointName, payload: object | string | StreamedBody): Promise<ApiResponse> {
    const definition = ENDPOINTS[endpoint];
    const { url, body } = this.requestFor(endpoint, payload);
    const deadline = Date.now() + this.options.deadlineMs;
    const headers = this.headersFor(endpoint, body);
    let answerLost = false;
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - Date.now();
      let outcome: Attempt;
      try {
        outcome = await this.attempt(endpoint, definition.method, url, body, headers, remaining);
      } catch (error) {
        if (error instanceof ApiError) error.afterLostAnswer = answerLost;
        throw error;
      }
      if ('response' in outcome) return outcome.response;

      const { retryable } = outcome;
      answerLost ||= retryable.kind === 'network' || retryable.kind === 'timeout';
      if (answerLost && 'repeatable' in definition && definition.repeatable === false) {
        throw retryable.notRepeated();
      }
      const backoff = outcome.retryAfterMs ?? this.backoffMs(attempt);
      if (Date.now() + backoff >= deadline) {
        throw retryable.afterAttempts(attempt, this.options.deadlineMs);
      }
      this.options.onRetry?.(
        `${endpoint}: ${retryable.message} Retrying in ${(backoff / 1000).toFixed(1)}s (attempt ${attempt + 1}).`,
      );
      await sleep(backoff);
    }
  }

  private requestFor(
    endpoint: EndpointName,
    payload: object | string | StreamedBody,
  ): { url: string; body: RequestBody } {
    const definition = ENDPOINTS[endpoint];
    const base = this.options.baseUrl.replace(/\/+$/, '');
    if (definition.method === 'GET') {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(payload))
        if (value !== undefined) query.set(key, String(value));
      const search = query.toString();
      return { url: `${base}${definition.path}${search ? `?${search}` : ''}`, body: null };
    }
    return {
      url: `${base}${definition.path}`,
      body: typeof payload === 'string' || isStreamed(payload) ? payload : JSON.stringify(payload),
    };
  }

  private headersFor(endpoint: EndpointName, body: RequestBody): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.1' };
    if (body !== null) headers['content-type'] = 'application/json';
    if (isStreamed(body)) headers['content-length'] = String(body.byteLength);
    if (this.options.token) headers['x-api-token'] = this.options.token;
    else if (endpoint === 'setImpactedTargets' && this.options.forkedWorkflowRunId) {
      headers['x-forked-workflow-run-id'] = this.options.forkedWorkflowRunId;
    }
    return headers;
  }

  private async attempt(
    endpoint: EndpointName,
    method: string,
    url: string,
    body: RequestBody,
    headers: Record<string, string>,
    remainingMs: number,
  ): Promise<Attempt> {
    const timeoutMs = Math.max(1, Math.min(this.policy.attemptTimeoutMs, remainingMs));
    let timer: NodeJS.Timeout | undefined;
    let message: IncomingMessage | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        message?.destroy();
        // The request cannot be aborted alone: drop the connections so that a hung one dies now.
        this.http.dispose();
        this.http = this.newHttpClient();
        reject(
          new ApiError(endpoint, `no answer within ${(timeoutMs / 1000).toFixed(1)}s.`, { kind: 'timeout' }),
        );
      }, timeoutMs);
    });
    const http = this.http;
    try {
      const data = isStreamed(body) ? body.open() : body;
      const response = await Promise.race([http.request(method, url, data, headers), timedOut]);
      message = response.message;
      const text = await Promise.race([readBody(message), timedOut]);
      const status = message.statusCode ?? 0;
      const contentType = String(message.headers['content-type'] ?? '');
      if (status >= 200 && status < 300) {
        // The service answers JSON, plain text or nothing; an HTML page comes from something in between.
        if (isHtmlPage(text, contentType)) throw describeForeignPage(endpoint, status, text, contentType);
        return { response: { status, contentType, text, json: parseJson(text) } };
      }
      const failure = describeHttpFailure(endpoint, status, text, contentType, message.headers.location);
      if (status === 429 || status >= 500) {
        return { retryable: failure, retryAfterMs: this.retryAfterMs(message.headers['retry-after']) };
      }
      throw failure;
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.kind === 'timeout') return { retryable: error };
        throw error;
      }
      return { retryable: ApiError.network(endpoint, error) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Kept-alive connections for all calls of this client: a run's requests share one TCP connection. */
  private newHttpClient(): HttpClient {
    return new HttpClient(`merge-queue-action/${VERSION}`, [], {
      allowRedirects: false,
      allowRetries: false,
      keepAlive: true,
      socketTimeout: this.policy.attemptTimeoutMs,
    });
  }

  private backoffMs(attempt: number): number {
    const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  private retryAfterMs(header: string | string[] | undefined): number | undefined {
    const value = Array.isArray(header) ? header[0] : header;
    if (!value) return undefined;
    const seconds = Number(value);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
    if (!Number.isFinite(ms)) return undefined;
    return Math.min(Math.max(0, ms), this.policy.maxRetryAfterMs);
  }
}

/** Reads a whole body, failing (rather than hanging) when the connection drops mid-body. */
function readBody(message: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('error', reject);
    message.on('aborted', () => reject(new Error('the connection closed before the whole answer arrived')));
    message.on('close', () => {
      if (!message.complete) reject(new Error('the connection closed before the whole answer arrived'));
    });
    message.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function isStreamed(body: unknown): body is StreamedBody {
  return typeof body === 'object' && body !== null && typeof (body as StreamedBody).open === 'function';
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
