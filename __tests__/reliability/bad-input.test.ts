// The bad-input table: each mistake a workflow author can make, run end to end the way the runner runs
// the action. Every one must end the step with exit 2 and exactly one ::error:: line that names the
// input, says what is wrong and what to do; no stack trace; no request to the API; and the token nowhere
// but in the runner's ::add-mask:: command. Beside the mistakes written here, every own input of every
// operation in the registry is given a value it cannot take (helpers/wrong-values.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CODES } from '../../src/core/failure.js';
import type { OperationName } from '../../src/core/operations/registry.js';
import { runAction, type ExitedRun } from '../helpers/action-runner.js';
import { secretLeaks } from '../helpers/leaks.js';
import { writeRecord, type BadInputRow } from '../helpers/reliability-record.js';
import { example } from '../helpers/webhook-examples.js';
import { sampleOf, wrongValuesFromRegistry } from '../helpers/wrong-values.js';

const TOKEN = 'tok_badinput_Zq8vR2mW5pK9';
const GITHUB_TOKEN = 'ghs_badinput_Lm3nB7cX1vT4';

const pullRequestEvent = example('pull_request', (p) => p.action === 'opened');
const dispatchEvent = example('workflow_dispatch');
const pushToBranch = example('push', (p) => p.ref.startsWith('refs/heads/') && !p.deleted);

type EventName = 'pull_request' | 'workflow_dispatch' | 'push';
const EVENTS: Record<EventName, { payload: unknown; repository: string }> = {
  pull_request: { payload: pullRequestEvent, repository: pullRequestEvent.repository.full_name },
  workflow_dispatch: { payload: dispatchEvent, repository: dispatchEvent.repository.full_name },
  push: { payload: pushToBranch, repository: pushToBranch.repository.full_name },
};

interface BadInput {
  operation: string;
  /** The input the line must name. */
  input: string;
  kind: string;
  inputs: Record<string, string | ((files: Files) => string)>;
  /** What the line must say about the problem. */
  says: RegExp;
  event?: EventName;
}

interface Files {
  dir: string;
  latin1: string;
  utf16: string;
  directory: string;
  loop: string;
  toNull: string;
  toZero: string;
  toDirectory: string;
  fifo: string;
  huge: string;
  /** A targets config that reads well. */
  targets: string;
}

const PR_EVENT = 'pull_request';
const NO_PR_EVENT = 'workflow_dispatch';
const longDigits = '9'.repeat(5000);

