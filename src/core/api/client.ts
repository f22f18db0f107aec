// The v1 API's client: one generic call, `call(endpoint, payload)`, typed by the endpoint's row in
// src/wire/, answering the checked, typed answer (typed-answers.ts); spoken over node:http/node:https
// with one kept-alive connection per client (v2's transport sends through it too). Every call: the auth header, a per-attempt timeout inside one overall deadline (both covering the whole
// answer, however slowly it trickles), retries with exponential backoff and jitter on 429, 5xx and
// network errors (honouring Retry-After), no redirects, every answer capped while it streams
// (limits.ts), 2xx answers checked against the endpoint's answer schema (answers.ts), and one
// human-readable error for everything else.
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { ROUTES, type EndpointName, type RequestOf } from '../../wire/index.js';
import { typedAnswer, type AnswerOf } from './typed-answers.js';
import { answerProblem, MAX_ANSWER_DEPTH, nestsDeeperThan, type AnswerProblem } from './answers.js';
import { ApiError, describeForeignPage, describeHttpFailure, isHtmlPage, summarizeBody } from './errors.js';
import { answerLimitOf, describeBytes } from './limits.js';
import { VERSION } from '../version.js';
import { nameOf, words, type Words } from '../words.js';

export interface RetryPolicy {
  /** First backoff; doubles each attempt, jittered between half and all of it (so half is the floor). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is cut to it; a shorter one (0, a past date) never cuts the backoff. */
  maxRetryAfterMs: number;
  /** The least pause after a 429: the documented limits count requests per second. */
  rateLimitedDelayMs: number;
  /** One attempt may take at most this long (and never past the deadline). */
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 30_000,
  rateLimitedDelayMs: 1000,
  attemptTimeoutMs: 30_000,
};

/** The most retries one run makes, all its calls together: a failing service is not hammered. */
export const RETRIES_PER_RUN = 100;

/** Retries left to a run, shared by all its clients (ClientOptions.retryBudget). */
export class RetryBudget {
  private left: number;

  constructor(readonly size = RETRIES_PER_RUN) {
    this.left = size;
  }

  /** Takes one retry; false when none is left. */
  take(): boolean {
    if (this.left <= 0) return false;
    this.left--;
    return true;
  }
}

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
  /** The run's retries, shared by every client of the run; each client has its own when absent. */
  retryBudget?: RetryBudget;
  /** Told about each retry, for the log: words, as the inputs they name are the host's to say. */
  onRetry?: (message: Words) => void;
  /** Hides secrets in an answer's text before any of it is cut short for a message. */
  redact?: (text: string) => string;
  /** The host's proxy variables (never read from process.env here); Node 24's agents apply them. */
  proxy?: ProxySettings;
  /** Caps on answers, per endpoint, instead of their rows' (for tests of the caps). */
  answerLimits?: Partial<Record<EndpointName, number>>;
  /** Calls the run off: the request in flight is dropped, and no other is sent or retried. */
  signal?: AbortSignal;
}

export interface ProxySettings {
  HTTPS_PROXY?: string;
  HTTP_PROXY?: string;
  NO_PROXY?: string;
}

export interface ApiResponse {
  status: number;
  contentType: string;
  /** The raw body as the service sent it. */
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON (`OK`, say). */
  json: unknown;
  /**
   * The service's time when it answered (its Date header), to measure how long ago its timestamps were
   * without trusting the runner's clock.
   */
  serverTimeMs?: number;
}

/** A body too big to hold twice in memory: its exact size, and a fresh stream of it for each attempt. */
export interface StreamedBody {
  byteLength: number;
  open(): NodeJS.ReadableStream;
  /**
   * For a body sent while it is still being checked (its stream holds its last bytes back until then):
   * settles when the check ends. Until it does, no answer is taken and nothing is retried; when it
   * rejects, the request in flight is destroyed, so that the server never gets the whole body, and the
   * call fails with its reason.
   */
  checked?: Promise<void>;
}

