// Failures of an API call as data: the endpoint, the kind of failure (hence the exit code), our words
// about it, and apart from them the service's own text, which a host shows labelled or as a data field.
import { MAX_BODY_BYTES } from '../../wire/index.js';
import type { Failure, FailureKind } from '../errors.js';
import { oneLine } from '../report/control-syntax.js';
import { cutSafely } from '../report/redact.js';
import { ACTION_WORDING, asWords, nameOf, reach, say, words, type Words, type Wording } from '../words.js';
import { plural } from '../report/words.js';

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'redirect' | 'invalid-response';

export class ApiError extends Error implements Failure {
  override name = 'ApiError';
  readonly endpoint: string;
  readonly kind: ApiErrorKind;
  /** The HTTP status, when the service answered. */
  readonly status?: number;
  /** What failed and what to do, in our words only. */
  readonly detail: Words;
  /** The service's own text about it (an error answer's body, a value its answer held), cut to a line. */
  readonly serviceSaid: string;
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
  /** The detail is a whole line that names what failed itself (see `reworded`). */
  private wholeLine = false;

  constructor(
    endpoint: string,
    detail: string | Words,
    options: { kind: ApiErrorKind; status?: number; said?: string; code?: string },
  ) {
    super();
    this.endpoint = endpoint;
    this.kind = options.kind;
    this.status = options.status;
    this.detail = asWords(detail);
    this.serviceSaid = options.said ?? '';
    this.code = options.code;
    this.message = say(this.detail) + labelledServiceText(this.serviceSaid);
  }

  get failureKind(): FailureKind {
    if (this.kind === 'invalid-response') return 'bad-answer';
    const refused =
      this.kind === 'redirect' ||
      (this.kind === 'http' && this.status !== undefined && this.status < 500 && this.status !== 429);
    if (!refused) return 'unreachable';
    return this.status === 404 ? 'not-found' : 'refused';
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
        ? words`The organization is over its rate limit: run fewer calls at once, or raise ${nameOf('timeout-seconds')} to wait longer.`
        : words`Check ${nameOf('api-url')} and the service's status, or raise ${nameOf('timeout-seconds')} (now ${Math.round(deadlineMs / 1000)}).`;
    return this.withDetail(words`${this.detail} Gave up after ${plural(attempts, 'attempt')}. ${advice}`);
  }

  /** The final error once the run's retries are spent (client.ts RETRIES_PER_RUN). */
  afterRunRetries(attempts: number, perRun: number): ApiError {
    return this.withDetail(
      words`${this.detail} Gave up after ${plural(attempts, 'attempt')}: the run has made its ${perRun} retries, the most one run makes. Check the service's status before running the step again.`,
    );
  }

  /** The final error of a write that is not sent again once its answer was lost. */
  notRepeated(): ApiError {
    return this.withDetail(
      words`${this.detail} It was not sent again: the service may already have done it, and doing it twice would not be the same. Check the result (e.g. with get-submitted-pull-request) before running the step again.`,
    );
  }

  /** The error of a write that was not retried because its outcome is unknown (see outcomeUnknown). */
  withOutcomeUnknown(): ApiError {
    const error = this.withDetail(this.detail);
    error.outcomeUnknown = true;
    return error;
  }

  /**
   * The same failure (its kind, status and the service's text, hence its exit code) told in an
   * operation's own words: `line` is the whole line, naming what failed itself.
   */
  reworded(line: string | Words): ApiError {
    const error = this.withDetail(asWords(line));
    error.wholeLine = true;
    return error;
  }

  /** The same failure as another status would be read (v2's code for what v1 answers with `status`). */
  readAs(status: number): ApiError {
    return new ApiError(this.endpoint, this.detail, {
      kind: 'http',
      status,
      said: this.serviceSaid,
      code: this.code,
    });
  }