const CASES: BadInput[] = [
  // operation
  {
    operation: '',
    input: 'operation',
    kind: 'missing',
    inputs: {},
    says: /is empty\. Set it to one of the \d+ operations .*e\.g\. submit-pull-request/,
  },
  {
    operation: 'submit-pull-reqest',
    input: 'operation',
    kind: 'unknown value (a typo)',
    inputs: {},
    says: /is not an operation\. Did you mean submit-pull-request/,
  },
  {
    operation: 'getQueues',
    input: 'operation',
    kind: 'unknown value (camelCase typo)',
    inputs: {},
    says: /"getQueues" is not an operation\. Did you mean get-queue/,
  },
  {
    operation: 'merge-now',
    input: 'operation',
    kind: 'unknown value',
    inputs: {},
    says: /is not an operation\. Set it to one of the \d+ operations in docs\/reference.md \(the CLI: --help\), e\.g\. submit-pull-request, /,
  },
  // api-token
  {
    operation: 'submit-pull-request',
    input: 'api-token',
    kind: 'missing',
    inputs: { 'api-token': '' },
    says: /^The API token is empty: set the api-token input from a secret that holds/,
  },
  {
    operation: 'get-queue',
    input: 'api-token',
    kind: 'missing (blank)',
    inputs: { 'api-token': '   ' },
    says: /^The API token is empty: /,
  },
  // api-url
  {
    operation: 'submit-pull-request',
    input: 'api-url',
    kind: 'unsafe api-url (plain http to another host)',
    inputs: { 'api-url': 'http://api.example.com/v1' },
    says: /plain http to a host other than this machine.*Use https/,
  },
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'unsafe api-url (plain http to a look-alike of loopback)',
    inputs: { 'api-url': 'http://127.0.0.1.nip.io/v1' },
    says: /plain http to a host other than this machine/,
  },
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'unsafe api-url (neither http nor https)',
    inputs: { 'api-url': 'ftp://127.0.0.1/v1' },
    says: /is not an http\(s\) URL/,
  },
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'malformed value (not a URL)',
    inputs: { 'api-url': 'api.trunk.io/v1' },
    says: /is not a URL\. Set it to the API base/,
  },
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'unsafe api-url (credentials in the URL)',
    inputs: { 'api-url': 'https://user:hunter22@api.trunk.io/v1' },
    says: /contains credentials\. Remove them/,
  },
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'secret in the wrong place (the token in the query)',
    inputs: { 'api-url': `https://api.trunk.io/v1?token=${TOKEN}` },
    says: /has a query or fragment/,
  },
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'secret in the wrong place (the token as api-url)',
    inputs: { 'api-url': TOKEN },
    says: /"\*\*\*" is not a URL/,
  },
  // repo, repo-host
  {
    operation: 'get-queue',
    input: 'repo',
    kind: 'malformed value (not owner/name)',
    inputs: { repo: 'octo-repo' },
    says: /"octo-repo" is not owner\/name\. Set it like `my-org\/my-repo`/,
  },
  {
    operation: 'submit-pull-request',
    input: 'repo',
    kind: 'malformed value (a URL instead of owner/name)',
    inputs: { repo: 'https://github.com/octo-org/octo-repo' },
    says: /is a URL, not owner\/name/,
  },
  {
    operation: 'get-queue',
    input: 'repo',
    kind: 'malformed value (whitespace in owner/name)',
    inputs: { repo: 'octo org/octo-repo' },
    says: /is not owner\/name/,
  },
  {
    operation: 'get-queue',
    input: 'repo-host',
    kind: 'malformed value (a URL instead of a host)',
    inputs: { 'repo-host': 'https://github.com' },
    says: /is not a host name\. Set it like `github\.com`/,
  },
  // pr-number, pr-sha
  {
    operation: 'submit-pull-request',
    input: 'pr-number',
    kind: 'wrong type',
    inputs: { 'pr-number': 'abc' },
    says: /"abc" is not a pull request number/,
  },
  {
    operation: 'cancel-pull-request',
    input: 'pr-number',
    kind: 'out of range (zero)',
    inputs: { 'pr-number': '0' },
    says: /"0" is not a pull request number/,
  },
  {
    operation: 'cancel-pull-request',
    input: 'pr-number',
    kind: 'out of range (negative)',
    inputs: { 'pr-number': '-3' },
    says: /"-3" is not a pull request number/,
  },
  {
    operation: 'get-submitted-pull-request',
    input: 'pr-number',
    kind: 'wrong type (a fraction)',
    inputs: { 'pr-number': '12.5' },
    says: /is not a pull request number/,
  },
  {
    operation: 'submit-pull-request',
    input: 'pr-number',
    kind: 'huge value (5,000 digits)',
    inputs: { 'pr-number': longDigits },
    says: /a 5000-character value is not a pull request number/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'pr-sha',
    kind: 'malformed value (too short)',
    inputs: { 'pr-sha': 'abc1234', 'impacts-all': 'true' },
    says: /"abc1234" is not a full commit sha/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'pr-sha',
    kind: 'malformed value (not hexadecimal)',
    inputs: { 'pr-sha': 'z'.repeat(40), 'impacts-all': 'true' },
    says: /is not a full commit sha/,
  },
  // pull request settings
  {
    operation: 'submit-pull-request',
    input: 'priority',
    kind: 'unknown value',
    inputs: { priority: 'critical' },
    says: /"critical" is not a priority\. Use urgent, high, medium or low/,
  },
  {
    operation: 'submit-pull-request',
    input: 'priority',
    kind: 'out of range (256)',
    inputs: { priority: '256' },
    says: /"256" is not a priority/,
  },
  {
    operation: 'submit-pull-request',
    input: 'priority',
    kind: 'out of range (negative)',
    inputs: { priority: '-1' },
    says: /"-1" is not a priority/,
  },
  {
    operation: 'submit-pull-request',
    input: 'no-batch',
    kind: 'wrong type',
    inputs: { 'no-batch': 'maybe' },
    says: /"maybe" is not a boolean\. Use true or false/,
  },
  {
    operation: 'get-queue',
    input: 'summary',
    kind: 'wrong type',
    inputs: { summary: 'sometimes' },
    says: /is not a boolean/,
  },
  {
    operation: 'get-queue',
    input: 'timeout-seconds',
    kind: 'out of range (zero)',
    inputs: { 'timeout-seconds': '0' },
    says: /"0" is not a whole number from 1 to 3600/,
  },
  {
    operation: 'submit-pull-request',
    input: 'timeout-seconds',
    kind: 'wrong type',
    inputs: { 'timeout-seconds': 'ten' },
    says: /"ten" is not a whole number/,
  },
  {
    operation: 'get-queue',
    input: 'timeout-seconds',
    kind: 'huge value (1e309)',
    inputs: { 'timeout-seconds': '1e309' },
    says: /"1e309" is not a whole number from 1 to 3600/,
  },
  {
    operation: 'submit-pull-request',
    input: 'wait-for',
    kind: 'unknown value',
    inputs: { 'wait-for': 'done' },
    says: /"done" is not one of merged, tests_passed/,
  },
  {
    operation: 'submit-pull-request',
    input: 'wait-for',
    kind: 'a near miss',
    inputs: { 'wait-for': 'merge' },
    says: /"merge" is not one of merged, tests_passed\. Did you mean merged\?/,
  },
  {
    operation: 'get-submitted-pull-request',
    input: 'wait-timeout-minutes',
    kind: 'out of range (negative)',
    inputs: { 'wait-for': 'merged', 'wait-timeout-minutes': '-5' },
    says: /"-5" is not a number from/,
  },
  {
    operation: 'get-submitted-pull-request',
    input: 'poll-interval-seconds',
    kind: 'huge value (Infinity)',
    inputs: { 'wait-for': 'merged', 'poll-interval-seconds': 'Infinity' },
    says: /"Infinity" is not a number from 1 to 3600/,
  },
  // the workflow context
  {
    operation: 'submit-pull-request',
    input: 'pr-number',
    kind: 'missing (the event has no PR)',
    event: NO_PR_EVENT,
    inputs: {},
    says: /No pull request to act on: the workflow_dispatch event carries no pull request; set the pr-number input/,
  },
  {
    operation: 'cancel-pull-request',
    input: 'pr-number',
    kind: 'missing (a push to a branch has no PR)',
    event: 'push',
    inputs: {},
    says: /the push event is to refs\/heads\/master, not to a merge-queue test branch.*set the pr-number input/,
  },
  {
    operation: 'get-merge-queue-testing-details',
    input: 'test-run-id',
    kind: 'missing',
    event: NO_PR_EVENT,
    inputs: {},
    says: /is empty and event workflow_dispatch is not a push to a trunk-merge/,
  },
  // impacted targets
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'missing (no source of targets)',
    inputs: {},
    says: /is empty, and so are impacted-targets, impacts-all and targets-config\. Set impacted-targets-file to the path/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'conflicting inputs',
    inputs: { 'impacted-targets-file': 'targets.json', 'impacts-all': 'true' },
    says: /"impacted-targets-file" and "impacts-all": are both set\. Give exactly one source/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'missing or unreadable file (no such file)',
    inputs: { 'impacted-targets-file': (f) => join(f.dir, 'no-such-targets.json') },
    says: /no-such-targets\.json.* does not exist/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'missing or unreadable file (a directory)',
    inputs: { 'impacted-targets-file': (f) => f.directory },
    says: /is a directory/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'missing or unreadable file (a symlink loop)',
    inputs: { 'impacted-targets-file': (f) => f.loop },
    says: /is a symlink loop/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'non-UTF-8 content (Latin-1)',
    inputs: { 'impacted-targets-file': (f) => f.latin1 },
    says: /is not UTF-8 text \(an invalid byte sequence at offset 9\)/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: 'non-UTF-8 content (UTF-16)',
    inputs: { 'impacted-targets-file': (f) => f.utf16 },
    says: /is UTF-16 text\. Save it as UTF-8/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets',
    kind: 'wrong type (a JSON object)',
    inputs: { 'impacted-targets': '{"targets": ["//a"]}' },
    says: /holds a JSON object/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets',
    kind: 'wrong type (a number in the list)',
    inputs: { 'impacted-targets': '["//app:server", 3]' },
    says: /entry 2 of the JSON array is the number 3, not a string/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacted-targets',
    kind: 'malformed value (broken JSON)',
    inputs: { 'impacted-targets': '["//app:server",' },
    says: /is not valid JSON/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'on-missing-token',
    kind: 'unknown value',
    inputs: { 'impacts-all': 'true', 'on-missing-token': 'ignore' },
    says: /"ignore" is not one of fail, warn, skip/,
  },
  {
    operation: 'set-impacted-targets',
    input: 'impacts-all',
    kind: 'wrong type',
    inputs: { 'impacts-all': 'all' },
    says: /"all" is not a boolean/,
  },
  // queues
  {
    operation: 'create-queue',
    input: 'mode',
    kind: 'unknown value',
    inputs: { mode: 'serial' },
    says: /"serial" is not one of single, parallel/,
  },
  {
    operation: 'create-queue',
    input: 'concurrency',
    kind: 'out of range (zero)',
    inputs: { concurrency: '0' },
    says: /"0" is not a whole number from 1 to 4294967295/,
  },
  {
    operation: 'create-queue',
    input: 'concurrency',
    kind: 'huge value (20 digits)',
    inputs: { concurrency: '99999999999999999999' },
    says: /is not a whole number from 1 to 4294967295/,
  },
  {
    operation: 'create-queue',
    input: 'if-exists',
    kind: 'unknown value',
    inputs: { 'if-exists': 'overwrite' },
    says: /"overwrite" is not one of fail, update, skip/,
  },
  {
    operation: 'update-queue',
    input: 'state',
    kind: 'unknown value (a state only the service sets)',
    inputs: { state: 'switching_modes' },
    says: /switching_modes is set by the service/,
  },
  {
    operation: 'update-queue',
    input: 'settings',
    kind: 'malformed value (broken JSON)',
    inputs: { settings: '{concurrency: 3}' },
    says: /is not valid JSON .*Give a JSON object/,
  },
  {
    operation: 'update-queue',
    input: 'settings',
    kind: 'wrong type (an array)',
    inputs: { settings: '[1, 2]' },
    says: /is not a JSON object/,
  },
  {
    operation: 'update-queue',
    input: 'settings',
    kind: 'missing (nothing to update)',
    inputs: {},
    says: /update-queue has nothing to send/,
  },
  {
    operation: 'update-queue',
    input: 'merge-method',
    kind: 'unknown value',
    inputs: { 'merge-method': 'fast-forward' },
    says: /"fast-forward" is not one of merge_commit, squash, rebase/,
  },
  {
    operation: 'update-queue',
    input: 'batching-min-size',
    kind: 'wrong type (a fraction)',
    inputs: { 'batching-min-size': '2.5' },
    says: /"2\.5" is not a whole number/,
  },
  {
    operation: 'update-queue',
    input: 'batch',
    kind: 'wrong type',
    inputs: { batch: 'sometimes' },
    says: /is not a boolean/,
  },
  // list-pull-requests
  {
    operation: 'list-pull-requests',
    input: 'state',
    kind: 'unknown value',
    inputs: { state: 'open' },
    says: /"open" is not one of not_ready, pending/,
  },
  {
    operation: 'list-pull-requests',
    input: 'since',
    kind: 'malformed value (not ISO 8601)',
    inputs: { since: 'yesterday' },
    says: /"yesterday" is not a date-time\. Use ISO 8601/,
  },
  {
    operation: 'list-pull-requests',
    input: 'take',
    kind: 'out of range',
    inputs: { take: '500' },
    says: /"500" is not a whole number from 1 to 100/,
  },
  // metrics
  {
    operation: 'get-merge-queue-metrics',
    input: 'all-repositories',
    kind: 'conflicting inputs',
    inputs: { 'all-repositories': 'true', repo: 'octo-org/octo-repo' },
    says: /every repository of the organization, but repo is set too/,
  },
  // flaky tests
  {
    operation: 'list-unhealthy-tests',
    input: 'org-url-slug',
    kind: 'missing',
    inputs: {},
    says: /^list-unhealthy-tests needs your organization's slug as in its app URL: set the org-url-slug input\.$/,
  },
  {
    operation: 'list-unhealthy-tests',
    input: 'test-status',
    kind: 'unknown value',
    inputs: { 'org-url-slug': 'acme', 'test-status': 'FLAKEY' },
    says: /"FLAKEY" is not a test status\. Use FLAKY, BROKEN/,
  },
  {
    operation: 'list-quarantined-tests',
    input: 'page-size',
    kind: 'out of range',
    inputs: { 'org-url-slug': 'acme', 'page-size': '1000' },
    says: /"1000" is not a whole number from 1 to 100/,
  },
  {
    operation: 'list-unhealthy-tests',
    input: 'fail-on',
    kind: 'unknown value',
    inputs: { 'org-url-slug': 'acme', 'fail-on': 'always' },
    says: /"always" is not one of none, flaky, broken, any/,
  },
  {
    operation: 'list-unhealthy-tests',
    input: 'max-unhealthy',
    kind: 'out of range (negative)',
    inputs: { 'org-url-slug': 'acme', 'max-unhealthy': '-1' },
    says: /"-1" is not a whole number from 0/,
  },
  {
    operation: 'list-failing-tests',
    input: 'end-time',
    kind: 'conflicting inputs (end before start)',
    inputs: {
      'org-url-slug': 'acme',
      'start-time': '2026-01-05T00:00:00Z',
      'end-time': '2026-01-04T00:00:00Z',
    },
    says: /is not after start-time/,
  },
  {
    operation: 'list-failing-tests',
    input: 'start-time',
    kind: 'out of range (a window over 7 days)',
    inputs: {
      'org-url-slug': 'acme',
      'start-time': '2026-01-01T00:00:00Z',
      'end-time': '2026-01-20T00:00:00Z',
    },
    says: /longer than 7 days/,
  },
  {
    operation: 'list-failing-tests',
    input: 'start-time',
    kind: 'malformed value (a local date format)',
    inputs: { 'org-url-slug': 'acme', 'start-time': '31/01/2026' },
    says: /"31\/01\/2026" is not a date-time/,
  },
  {
    operation: 'get-test-details',
    input: 'test-id',
    kind: 'missing',
    inputs: { 'org-url-slug': 'acme' },
    says: /^get-test-details needs the test's id: set the test-id input\.$/,
  },
  // An id no request could carry (it would change the route over v2) is a bad input, over both versions.
  ...(
    [
      ['get-test-details', 'test-id', '../../v2/merge-queues', 'a test case id'],
      ['link-ticket-to-test-case', 'test-case-id', 'tc/1?x=2', 'a test case id'],
      ['get-verification-run', 'test-run-id', '..', 'a verification run id'],
      ['get-merge-queue-testing-details', 'test-run-id', 'run#1', 'a verification run id'],
      ['describe-merge-queue-run', 'test-run-id', '%2F..', 'a verification run id'],
    ] as const
  ).flatMap(([operation, input, id, what]) =>
    (['v1', 'v2'] as const).map((version): BadInput => ({
      operation,
      input,
      kind: `not an id the service gives (over ${version})`,
      inputs: {
        'api-version': version,
        'org-url-slug': 'acme',
        'external-ticket-id': 'KAN-1',
        'target-branch': 'main',
        [input]: id,
      },
      says: new RegExp(`is not ${what}`),
    })),
  ),
  {
    operation: 'link-ticket-to-test-case',
    input: 'external-ticket-id',
    kind: 'missing',
    inputs: { 'test-case-id': 'tc-1' },
    says: /^link-ticket-to-test-case needs the ticket: set the external-ticket-id input\.$/,
  },
  // issue 18: tokens a header cannot carry, values that must be one line, files that are not files
  ...(
    [
      ['a zero-width space', 'tok_badinput_Zq8v\u200bR2mW5pK9', /U\+200B, at character 18/],
      ['a space inside', 'tok_badinput Zq8vR2mW5pK9', /U\+0020, at character 13/],
      ['a tab inside', 'tok_badinput\tZq8vR2mW5pK9', /U\+0009/],
      ['a non-ASCII letter', 'tok_bädinput_Zq8vR2mW5pK9', /U\+00E4, at character 6/],
      ['a zero-width non-joiner', 'tok\u200c_badinput_Zq8vR2mW5pK9', /U\+200C, at character 4/],
      ['a no-break space', 'tok_badinput_Zq8v\u00a0R2mW5pK9', /U\+00A0/],
    ] as const
  ).flatMap(([what, token, says]) =>
    (['get-queue', 'submit-pull-request'] as const).map((operation): BadInput => ({
      operation,
      input: 'api-token',
      kind: `a character a header cannot carry (${what})`,
      inputs: { 'api-token': token },
      says: new RegExp(`contains a character an HTTP header cannot carry \\(${says.source}`),
    })),
  ),
  {
    operation: 'get-queue',
    input: 'github-token',
    kind: 'a character a header cannot carry (a zero-width joiner)',
    inputs: { 'github-token': 'ghs_badinput_Lm3n\u200dB7cX1vT4' },
    says: /contains a character an HTTP header cannot carry \(U\+200D/,
  },
  ...(
    [
      ['a line break', 'main\nrelease', 'a line break'],
      ['a workflow command after a line break', 'main\n::add-mask::x', 'a line break'],
      ['a carriage return', 'main\rnext', 'a line break'],
      ['a Unicode line separator', 'main\u2028next', 'a line break'],
      ['a terminal escape', 'main\u001b[2K', 'a control character'],
    ] as const
  ).map(([what, branch, says]): BadInput => ({
    operation: 'get-queue',
    input: 'target-branch',
    kind: `not one line (${what})`,
    inputs: { 'target-branch': branch },
    says: new RegExp(`contains ${says}, and must be one line`),
  })),
  {
    operation: 'submit-pull-request',
    input: 'target-branch',
    kind: 'not one line (a line break, on a write)',
    inputs: { 'target-branch': 'main\nother' },
    says: /contains a line break, and must be one line/,
  },
  {
    operation: 'get-queue',
    input: 'repo',
    kind: 'not one line (a line break)',
    inputs: { repo: 'octo-org/octo-repo\n::warning::x' },
    says: /contains a line break, and must be one line/,
  },
  {
    operation: 'get-queue',
    input: 'repo-host',
    kind: 'not one line (a line break)',
    inputs: { 'repo-host': 'github.com\nevil.example' },
    says: /contains a line break, and must be one line/,
  },
  ...(
    [
      ['a space', 'acme corp'],
      ['a slash', 'acme/web'],
      ['a web address', 'https://app.trunk.io/acme'],
      ['a leading dash', '-acme'],
    ] as const
  ).map(([what, slug]): BadInput => ({
    operation: 'list-quarantined-tests',
    input: 'org-url-slug',
    kind: `not a slug (${what})`,
    inputs: { 'org-url-slug': slug },
    says: /is not an organization slug/,
  })),
  {
    operation: 'list-unhealthy-tests',
    input: 'org-url-slug',
    kind: 'not one line (a line break)',
    inputs: { 'org-url-slug': 'acme\n::add-mask::x' },
    says: /contains a line break, and must be one line/,
  },
  ...(
    [
      ['a symlink to /dev/null', (f: Files) => f.toNull, /is a character device, not a regular file/],
      ['a symlink to /dev/zero', (f: Files) => f.toZero, /is a character device, not a regular file/],
      ['a device itself', () => '/dev/zero', /is a character device, not a regular file/],
      ['a fifo', (f: Files) => f.fifo, /is a fifo, not a regular file/],
      ['a symlink to a directory', (f: Files) => f.toDirectory, /is a directory, not a regular file/],
      ['a sparse 100 MiB file', (f: Files) => f.huge, /is 100\.0 MiB, more than the 40 MiB this input reads/],
    ] as const
  ).map(([what, path, says]): BadInput => ({
    operation: 'set-impacted-targets',
    input: 'impacted-targets-file',
    kind: `not a regular file (${what})`,
    inputs: { 'impacted-targets-file': path },
    says,
  })),
  {
    operation: 'get-queue',
    input: 'api-url',
    kind: 'a credential in api-url (a personal access token in the path)',
    inputs: { 'api-url': `http://api.example.com/v1/github_pat_11ABCDEFG0${'k'.repeat(30)}Z9yX8wV7` },
    says: /"http:\/\/api\.example\.com\/v1\/\*\*\*" uses plain http/,
  },
];