/** What a caller may ask of one call beyond its answer. */
export interface CallOptions {
  /**
   * Told a 2xx answer's text before the answer is parsed and checked against the endpoint's answer
   * schema, so that a caller following pages can send the next request while this answer is parsed,
   * checked and read. The text is not checked yet: read only what the next request needs, tolerantly.
   * When the checks fail, the call fails as it would without this, and what was sent meanwhile should be
   * dropped.
   */
  onAnswer?: (text: string) => void;
  /** When the call must end (ms since the epoch) if sooner than the client's deadline: a list's deadline. */
  deadlineAt?: number;
}

export type RequestBody = string | StreamedBody | null;

/** One request as the transport sends it: built by the v1 client (call) or the v2 one (V2Transport). */
export interface Exchange {
  /** What errors and the retry log name: the v1 endpoint or the v2 operation. */
  name: string;
  method: string;
  url: string;
  body: RequestBody;
  headers: Record<string, string>;
  /** The most its answer may be (limits.ts). */
  limit: number;
  /** false for a write that must not be sent again once an answer was lost. */
  repeatable: boolean;
  /**
   * A write whose effect a 5xx or a lost answer leaves unknown: the call fails at once with
   * `outcomeUnknown`, so that its caller reads the resource back before deciding to send it again.
   */
  outcomeUnknownOnFailure?: boolean;
  /** Why a 2xx answer is not this request's answer, or undefined when it is. */
  answerProblem(text: string, json: unknown): AnswerProblem | undefined;
  /** Turns a non-2xx answer (its text with secrets hidden) into one line; describeHttpFailure by default. */
  describeFailure?: FailureDescriber;
}

export type FailureDescriber = (
  name: string,
  status: number,
  text: string,
  contentType: string,
  headers: IncomingHttpHeaders,
) => ApiError;

type Attempt =
  { response: ApiResponse } | { retryable: ApiError; retryAfterMs?: number } | { fatal: ApiError };

/**
 * What a call sends: the endpoint's request; for setImpactedTargets the body already serialized (its exact
 * size is checked against the limit first), or streamed; for updateQueue, settings this version does not
 * know too, sent as given.
 */
export type PayloadOf<E extends EndpointName> = E extends 'setImpactedTargets'
  ? string | StreamedBody
  : E extends 'updateQueue'
    ? RequestOf<E> & Record<string, unknown>
    : RequestOf<E>;

/** What operations call: the v1 client, or the v2 one that answers the same endpoints (v2/service-client.ts). */
/** A call's answer: the response as received, and its JSON checked and typed (`answer`). */
export interface Answered<E extends EndpointName> extends ApiResponse {
  answer: AnswerOf<E>;
}

export interface ServiceClient {
  call<E extends EndpointName>(
    endpoint: E,
    payload: PayloadOf<E>,
    options?: CallOptions,
  ): Promise<Answered<E>>;
}

/** How a client's requests go out: node:http's or node:https's request, with the client's one agent. */
interface Transport {
  send: typeof httpRequest;
  agent: HttpAgent;
}

export class ApiClient implements ServiceClient {
  private readonly policy: RetryPolicy;
  private readonly retryBudget: RetryBudget;
  private transport?: Promise<Transport>;
  private readonly secure: boolean;
  private readonly redact: (text: string) => string;
  private lastUrl?: { href: string; parsed: URL };

  constructor(private readonly options: ClientOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.retryBudget = options.retryBudget ?? new RetryBudget();
    this.secure = options.baseUrl.startsWith('https:');
    const token = options.token;
    this.redact = (text) => {
      const own = token && token.length >= 4 ? text.split(token).join('***') : text;
      return options.redact ? options.redact(own) : own;
    };
  }

