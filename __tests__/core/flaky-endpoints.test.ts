// The other flaky-tests operations against the emulator (quarantined, failing, details, tickets), the
// failing-tests window, and the whole action end to end through run() for a nightly report.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { Emulator } from '../../emulator/server.js';
import type { FlakyTestsSettings } from '../../src/core/operations/flaky-tests/inputs.js';
import { runOperation, settingsFrom } from '../helpers/prepare.js';
import { runAction } from '../helpers/action-runner.js';
import { example } from '../helpers/webhook-examples.js';
import { ORG, REPO, TOKEN, failureOf, seed, startFlakyEmulator, tests } from '../helpers/flaky-harness.js';

let emulator: Emulator;

const TEST_ID = '2f0e4b7a-9c1d-4e2f-8a3b-5c6d7e8f9a0b';

beforeAll(async () => {
  // The fixture's failures are dated 5 January 2025; get-test-details counts those of the last 7 days,
  // so the emulator's day is the morning after.
  emulator = await startFlakyEmulator({ startTime: Date.UTC(2025, 0, 6, 9) });
  await seed(emulator, {
    repositories: [
      {
        repo: REPO,
        org_url_slug: ORG,
        auto_quarantine: true,
        ticket_url_template: 'https://tracker.example.com/browse/{id}',
        tests: [
          {
            id: TEST_ID,
            name: 'CheckoutService > applies the discount | twice',
            status: 'flaky',
            reason: 'Failed 3 of 40 runs',
            file_path: 'src/checkout/discount.test.ts',
            codeowners: ['@octo-org/payments'],
            pull_requests_impacted_last_7d: 12,
            quarantined_at: '2025-01-04T10:00:00Z',
            failures: [
              { at: '2025-01-05T08:00:00Z', summary: 'TimeoutError: 5000ms exceeded' },
              { at: '2025-01-05T09:00:00Z', summary: 'TimeoutError: 5000ms exceeded' },
            ],
            failure_rate_last_7d: 0.075,
            failure_rate_last_24h: 0.1,
          },
          // Auto-quarantine takes flaky tests only: these broken ones are quarantined by hand.
          ...tests(6, 'broken').map((t) => ({
            ...t,
            quarantine_override: 'ALWAYS_QUARANTINE' as const,
            quarantined_at: '2025-01-01T00:00:00Z',
          })),
          {
            name: 'healthy but failed once',
            status: 'healthy',
            failures: [{ at: '2025-01-05T12:00:00Z', summary: 'ECONNRESET' }],
          },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await emulator.close();
});

describe('list-quarantined-tests', () => {
  it('follows every page and lists the most recently quarantined first', async () => {
    const result = await runOperation(emulator, 'list-quarantined-tests', { 'page-size': '2' });
    expect(result.outputs['quarantined-count']).toBe(7);
    const report = JSON.parse(readFileSync(String(result.outputs['report-file']), 'utf8'));
    expect(report.quarantined_tests).toHaveLength(7);
    expect(report.quarantined_tests[0]).toMatchObject({
      test_case_id: TEST_ID,
      quarantine_setting: 'AUTO_QUARANTINE',
    });
    const summary = result.summary!.toString();
    expect(summary).toContain('| CheckoutService &gt; applies the discount &#124; twice | ');
    expect(summary).toContain('| automatic |');
  });
});

describe('list-failing-tests', () => {
  it('lists the tests that failed in the window, highest failure rate first', async () => {
    const result = await runOperation(emulator, 'list-failing-tests', {
      'start-time': '2025-01-05T00:00:00Z',
      'end-time': '2025-01-06T00:00:00Z',
    });
    expect(result.outputs['failing-count']).toBe(2);
    const summary = result.summary!.toString();
    expect(summary).toContain('between 2025-01-05 00:00 UTC and 2025-01-06 00:00 UTC');
    const rows = summary.split('\n').filter((line) => /^\| (\[|healthy)/.test(line));
    expect(rows[0]).toContain('| 10.0% | 7.5% | TimeoutError: 5000ms exceeded (2×) | 12 |');
    expect(rows[1]).toContain('healthy but failed once');
  });

  it('checks the 7-day window before any request', async () => {
    // A fault waiting on the endpoint would be used up by any request that reached it.
    emulator.faults.plan('/flaky-tests/list-failing-tests', [{ kind: 'status', status: 500 }]);
    try {
      const message = await failureOf(
        runOperation(emulator, 'list-failing-tests', {
          'start-time': '2025-01-01T00:00:00Z',
          'end-time': '2025-01-08T00:00:01Z',
        }),
      );
      expect(message).toBe(
        'Input "start-time": the window from 2025-01-01T00:00:00.000Z to 2025-01-08T00:00:01.000Z is longer than 7 days, the most the service allows. Narrow it to 7 days or less (end-time defaults to now), or run one step per week.',
      );
      expect(emulator.faults.pending()['/flaky-tests/list-failing-tests']).toHaveLength(1);
    } finally {
      emulator.faults.clear();
    }
  });

  it('defaults to the 7 days up to now', () => {
    const before = Date.now();
    const flakyTests = settingsFrom<FlakyTestsSettings>({
      operation: 'list-failing-tests',
      'api-token': TOKEN,
      'org-url-slug': ORG,
    });
    const end = Date.parse(flakyTests.endTime!);
    expect(end).toBeGreaterThanOrEqual(before - 1000);
    expect(end - Date.parse(flakyTests.startTime!)).toBe(7 * 24 * 3600 * 1000);
  });
});

describe('get-test-details and link-ticket-to-test-case', () => {
  it('links a ticket, which get-test-details then shows', async () => {
    const linked = await runOperation(emulator, 'link-ticket-to-test-case', {
      'test-case-id': TEST_ID,
      'external-ticket-id': 'KAN-123',
    });
    expect(linked.summary!.toString()).toContain('| Ticket | KAN-123 |');

    const details = await runOperation(emulator, 'get-test-details', { 'test-id': TEST_ID });
    expect(details.outputs).toMatchObject({
      'test-name': 'CheckoutService > applies the discount | twice',
      'test-health': 'FLAKY',
      quarantined: true,
      'ticket-url': 'https://tracker.example.com/browse/KAN-123',
    });
    expect(JSON.parse(String(details.outputs.response)).test.id).toBe(TEST_ID);
    const summary = details.summary!.toString();
    expect(summary).toContain('[KAN-123](https://tracker.example.com/browse/KAN-123)');
    expect(summary).toContain('| TimeoutError: 5000ms exceeded | 2 |');
  });

  it('names the input to check when the test is unknown', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await failureOf(runOperation(emulator, 'get-test-details', { 'test-id': unknown }))).toMatch(
      /^the API answered 404\. Check test-id \(the id in the test's web address\) and that org-url-slug, repo and repo-host name the repository it belongs to\. \(the service said: "Not Found.*"\)$/,
    );
    expect(
      await failureOf(
        runOperation(emulator, 'link-ticket-to-test-case', {
          'test-case-id': unknown,
          'external-ticket-id': 'KAN-1',
        }),
      ),
    ).toMatch(/^the API answered 404\. Check test-case-id .*\(the service said: "Not Found.*"\)$/);
  });
});

describe('the nightly report, end to end through run()', () => {
  it('writes outputs and the summary, then fails the step on the threshold', async () => {
    const payload = example('workflow_dispatch');
    const result = await runAction({
      eventName: 'workflow_dispatch',
      payload,
      env: { GITHUB_REPOSITORY: `${REPO.owner}/${REPO.name}` },
      inputs: {
        operation: 'list-unhealthy-tests',
        'api-url': emulator.url,
        'api-token': TOKEN,
        'org-url-slug': ORG,
        'fail-on': 'broken',
        'max-unhealthy': '5',
      },
    });
    expect(result.outputs).toMatchObject({
      'unhealthy-count': '7',
      'flaky-count': '1',
      'broken-count': '6',
      'quarantined-count': '7',
      repo: `${REPO.owner}/${REPO.name}`,
    });
    expect(result.outputs['report-file']).toMatch(/unhealthy-tests\.json$/);
    expect(result.summary).toContain('## ❌ 6 broken · 1 flaky tests in octo-org/octo-repo');
    expect(result.summary).toContain('`fail-on: broken` failed this step: 6 broken tests, allowed 5.');
    expect(result.failed).toBe(true);
    expect(result.error).toBe(
      'fail-on broken: 6 broken tests, more than max-unhealthy (5). The job summary lists them; report-file has every one.',
    );
    // The runner is told to mask the token; no other line carries it.
    const logLines = result.log.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });

  it('passes under the threshold', async () => {
    const result = await runAction({
      eventName: 'workflow_dispatch',
      payload: example('workflow_dispatch'),
      env: { GITHUB_REPOSITORY: `${REPO.owner}/${REPO.name}` },
      inputs: {
        operation: 'list-unhealthy-tests',
        'api-url': emulator.url,
        'api-token': TOKEN,
        'org-url-slug': ORG,
        'fail-on': 'any',
        'max-unhealthy': '10',
      },
    });
    expect(result.failed).toBe(false);
    expect(result.outputs['unhealthy-count']).toBe('7');
  });
});