// ---------------------------------------------------------------------------------------------------
// Every operation's own inputs, from the registry: each with a value it cannot take (helpers/
// wrong-values.ts tries a few on the operation's sample), so that a new operation's inputs are here
// without an edit. The tables below are for the inputs no value tried there is refused as before the run.

/** set-impacted-targets computing the targets itself: a config instead of the sample's targets. */
const COMPUTING: BadInput['inputs'] = {
  ...sampleOf('set-impacted-targets'),
  'impacted-targets': '',
  'targets-config': (files) => files.targets,
};

/** Inputs read when the operation runs (files, directories) or only beside another: a wrong value each. */
const WRONG_WHEN_RUN: Record<string, Pick<BadInput, 'kind' | 'inputs'>> = {
  'set-impacted-targets changed-files-from': {
    kind: 'unknown value (computing the targets)',
    inputs: { ...COMPUTING, 'changed-files-from': 'svn' },
  },
  'set-impacted-targets changed-files-file': {
    kind: 'missing or unreadable file (computing the targets)',
    inputs: { ...COMPUTING, 'changed-files-from': 'file', 'changed-files-file': 'no/such/changed.txt' },
  },
  'set-impacted-targets working-directory': {
    kind: 'not a directory (computing the targets)',
    inputs: { ...COMPUTING, 'working-directory': 'no/such/checkout' },
  },
  'set-impacted-targets fetch-deepen-attempts': {
    kind: 'wrong type (computing the targets)',
    inputs: { ...COMPUTING, 'fetch-deepen-attempts': 'many' },
  },
  'set-impacted-targets on-compute-error': {
    kind: 'unknown value (computing the targets)',
    inputs: { ...COMPUTING, 'on-compute-error': 'ignore' },
  },
  'set-impacted-targets github-api-url': {
    kind: 'malformed value (computing the targets)',
    inputs: { ...COMPUTING, 'github-api-url': 'api.github.com' },
  },
  'compute-impacted-targets targets-config': {
    kind: 'missing or unreadable file',
    inputs: { 'targets-config': 'no/such/targets.yml' },
  },
  'compute-impacted-targets working-directory': {
    kind: 'not a directory',
    inputs: { 'working-directory': 'no/such/checkout' },
  },
  'compute-impacted-targets changed-files-file': {
    kind: 'missing or unreadable file',
    inputs: {
      'targets-config': (files) => files.targets,
      'changed-files-from': 'file',
      'changed-files-file': 'no/such/changed.txt',
    },
  },
  'lint-impacted-targets-config targets-config': {
    kind: 'missing or unreadable file',
    inputs: { 'targets-config': 'no/such/targets.yml' },
  },
  'lint-impacted-targets-config working-directory': {
    kind: 'not a directory',
    inputs: { 'working-directory': 'no/such/checkout' },
  },
  'plan-queue-settings history': {
    kind: 'missing or unreadable file',
    // From the file instead of the sample's figures.
    inputs: { prs: '', arrivals: '', 'ci-duration': '', history: 'no/such/history.jsonl' },
  },
  'check-test-results checkout-dir': {
    kind: 'not a directory',
    inputs: { ...sampleOf('check-test-results'), 'checkout-dir': 'no/such/checkout' },
  },
  'list-unhealthy-tests badge-file': {
    kind: 'not a regular file (a directory)',
    inputs: { ...sampleOf('list-unhealthy-tests'), 'badge-file': (files) => files.directory },
  },
};

