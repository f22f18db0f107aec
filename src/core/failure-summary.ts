// The summary of a run that failed before its operation could report: what went wrong in one line with
// an icon, the message, what to fix, and a few facts. Written for a bad input, a refused token, a queue
// or PR the service does not know, a conflict, an unreachable service: never an empty summary.
import { ApiError } from './api/errors.js';
import { ContextError, InputError } from './errors.js';
import { Markdown, escapeMarkdown, link } from './report/markdown.js';
import {
  ACTION_WORDING,
  againIn,
  nameOf,
  operationIn,
  reach,
  say,
  words,
  type Words,
  type Wording,
} from './words.js';

export interface FailureFacts {
  operation?: string;
  /** The one line the run failed with (secrets already hidden). */
  failure: string;
  exitCode: number;
  error: unknown;
  runUrl?: string;
}

const KINDS: Record<number, string> = {
  1: 'the operation failed',
  2: 'bad input or context',
  3: 'refused by the service',
  4: 'service unreachable',
};

/** The summary in the words of the host that shows it (`wording`: the action's when not given). */
export function failureSummary(facts: FailureFacts, wording: Wording = ACTION_WORDING): string {
  const { headline, fix } = explain(facts.error, wording);
  const summary = new Markdown()
    .headingMarkdown(
      `❌ ${escapeMarkdown(facts.operation ?? 'merge-queue-action')}: ${escapeMarkdown(headline)}`,
    )
    .alert('CAUTION', escapeMarkdown(whatHappened(facts)))
    .paragraph(`**What to fix:** ${fix}`);
  // The operation is left out when the run stopped before it was read (the headline says what failed).
  const rows: [string, unknown][] = [
    ...(facts.operation ? [['Operation', facts.operation] as [string, unknown]] : []),
    ['Exit code', `${facts.exitCode} (${KINDS[facts.exitCode] ?? 'failed'})`],
  ];
  if (facts.error instanceof ApiError) rows.push(['Endpoint', facts.error.endpoint]);
  if (facts.runUrl) rows.push(['Run', { markdown: link('this run', facts.runUrl) }]);
  return summary.factsAcross(rows).toString();
}

/**
 * The failure line, less the advice the service's answer came with when "What to fix" says it: the
 * answer's status is then said once (the caution) and the fix once.
 */
function whatHappened(facts: FailureFacts): string {
  if (!(facts.error instanceof ApiError && facts.error.kind === 'http')) return facts.failure;
  const firstSentence = /^.*?\.(?=\s+[A-Z])/s.exec(facts.failure);
  return firstSentence ? firstSentence[0] : facts.failure;
}

/** Names said as code in Markdown: `--repo`, `api-token`. */
function asCode(wording: Wording): Wording {
  return { ...wording, name: (input) => `\`${wording.name(input)}\`` };
}

function explain(error: unknown, wording: Wording): { headline: string; fix: string } {
  const again = againIn(wording);
  const fix = (text: Words) => say(text, asCode(wording));
  if (error instanceof InputError) {
    return {
      headline: `input ${error.input} cannot be used`,
      fix: fix(words`change ${nameOf(error.input)} as the message says, then ${again}.`),
    };
  }
  if (error instanceof ContextError) {
    return {
      headline: 'this run does not say what to act on',
      fix: fix(
        words`give what the message names (${nameOf('pr-number')}, ${nameOf('target-branch')}, ${nameOf('repo')}), then ${again}.`,
      ),
    };
  }
  if (error instanceof ApiError) return explainApiError(error, wording, fix);
  return {
    headline: 'it could not finish',
    fix: 'read the message above; it says what went wrong and what to do.',
  };
}

function explainApiError(
  error: ApiError,
  wording: Wording,
  fix: (text: Words) => string,
): { headline: string; fix: string } {
  const again = againIn(wording);
  switch (error.status) {
    case 401:
      return {
        headline: 'the service refused the API token',
        fix: fix(
          words`check that ${nameOf('api-token')} holds your organization API token (Settings › Organization › API token) and that ${reach('api-token')}.`,
        ),
      };
    case 403:
      return {
        headline: 'the token may not do this',
        fix: fix(
          words`check that the token belongs to the organization that owns this repository, and ${nameOf('repo')} / ${nameOf('repo-host')}.`,
        ),
      };
    case 404:
      return {
        headline: 'the service does not know this queue or PR',
        fix: fix(
          words`check ${nameOf('repo')}, ${nameOf('repo-host')}, ${nameOf('target-branch')} and ${nameOf('pr-number')}; if the branch has no queue yet, create it first (${operationIn(wording, 'create-queue')}).`,
        ),
      };
    case 409:
      return {
        headline: 'it conflicts with what already exists',
        fix: 'what this creates exists already: read it instead, or use the operation that updates it.',
      };
    case 413:
      return {
        headline: 'the request was too large',
        fix: 'send less at once (fewer impacted targets, or ALL).',
      };
    case 429:
      return {
        headline: 'the organization is over its rate limit',
        fix: fix(
          words`run fewer calls at once, or raise ${nameOf('timeout-seconds')} so that retries can wait longer.`,
        ),
      };
    default:
      if (error.kind === 'http' && error.status !== undefined && error.status < 500) {
        return {
          headline: 'the service refused the request',
          fix: 'check the inputs the message names.',
        };
      }
      return {
        headline: 'the service could not be reached or kept failing',
        fix: fix(
          words`check ${nameOf('api-url')} and the service's status, then ${again}; raise ${nameOf('timeout-seconds')} to retry for longer.`,
        ),
      };
  }
}
