// Failures of an API call, each as one line a person can act on.
import { MAX_BODY_BYTES } from '../../wire/index.js';
import { cutSafely } from '../report/redact.js';

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'redirect' | 'invalid-response';

export class ApiError extends Error {
  readonly endpoint: string;
  readonly kind: ApiErrorKind;
  /** The HTTP status, when the service answered. */
  readonly status?: number;
  /** The service's own text the message quotes (an error answer's body, cut to a line), else ''. */
  readonly body: string;
  /**
   * An earlier attempt of the same call got no answer (a dropped connection or a timeout), so the
   * service may already have done the work; a 404 or 409 now can be the echo of that success.
   */
  afterLostAnswer = false;
  /**
   * A write failed in a way (a 5xx, an answer lost) that leaves unknown whether the service did it: it
   * was not sent again, so that its caller can read the resource back first.
   */
  outcomeUnknown = false;
  /** The v2 error envelope's stable code (INSUFFICIENT_PERMISSIONS, PR_ALREADY_ENQUEUED, ...). */
  code?: string;
  /** The message is a whole line that names what failed itself (see `reworded`). */
  private wholeLine = false;

  constructor(
    endpoint: string,
    detail: string,
    options: { kind: ApiErrorKind; status?: number; body?: string; code?: string },
  ) {
    super(detail);
    this.name = 'ApiError';
    this.endpoint = endpoint;
    this.kind = options.kind;
    this.status = options.status;
    this.body = options.body ?? '';
    this.code = options.code;
  }

  static network(endpoint: string, cause: unknown): ApiError {
    const code = (cause as { code?: string })?.code;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new ApiError(endpoint, `could not reach the API (${code ?? reason}).`, { kind: 'network' });
  }

  /** The final error once retries are spent: says how many attempts were made. */
  afterAttempts(attempts: number, deadlineMs: number): ApiError {
    const advice =
      this.status === 429
        ? 'The organization is over its rate limit: run fewer calls at once, or raise timeout-seconds to wait longer.'
        : `Check api-url and the service's status, or raise timeout-seconds (now ${Math.round(deadlineMs / 1000)}).`;
    return this.withMessage(`${this.message} Gave up after ${attempts} attempt(s). ${advice}`);
  }

  /** The final error once the run's retries are spent (client.ts RETRIES_PER_RUN). */
  afterRunRetries(attempts: number, perRun: number): ApiError {
    return this.withMessage(
      `${this.message} Gave up after ${attempts} attempt(s): the run has made its ${perRun} retries, the most one run makes. Check the service's status before running the step again.`,
    );
  }

  /** The final error of a write that is not sent again once its answer was lost. */
  notRepeated(): ApiError {
    return this.withMessage(
      `${this.message} It was not sent again: the service may already have done it, and doing it twice would not be the same. Check the result (e.g. with get-submitted-pull-request) before running the step again.`,
    );
  }

  /** The error of a write that was not retried because its outcome is unknown (see outcomeUnknown). */
  withOutcomeUnknown(): ApiError {
    const error = this.withMessage(this.message);
    error.outcomeUnknown = true;
    return error;
  }

  /**
   * The same failure (its kind, status and the service's text, hence its exit code) told in an
   * operation's own words: `line` is the whole line, naming what failed itself.
   */
  reworded(line: string): ApiError {
    const error = this.withMessage(line);
    error.wholeLine = true;
    return error;
  }

  private withMessage(message: string): ApiError {
    return new ApiError(this.endpoint, message, {
      kind: this.kind,
      status: this.status,
      body: this.body,
      code: this.code,
    });
  }

  /** The single line shown to the user. */
  override toString(): string {
    return this.wholeLine ? this.message : `${this.endpoint} failed: ${this.message}`;
  }
}

const ADVICE: Record<number, string> = {
  400: 'The service refused the request as invalid; check the inputs it names.',
  401: 'Check that api-token holds your organization API token (Settings > Organization > API token) and that the secret is passed to this job.',
  403: "The token's organization may not access this repository; check repo and repo-host, and that the token belongs to the right organization.",
  404: 'Check repo, repo-host, target-branch and pr-number: the service does not know them.',
  409: 'It already exists.',
  413: `The request body is over the service's limit of ${MAX_BODY_BYTES} bytes.`,
  429: 'The organization is over its rate limit.',
};

/** Turns a non-2xx answer into one line: the status, what the service said, and what to do. */
export function describeHttpFailure(
  endpoint: string,
  status: number,
  body: string,
  contentType: string,
  headers: { location?: string } = {},
): ApiError {
  const { location } = headers;
  const said = summarizeBody(body, contentType);
  const shown = said ? `: ${said}` : '';
  if (status >= 300 && status < 400) {
    return new ApiError(
      endpoint,
      `the API answered ${status} redirecting to ${location ?? 'another address'}, which is not followed so that the token stays with api-url. Set api-url to the address the service really serves.`,
      { kind: 'redirect', status, body: said },
    );
  }
  const advice = ADVICE[status] ?? (status >= 500 ? 'The service failed.' : '');
  return new ApiError(endpoint, `the API answered ${status}${shown}. ${advice}`.trim(), {
    kind: 'http',
    status,
    body: said,
  });
}

/** True for a body that is an HTML page: a proxy's, a captive portal's or a web app's, never the API's. */
export function isHtmlPage(body: string, contentType: string): boolean {
  return /html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(body);
}

/**
 * A 2xx carrying an HTML page: the request most likely never reached the service, so it is not taken
 * as success (a write would otherwise be reported as done when nothing was done).
 */
export function describeForeignPage(
  endpoint: string,
  status: number,
  body: string,
  contentType: string,
): ApiError {
  const said = summarizeBody(body, contentType);
  return new ApiError(
    endpoint,
    `the API answered ${status} with an HTML page${said ? ` ("${said}")` : ''} instead of its own answer, so the request most likely never reached the service (a proxy or captive portal in the way, or api-url pointing at a website). Check api-url and the runner's network; nothing was taken as done.`,
    { kind: 'invalid-response', status, body: said },
  );
}

const SHOWN_BODY_CHARS = 300;

/**
 * A body as one short line: markup stripped, whitespace folded, cut to a few hundred characters. Give it
 * the body with secrets already hidden: once cut, a secret could no longer be found whole.
 */
export function summarizeBody(body: string, contentType = ''): string {
  let text = body;
  if (isHtmlPage(text, contentType)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    text =
      title ??
      text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > SHOWN_BODY_CHARS ? `${cutSafely(text, SHOWN_BODY_CHARS)}…` : text;
}