/** Inputs that take any value, with why: there is nothing to refuse. */
const ANY_VALUE: Record<string, string> = {
  'set-impacted-targets impacted-targets': "targets are the workflow's own names for parts of the repository",
  'check-test-results variant': 'the variant the test runner reports, any text',
};

const FROM_REGISTRY = wrongValuesFromRegistry();

CASES.push(
  ...FROM_REGISTRY.found.map(({ operation, input, kind, inputs }) => ({
    operation,
    input,
    kind: `${kind} (from the registry)`,
    inputs,
    says: /\S/,
  })),
  ...Object.entries(WRONG_WHEN_RUN).map(([key, { kind, inputs }]) => {
    const [operation, input] = key.split(' ') as [OperationName, string];
    return { operation, input, kind, inputs: { ...sampleOf(operation), ...inputs }, says: /\S/ };
  }),
);

/** Operations whose bad inputs are shown with a pull_request event (they act on a PR). */
const PR_OPERATIONS = new Set([
  'submit-pull-request',
  'cancel-pull-request',
  'restart-tests-on-pull-request',
  'get-submitted-pull-request',
  'set-impacted-targets',
]);

let api: Server;
let apiUrl: string;
const apiRequests: string[] = [];
let files: Files;
const rows: BadInputRow[] = [];

