import { describe, expect, it } from '@jest/globals';
import { InputError } from '../../src/core/errors.js';
import type { PullRequestSettings } from '../../src/core/operations/pull-request/inputs.js';
import type { FlakyTestsSettings } from '../../src/core/operations/flaky-tests/inputs.js';
import type { ListPullRequestsSettings, QueueAdminSettings } from '../../src/core/operations/queue/inputs.js';
import { prepareFrom } from '../helpers/prepare.js';

const TOKEN = 'tok_settings_secret_123';

/** The common settings, the operation's own and its name, as one object. */
function settingsFrom<S = unknown>(inputs: Record<string, string>, warnings: string[] = []) {
  const { operation, common, settings } = prepareFrom(inputs, warnings);
  return { operation, ...common, own: settings as S };
}

function errorFrom(inputs: Record<string, string>): InputError {
  try {
    settingsFrom(inputs);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('prepareOperation', () => {
  it('applies the documented defaults', () => {
    const settings = settingsFrom({ operation: 'get-queue', 'api-token': TOKEN });
    expect(settings.apiUrl).toBe('https://api.trunk.io/v1');
    expect(settings.timeoutMs).toBe(60_000);
    expect(settings.summary).toBe(true);
    const get = { operation: 'get-submitted-pull-request', 'api-token': TOKEN };
    expect(settingsFrom<PullRequestSettings>(get).own.waitTimeoutMs).toBe(60 * 60_000);
    const unhealthy = { operation: 'list-unhealthy-tests', 'api-token': TOKEN, 'org-url-slug': 'acme' };
    expect(settingsFrom<FlakyTestsSettings>(unhealthy).own.statuses).toEqual(['FLAKY', 'BROKEN']);
    const create = { operation: 'create-queue', 'api-token': TOKEN };
    expect(settingsFrom<QueueAdminSettings>(create).own.ifExists).toBe('fail');
  });

  it('validates only the inputs the operation uses, and warns about the others by name', () => {
    const warnings: string[] = [];
    const settings = settingsFrom(
      { operation: 'cancel-pull-request', 'api-token': TOKEN, 'wait-for': 'merged', 'fail-on': 'bogus' },
      warnings,
    );
    expect(settings.operation).toBe('cancel-pull-request');
    expect(warnings).toEqual([
      'Input "wait-for" is not used by operation cancel-pull-request; it was ignored.',
      'Input "fail-on" is not used by operation cancel-pull-request; it was ignored.',
    ]);
  });

  it('refuses a required input that is missing, naming the operation', () => {
    expect(
      errorFrom({ operation: 'get-test-details', 'api-token': TOKEN, 'org-url-slug': 'a' }).message,
    ).toBe("get-test-details needs the test's id: set the test-id input.");
  });

  it('accepts the endpoint camelCase name for an operation', () => {
    expect(settingsFrom({ operation: 'submitPullRequest', 'api-token': TOKEN }).operation).toBe(
      'submit-pull-request',
    );
    expect(
      settingsFrom({ operation: 'listUnhealthyTests', 'api-token': TOKEN, 'org-url-slug': 'acme' }).operation,
    ).toBe('list-unhealthy-tests');
  });

  it('suggests the closest operation names for a typo', () => {
    const error = errorFrom({ operation: 'submit-pull-reqest', 'api-token': TOKEN });
    expect(error.message).toMatch(
      /^Input "operation": "submit-pull-reqest" is not an operation\. Did you mean submit-pull-request/,
    );
  });

  it('reads a nested-group owner from repo', () => {
    const settings = settingsFrom({ operation: 'get-queue', 'api-token': TOKEN, repo: 'group/sub/project' });
    expect(settings.context.repo).toEqual({ owner: 'group/sub', name: 'project' });
  });

  it.each(['project', 'owner/', '/name', 'a//b', 'own er/name'])('refuses repo %p', (repo) => {
    expect(errorFrom({ operation: 'get-queue', 'api-token': TOKEN, repo }).message).toMatch(
      /^Input "repo": .* is not owner\/name\./,
    );
  });

  it('allows plain http only to loopback', () => {
    expect(
      settingsFrom({ operation: 'get-queue', 'api-token': TOKEN, 'api-url': 'http://127.0.0.1:8080/v1/' })
        .apiUrl,
    ).toBe('http://127.0.0.1:8080/v1');
    expect(
      settingsFrom({ operation: 'get-queue', 'api-token': TOKEN, 'api-url': 'http://[::1]:9/v1' }).apiUrl,
    ).toBe('http://[::1]:9/v1');
    expect(
      errorFrom({ operation: 'get-queue', 'api-token': TOKEN, 'api-url': 'http://api.example.com/v1' })
        .message,
    ).toMatch(/plain http .* Use https/);
  });

  it('reads priorities by name in any case, or by number', () => {
    expect(
      settingsFrom<PullRequestSettings>({
        operation: 'submit-pull-request',
        'api-token': TOKEN,
        priority: 'URGENT',
      }).own.priority,
    ).toBe('urgent');
    expect(
      settingsFrom<PullRequestSettings>({
        operation: 'submit-pull-request',
        'api-token': TOKEN,
        priority: '42',
      }).own.priority,
    ).toBe(42);
    expect(
      errorFrom({ operation: 'submit-pull-request', 'api-token': TOKEN, priority: '256' }).message,
    ).toMatch(/^Input "priority": "256" is not a priority\. Use urgent, high, medium or low/);
  });

  it('reads `state` as a queue state or a PR state depending on the operation', () => {
    expect(
      settingsFrom<QueueAdminSettings>({ operation: 'update-queue', 'api-token': TOKEN, state: 'Paused' }).own
        .update.state,
    ).toBe('paused');
    expect(
      settingsFrom<ListPullRequestsSettings>({
        operation: 'list-pull-requests',
        'api-token': TOKEN,
        state: 'TESTS_PASSED',
      }).own.state,
    ).toBe('tests_passed');
    expect(
      errorFrom({ operation: 'update-queue', 'api-token': TOKEN, state: 'switching_modes' }).message,
    ).toMatch(/set by the service/);
  });

  it('sends only the queue settings given, plus the settings JSON as given', () => {
    const settings = settingsFrom<QueueAdminSettings>({
      operation: 'update-queue',
      'api-token': TOKEN,
      concurrency: '3',
      batch: 'true',
      'required-statuses': 'build, test\nlint',
      settings: '{"futureSetting": {"x": 1}}',
    });
    expect(settings.own.update).toEqual({
      concurrency: 3,
      batch: true,
      requiredStatuses: ['build', 'test', 'lint'],
      futureSetting: { x: 1 },
    });
  });

  it('needs an api-token, except for set-impacted-targets', () => {
    expect(errorFrom({ operation: 'get-queue' }).message).toMatch(
      /^The API token is empty: set the api-token input from a secret/,
    );
    expect(
      settingsFrom({ operation: 'set-impacted-targets', 'impacts-all': 'true' }).apiToken,
    ).toBeUndefined();
  });

  it('checks the failing-tests window before any request', () => {
    const error = errorFrom({
      operation: 'list-failing-tests',
      'api-token': TOKEN,
      'org-url-slug': 'acme',
      'start-time': '2026-01-01T00:00:00Z',
      'end-time': '2026-01-09T00:00:00Z',
    });
    expect(error.message).toMatch(/longer than 7 days/);
  });

  it('never puts the token in an error', () => {
    const error = errorFrom({ operation: TOKEN, 'api-token': TOKEN });
    expect(error.message).toContain('is not an operation');
    // The operation value is echoed (it is not a secret input), but the api-token value is never added.
    expect(
      errorFrom({ operation: 'get-queue', 'api-token': TOKEN, 'timeout-seconds': 'x' }).message,
    ).not.toContain(TOKEN);
  });
});