  /**
   * One request to an endpoint of the service, retried by the policy until the deadline: the answer on
   * success, an ApiError that says what went wrong otherwise.
   */
  async call<E extends EndpointName>(
    endpoint: E,
    payload: PayloadOf<E>,
    options: CallOptions = {},
  ): Promise<Answered<E>> {
    const definition = ROUTES[endpoint];
    const { url, body } = this.requestFor(endpoint, payload);
    const exchange: Exchange = {
      name: endpoint,
      method: definition.method,
      url,
      body,
      headers: this.headersFor(endpoint, body),
      limit: this.options.answerLimits?.[endpoint] ?? answerLimitOf(endpoint),
      repeatable: !('repeatable' in definition && definition.repeatable === false),
      answerProblem: (text, json) => answerProblem(endpoint, text, json),
    };
    const response = await this.send(exchange, options);
    return { ...response, answer: typedAnswer(endpoint, response.json) };
  }

  /**
   * One exchange with the service, whichever API version built it, retried by the policy until the
   * deadline: the answer on success, an ApiError that says what went wrong otherwise.
   */
  async send(exchange: Exchange, options: CallOptions = {}): Promise<ApiResponse> {
    const { name, body } = exchange;
    const deadline = Math.min(Date.now() + this.options.deadlineMs, options.deadlineAt ?? Infinity);
    let answerLost = false;
    const transport = await (this.transport ??= this.openTransport());
    for (let attempt = 1; ; attempt++) {
      if (this.options.signal?.aborted) throw calledOff(name);
      const remaining = deadline - Date.now();
      const outcome = await this.attempt(transport, exchange, remaining, options);
      if (isStreamed(body) && body.checked) await body.checked;
      if ('response' in outcome) return outcome.response;
      if ('fatal' in outcome) {
        outcome.fatal.afterLostAnswer = answerLost;
        throw outcome.fatal;
      }

      const { retryable } = outcome;
      const lost = retryable.kind === 'network' || retryable.kind === 'timeout';
      answerLost ||= lost;
      if (exchange.outcomeUnknownOnFailure && (lost || (retryable.status ?? 0) >= 500)) {
        throw retryable.withOutcomeUnknown();
      }
      if (answerLost && !exchange.repeatable) throw retryable.notRepeated();
      const backoff = this.retryDelayMs(attempt, retryable.status === 429, outcome.retryAfterMs);
      if (Date.now() + backoff >= deadline) {
        throw retryable.afterAttempts(attempt, this.options.deadlineMs);
      }
      if (!this.retryBudget.take()) throw retryable.afterRunRetries(attempt, this.retryBudget.size);
      this.options.onRetry?.(
        words`${name}: ${retryable.told} Retrying in ${(backoff / 1000).toFixed(1)}s (attempt ${attempt + 1}).`,
      );
      await sleep(backoff, this.options.signal);
    }
  }