beforeAll(async () => {
  // Stands in for the service: a bad input must be refused before any request is sent.
  api = createServer((request, response) => {
    apiRequests.push(`${request.method} ${request.url}`);
    response.writeHead(400, { 'content-type': 'text/plain' }).end('no request was expected');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;

  const dir = mkdtempSync(join(tmpdir(), 'mqa-bad-input-'));
  files = {
    dir,
    latin1: join(dir, 'latin1.txt'),
    utf16: join(dir, 'utf16.txt'),
    directory: join(dir, 'targets'),
    loop: join(dir, 'loop.json'),
    toNull: join(dir, 'null.json'),
    toZero: join(dir, 'zero.json'),
    toDirectory: join(dir, 'directory.json'),
    fifo: join(dir, 'targets.fifo'),
    huge: join(dir, 'huge.txt'),
    targets: join(dir, 'targets.yml'),
  };
  writeFileSync(files.targets, 'rules:\n  - match: "services/{name}/**"\n    targets: ["svc:{name}"]\n');
  symlinkSync('/dev/null', files.toNull);
  symlinkSync('/dev/zero', files.toZero);
  symlinkSync(files.directory, files.toDirectory);
  execFileSync('mkfifo', [files.fifo]);
  writeFileSync(files.huge, '');
  truncateSync(files.huge, 100 * 1024 * 1024);
  writeFileSync(files.latin1, Buffer.from('//app:caf\xe9\n//lib:util\n', 'latin1'));
  writeFileSync(
    files.utf16,
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('//app:server\n', 'utf16le')]),
  );
  mkdirSync(files.directory);
  symlinkSync(files.loop, files.loop);
});

