// Why a PR's test run failed, as a verdict with its evidence: a PR ahead it was built on failed, the CI
// itself failed (timeouts, cancelled or unstarted checks), the failing tests are known flakes, or the PR
// itself (tested alone or isolated by a bisection, failing tests nobody knows as flaky). The evidence is in
// our words with PR numbers and counts; names stay in their own fields.
import { knownState, plural } from './pr-words.js';

export const VERDICTS = [
  'likely_this_pr',
  'likely_flake',
  'likely_pr_ahead',
  'likely_infrastructure',
  'undetermined',
  'not_failed',
] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface FailureFacts {
  prNumber: number;
  /** The PR's outcome: failed, cancelled, or still in the queue (PENDING_FAILURE is a failed run). */
  state: string;
  serviceReason: string;
  checkConclusions: string[];
  runStatus?: string;
  testedPrNumbers: number[];
  /** PRs the run was built on top of, with their state now. */
  builtOn: { prNumber: number; state: string }[];
  isBisection: boolean | null;
  /** Each failing test: known as flaky or broken, quarantined, or unknown to the flaky-tests service. */
  failingTests: { status: string; quarantined: boolean }[];
}

const INFRASTRUCTURE_CONCLUSIONS = new Set([
  'TIMED_OUT',
  'CANCELLED',
  'STARTUP_FAILURE',
  'ACTION_REQUIRED',
  'ERROR',
]);
const FAILED_STATES = new Set(['FAILED', 'PENDING_FAILURE', 'CANCELLED']);

export function verdictOf(facts: FailureFacts): { verdict: Verdict; evidence: string[] } {
  if (facts.state !== 'FAILED' && facts.state !== 'PENDING_FAILURE') {
    // The state is the service's text: only a state the API defines is named here, in its own spelling.
    const known = knownState(facts.state);
    const why =
      facts.state === 'CANCELLED'
        ? 'it was cancelled, not failed'
        : known
          ? `it is ${known}`
          : facts.state
            ? 'it is in a state the API does not define (see pullRequest.state)'
            : 'it is not in the queue';
    return { verdict: 'not_failed', evidence: [`No failed run to explain: ${why}.`] };
  }
  const ahead = facts.builtOn.filter((pr) => FAILED_STATES.has(pr.state));
  if (ahead.length) {
    return {
      verdict: 'likely_pr_ahead',
      evidence: ahead.map((pr) => `PR #${pr.prNumber}, which its test run was built on, is ${pr.state} too.`),
    };
  }
  const infrastructure = infrastructureEvidence(facts);
  if (infrastructure.length) return { verdict: 'likely_infrastructure', evidence: infrastructure };
  const tests = testEvidence(facts);
  if (tests.allKnown) return { verdict: 'likely_flake', evidence: tests.lines };
  return ownEvidence(facts, tests.lines);
}

function infrastructureEvidence(facts: FailureFacts): string[] {
  if (facts.serviceReason === 'TEST_RUN_TIMEOUT')
    return ['The service says its tests ran past the testing timeout.'];
  const conclusions = facts.checkConclusions;
  if (conclusions.length && conclusions.every((c) => INFRASTRUCTURE_CONCLUSIONS.has(c))) {
    return [
      `Every failing check ended ${[...new Set(conclusions)].join(' or ')}, not FAILURE: the CI did not finish, rather than a test failing.`,
    ];
  }
  if (!conclusions.length && facts.runStatus === 'failed') {
    return ['The run failed with no failing check named: a timeout or trouble in the CI.'];
  }
  return [];
}

function testEvidence(facts: FailureFacts): { allKnown: boolean; lines: string[] } {
  const tests = facts.failingTests;
  if (!tests.length) return { allKnown: false, lines: [] };
  const known = tests.filter((t) => t.status === 'FLAKY' || t.status === 'BROKEN' || t.quarantined);
  const flaky = tests.filter((t) => t.status === 'FLAKY' || t.quarantined);
  if (flaky.length === tests.length) {
    return {
      allKnown: true,
      lines: [
        `All ${plural(tests.length, 'failing test')} are known flaky or quarantined (see failingTests).`,
      ],
    };
  }
  const unknown = tests.length - known.length;
  return {
    allKnown: false,
    lines: [
      `${plural(known.length, 'failing test')} of ${tests.length} known unhealthy; ${unknown} not known as flaky (see failingTests).`,
    ],
  };
}

function ownEvidence(facts: FailureFacts, testLines: string[]): { verdict: Verdict; evidence: string[] } {
  const others = facts.testedPrNumbers.filter((n) => n !== facts.prNumber);
  if (others.length && facts.isBisection !== true) {
    return {
      verdict: 'undetermined',
      evidence: [
        `Its run tested it in a batch with ${others.map((n) => `#${n}`).join(', ')}: the failure may be theirs.`,
        ...testLines,
      ],
    };
  }
  const alone =
    facts.isBisection === true
      ? 'A bisection run isolated it, so the failure follows this PR.'
      : 'Its run tested it alone, on top of PRs that did not fail.';
  const failures = facts.checkConclusions.filter((c) => !INFRASTRUCTURE_CONCLUSIONS.has(c)).length;
  const checks = failures ? `${plural(failures, 'check')} concluded FAILURE.` : '';
  return { verdict: 'likely_this_pr', evidence: [alone, checks, ...testLines].filter(Boolean) };
}