  /** The same failure, its detail (after `<endpoint> failed: `) told otherwise. */
  withDetail(detail: Words): ApiError {
    return new ApiError(this.endpoint, detail, {
      kind: this.kind,
      status: this.status,
      said: this.serviceSaid,
      code: this.code,
    });
  }

  /** The one line, naming what failed, in our words (for a line that tells of it within its own). */
  get line(): Words {
    return this.wholeLine ? this.detail : words`${this.endpoint} failed: ${this.detail}`;
  }

  get words(): Words {
    return this.line;
  }

  /** What failed and what to do, the service's text labelled at its end: the message, as data. */
  get told(): Words {
    return words`${this.detail}${labelledServiceText(this.serviceSaid)}`;
  }

  /** The one line in the host's words, without the service's text. */
  wordedFor(wording: Wording): string {
    return say(this.line, wording);
  }

  /** The single line shown to the user: the action's words, the service's text labelled at its end. */
  override toString(): string {
    return this.wordedFor(ACTION_WORDING) + labelledServiceText(this.serviceSaid);
  }
}

/** The most of the service's text a line shows. */
export const SHOWN_SERVICE_TEXT_CHARS = 300;

/**
 * The service's own text as a part of a line apart from ours: labelled, quoted with every quote, break
 * and control inside escaped, and cut; '' when it said nothing.
 */
export function labelledServiceText(said: string): string {
  if (!said) return '';
  const cut = said.length > SHOWN_SERVICE_TEXT_CHARS ? `${cutSafely(said, SHOWN_SERVICE_TEXT_CHARS)}…` : said;
  return ` (the service said: ${oneLine(JSON.stringify(cut))})`;
}

const ADVICE: Record<number, Words> = {
  400: ['The service refused the request as invalid; check the inputs it names.'],
  401: words`Check that ${nameOf('api-token')} holds your organization API token (Settings > Organization > API token) and that ${reach('api-token')}.`,
  403: words`The token's organization may not access this repository; check ${nameOf('repo')} and ${nameOf('repo-host')}, and that the token belongs to the right organization.`,
  404: words`Check ${nameOf('repo')}, ${nameOf('repo-host')}, ${nameOf('target-branch')} and ${nameOf('pr-number')}: the service does not know them.`,
  409: ['It already exists.'],
  413: [`The request body is over the service's limit of ${MAX_BODY_BYTES} bytes.`],
  429: ['The organization is over its rate limit.'],
};

/** Turns a non-2xx answer into a failure: the status and what to do; what the service said apart. */
export function describeHttpFailure(
  endpoint: string,
  status: number,
  body: string,
  contentType: string,
  headers: { location?: string } = {},
): ApiError {
  const { location } = headers;
  const said = summarizeBody(body, contentType);
  if (status >= 300 && status < 400) {
    // Where it redirects is the service's text too: it goes with the rest of what it said.
    return new ApiError(
      endpoint,
      words`the API answered ${status} redirecting to another address, which is not followed so that the token stays with ${nameOf('api-url')}. Set ${nameOf('api-url')} to the address the service really serves.`,
      {
        kind: 'redirect',
        status,
        said: [location && `Location: ${location}`, said].filter(Boolean).join(' '),
      },
    );
  }
  const advice = ADVICE[status] ?? (status >= 500 ? ['The service failed.'] : []);
  return new ApiError(endpoint, words`the API answered ${status}.${advice.length ? ' ' : ''}${advice}`, {
    kind: 'http',
    status,
    said,
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
  return new ApiError(
    endpoint,
    words`the API answered ${status} with an HTML page instead of its own answer, so the request most likely never reached the service (a proxy or captive portal in the way, or ${nameOf('api-url')} pointing at a website). Check ${nameOf('api-url')} and the runner's network; nothing was taken as done.`,
    { kind: 'invalid-response', status, said: summarizeBody(body, contentType) },
  );
}

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
  return text.length > SHOWN_SERVICE_TEXT_CHARS ? `${cutSafely(text, SHOWN_SERVICE_TEXT_CHARS)}…` : text;
}