afterAll(async () => {
  rmSync(files.dir, { recursive: true, force: true });
  await new Promise((resolve) => api.close(resolve));
  writeRecord('bad-input', rows);
});

function inputsOf(badInput: BadInput): Record<string, string> {
  const inputs: Record<string, string> = {
    operation: badInput.operation,
    'api-token': TOKEN,
    'github-token': GITHUB_TOKEN,
    'api-url': apiUrl,
    // A bad input that slipped through would meet the 400 above at once, not wait out a long deadline.
    'timeout-seconds': '2',
  };
  for (const [name, value] of Object.entries(badInput.inputs)) {
    inputs[name] = typeof value === 'function' ? value(files) : value;
  }
  return inputs;
}

function eventOf(badInput: BadInput): EventName {
  return badInput.event ?? (PR_OPERATIONS.has(badInput.operation) ? PR_EVENT : NO_PR_EVENT);
}

/** Everything wrong with how the run ended, in words; empty when it ended as it should. */
function problemsOf(
  badInput: BadInput,
  inputs: Record<string, string>,
  run: ExitedRun,
  requestsSent: string[],
): string[] {
  const problems: string[] = [];
  if (run.exitCode !== EXIT_CODES.badInput) problems.push(`exit ${run.exitCode}, not ${EXIT_CODES.badInput}`);
  const lines = run.log.split('\n');
  const errors = lines.filter((line) => line.startsWith('::error'));
  if (!run.failed) problems.push('the step did not fail');
  if (errors.length !== 1) problems.push(`${errors.length} ::error:: lines instead of one`);
  const line = run.error;
  if (!line.includes(badInput.input)) problems.push(`the line does not name input ${badInput.input}`);
  if (!badInput.says.test(line)) problems.push(`the line does not say ${badInput.says}`);
  if (!/\b(set|use|give|pass|remove|check|write|save|make|narrow|leave|point|did you mean)\b/i.test(line)) {
    problems.push('the line does not say what to do');
  }
  if (line.length > 700) problems.push(`the line is ${line.length} characters long`);
  if (lines.some((l) => /^\s+at /.test(l))) problems.push('the log holds a stack trace');
  if (/\b[A-Z][A-Za-z]*Error: /.test(run.log)) problems.push('the log holds a JavaScript error name');
  if (/\[object Object\]|undefined|NaN/.test(line)) problems.push('the line holds a programming artefact');
  for (const secret of [inputs['api-token'], inputs['github-token']]) {
    if (secret?.trim())
      problems.push(...secretLeaks(run, secret).map((where) => `a secret is readable in ${where}`));
  }
  if (requestsSent.length) problems.push(`requests reached the API: ${requestsSent.join(', ')}`);
  return problems;
}