  private requestFor(
    endpoint: EndpointName,
    payload: object | string | StreamedBody,
  ): { url: string; body: RequestBody } {
    const definition = ROUTES[endpoint];
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
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
      'user-agent': `merge-queue-action/${VERSION}`,
    };
    if (body !== null) headers['content-type'] = 'application/json';
    if (isStreamed(body)) headers['content-length'] = String(body.byteLength);
    if (this.options.token) headers['x-api-token'] = this.options.token;
    else if (endpoint === 'setImpactedTargets' && this.options.forkedWorkflowRunId) {
      headers['x-forked-workflow-run-id'] = this.options.forkedWorkflowRunId;
    }
    return headers;
  }

  /** One request and its whole answer, within `remainingMs` and the attempt timeout. Never throws. */
  private attempt(
    { send, agent }: Transport,
    exchange: Exchange,
    remainingMs: number,
    options: CallOptions,
  ): Promise<Attempt> {
    const { name: endpoint, method, url, body, headers, limit } = exchange;
    const timeoutMs = Math.max(1, Math.min(this.policy.attemptTimeoutMs, remainingMs));
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      const signal = this.options.signal;
      const callOff = () => finish({ fatal: calledOff(endpoint) });
      const finish = (outcome: Attempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', callOff);
        // Whatever is still open of this exchange is dropped: its socket never serves another call.
        if (!('response' in outcome)) request.destroy();
        resolve(outcome);
      };
      const timer = setTimeout(() => {
        const noAnswer = `no complete answer within ${(timeoutMs / 1000).toFixed(1)}s.`;
        finish({ retryable: new ApiError(endpoint, noAnswer, { kind: 'timeout' }) });
      }, timeoutMs);
      let request: ReturnType<typeof httpRequest>;
      try {
        request = send(this.parsed(url), { method, headers, agent });
      } catch (error) {
        // A header Node refuses to send (a control character in a token): nothing left, nothing to retry.
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        clearTimeout(timer);
        resolve({
          fatal: new ApiError(endpoint, `the request could not be sent (${reason}).`, { kind: 'network' }),
        });
        return;
      }
      signal?.addEventListener('abort', callOff, { once: true });
      request.on('error', (error) => finish({ retryable: ApiError.network(endpoint, error) }));
      request.on('response', (message) => {
        const declared = Number(message.headers['content-length']);
        if (Number.isFinite(declared) && declared > limit) {
          finish({ fatal: this.tooLarge(endpoint, limit, message.statusCode ?? 0) });
          return;
        }
        readCapped(message, limit).then(
          (text) => {
            if (text === undefined)
              finish({ fatal: this.tooLarge(endpoint, limit, message.statusCode ?? 0) });
            else if (options.onAnswer) this.answerEarly(exchange, message, text, options.onAnswer, finish);
            else finish(this.outcomeOf(exchange, message, text));
          },
          (error: unknown) => finish({ retryable: ApiError.network(endpoint, error) }),
        );
      });
      if (isStreamed(body)) {
        body.checked?.catch((reason: unknown) => request.destroy(reason as Error));
        const stream = body.open();
        stream.on('error', (error: Error) => request.destroy(error));
        stream.pipe(request);
      } else {
        request.end(body ?? undefined);
      }
    });
  }

  /**
   * A 2xx answer's text (not an HTML page) is handed to `onAnswer` first; it is parsed and checked
   * (outcomeOf) on the loop's next turn, after any other answer that came in meanwhile has had its own
   * next request sent.
   */
  private answerEarly(
    exchange: Exchange,
    message: IncomingMessage,
    text: string,
    onAnswer: (text: string) => void,
    finish: (outcome: Attempt) => void,
  ): void {
    const status = message.statusCode ?? 0;
    if (status < 200 || status >= 300 || isHtmlPage(text, contentTypeOf(message))) {
      finish(this.outcomeOf(exchange, message, text));
      return;
    }
    onAnswer(text);
    setImmediate(() => finish(this.outcomeOf(exchange, message, text)));
  }

  private outcomeOf(exchange: Exchange, message: IncomingMessage, text: string): Attempt {
    const endpoint = exchange.name;
    const status = message.statusCode ?? 0;
    const contentType = contentTypeOf(message);
    if (status >= 200 && status < 300) {
      // The service answers JSON, plain text or nothing; an HTML page comes from something in between.
      if (isHtmlPage(text, contentType)) {
        return { fatal: describeForeignPage(endpoint, status, this.redact(text), contentType) };
      }
      if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) {
        return {
          fatal: this.notTheAnswer(endpoint, status, {
            what: `JSON nested deeper than ${MAX_ANSWER_DEPTH} levels`,
          }),
        };
      }
      const json = parseJson(text);
      const problem = exchange.answerProblem(text, json);
      if (problem) return { fatal: this.notTheAnswer(endpoint, status, problem, contentType) };
      const serverTimeMs = Date.parse(String(message.headers.date ?? ''));
      return {
        response: {
          status,
          contentType,
          text,
          json,
          ...(Number.isFinite(serverTimeMs) ? { serverTimeMs } : {}),
        },
      };
    }
    const describe = exchange.describeFailure ?? describeHttpFailure;
    const failure = describe(endpoint, status, this.redact(text), contentType, message.headers);
    if (status === 429 || status >= 500) {
      return { retryable: failure, retryAfterMs: this.retryAfterMs(message.headers['retry-after']) };
    }
    return { fatal: failure };
  }

  private tooLarge(endpoint: string, limit: number, status: number): ApiError {
    return new ApiError(
      endpoint,
      words`the answer is larger than ${describeBytes(limit)}, the most this endpoint answers (HTTP ${status}); it was not read further. Check ${nameOf('api-url')}: something other than the API may be answering.`,
      { kind: 'invalid-response', status },
    );
  }

  /** The service's text the problem is about goes apart from our words, its secrets hidden. */
  private notTheAnswer(endpoint: string, status: number, problem: AnswerProblem, contentType = ''): ApiError {
    return new ApiError(
      endpoint,
      words`the API answered ${status} with ${problem.what}, so nothing was taken from it. Check ${nameOf('api-url')} (it should be the API base); if it is right, report this message: the service's answer changed.`,
      {
        kind: 'invalid-response',
        status,
        said: problem.said ? summarizeBody(this.redact(problem.said), contentType) : '',
      },
    );
  }

  /** The URL parsed, once for a run of calls to the same one (a listing's pages). */
  private parsed(url: string): URL {
    if (this.lastUrl?.href !== url) this.lastUrl = { href: url, parsed: new URL(url) };
    return this.lastUrl.parsed;
  }

  /**
   * One agent per client: kept-alive, so that a run's requests share one connection. node:https is loaded
   * only for an https API: loading TLS costs a run over plain HTTP (the emulator) about 10 ms.
   */
  private async openTransport(): Promise<Transport> {
    const { proxy } = this.options;
    const proxyEnv = proxy && Object.values(proxy).some(Boolean) ? { ...proxy } : undefined;
    const options = { keepAlive: true, ...(proxyEnv ? { proxyEnv } : {}) };
    if (!this.secure) return { send: httpRequest, agent: new HttpAgent(options) };
    const https = await import('node:https');
    return { send: https.request, agent: new https.Agent(options) };
  }

  /**
   * The pause before attempt `attempt + 1`: the jittered backoff, or the service's Retry-After when that
   * is longer (cut to maxRetryAfterMs), and at least rateLimitedDelayMs after a 429. A Retry-After of 0
   * or a past date never means "at once".
   */
  private retryDelayMs(attempt: number, rateLimited: boolean, retryAfterMs: number | undefined): number {
    const floor = rateLimited ? this.policy.rateLimitedDelayMs : 0;
    return Math.max(this.backoffMs(attempt), floor, retryAfterMs ?? 0);
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

/**
 * Reads a whole body as text, or undefined the moment it passes `limit` bytes (the rest is not read).
 * Fails (rather than hanging) when the connection drops mid-body.
 */
function readCapped(message: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    message.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) {
        // Settled before the destroy, whose 'aborted' and 'close' would otherwise read as a dropped connection.
        resolve(undefined);
        message.destroy();
        return;
      }
      chunks.push(chunk);
    });
    message.on('error', reject);
    message.on('aborted', () => reject(new Error('the connection closed before the whole answer arrived')));
    message.on('close', () => {
      if (!message.complete) reject(new Error('the connection closed before the whole answer arrived'));
    });
    message.on('end', () => resolve(Buffer.concat(chunks, bytes).toString('utf8')));
  });
}

function contentTypeOf(message: IncomingMessage): string {
  return String(message.headers['content-type'] ?? '');
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

/** A pause between attempts, cut short when the run is called off (the next attempt then says so). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

function calledOff(endpoint: string): ApiError {
  return new ApiError(endpoint, 'the call was called off before the service answered.', { kind: 'timeout' });
}