function shortGiven(badInput: BadInput, inputs: Record<string, string>): string {
  const value = inputs[badInput.input] ?? '';
  const shown = value === TOKEN ? '(the api-token)' : value.replaceAll(TOKEN, '(the api-token)');
  return shown.length > 40 ? `${shown.slice(0, 24)}... (${shown.length} characters)` : shown;
}

describe('a bad input ends the step with one clear line', () => {
  it('gives every own input of every operation in the registry a wrong value, or says why it takes any', () => {
    const written = new Set([...Object.keys(WRONG_WHEN_RUN), ...Object.keys(ANY_VALUE)]);
    // An input the registry's wrong values do not reach: write its wrong value or why it takes any.
    expect(FROM_REGISTRY.notFound.filter((key) => !written.has(key))).toEqual([]);
    // A row here for an input they now reach, or one no operation reads any more: remove it.
    expect([...written].filter((key) => !FROM_REGISTRY.notFound.includes(key))).toEqual([]);
  });

  it('covers at least 100 bad inputs across every area', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(100);
    const areas = new Set(CASES.map((c) => c.operation));
    for (const operation of [
      'submit-pull-request',
      'set-impacted-targets',
      'update-queue',
      'list-pull-requests',
      'get-merge-queue-metrics',
      'list-unhealthy-tests',
    ]) {
      expect(areas).toContain(operation);
    }
  });

  it.each(CASES.map((c) => [`${c.input}: ${c.kind} (${c.operation || 'no operation'})`, c] as const))(
    '%s',
    async (_title, badInput) => {
      const inputs = inputsOf(badInput);
      const eventName = eventOf(badInput);
      const event = EVENTS[eventName];
      const before = apiRequests.length;
      const run = await runAction({
        inputs,
        eventName,
        payload: event.payload,
        env: { GITHUB_REPOSITORY: event.repository },
      });
      const problems = problemsOf(badInput, inputs, run, apiRequests.slice(before));
      rows.push({
        operation: badInput.operation || '(empty)',
        input: badInput.input,
        kind: badInput.kind,
        given: shortGiven(badInput, inputs),
        line: run.error,
        passed: problems.length === 0,
      });
      expect({ line: run.error, problems }).toEqual({ line: run.error, problems: [] });
    },
  );
});
