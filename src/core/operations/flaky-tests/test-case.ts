// One test case: its details (get-test-details), and linking it to a ticket in the team's tracker
// (link-ticket-to-test-case).
import { Markdown } from '../../report/markdown.js';
import { agoAt } from '../../report/duration.js';
import { rawResponse, repoSlug } from '../common.js';
import type { Operation } from '../types.js';
import { nameOf, words } from '../../words.js';
import { adviseOnNotFound, flakyRepo, flakyRequestBase, requireInput } from './requests.js';
import { cell, owners, percent, rate, readTest, testLink, text, ticketLink } from './tests.js';
import type { FlakyTestsSettings } from './inputs.js';

export const getTestDetails: Operation<FlakyTestsSettings> = async (op) => {
  const testId = requireInput(op, op.settings.testId, 'test-id', "the test's id");
  const response = await op.client
    .call('getTestDetails', { ...flakyRequestBase(op), test_id: testId })
    .catch(
      adviseOnNotFound(
        words`Check ${nameOf('test-id')} (the id in the test's web address) and that ${nameOf('org-url-slug')}, ${nameOf('repo')} and ${nameOf('repo-host')} name the repository it belongs to.`,
      ),
    );
  const raw = response.answer.test;
  const test = readTest(raw);
  const failures = raw.most_common_failures ?? [];
  const summary = new Markdown()
    .heading(testHeadline(test))
    .facts([
      ['Test', { markdown: testLink(test) }],
      ['Repository', repoSlug(op.context.repo)],
      ['Variant', test.variant || '(none)'],
      ['Status', test.status],
      ['Reason', test.reason],
      ['File', text(raw.file_path)],
      ['Codeowners', { markdown: owners(test.codeowners) }],
      ['PRs impacted (7d)', test.pullRequestsImpacted],
      ...failureRates(raw),
      ['Quarantined', test.quarantined ? 'yes' : 'no'],
      ['Ticket', { markdown: ticketLink(test.ticketUrl) || 'none' }],
    ]);
  if (failures.length) {
    summary.table(
      ['Most common failures', 'Occurrences', 'Last seen'],
      failures.map((failure) => [
        cell(failure.summary),
        cell(failure.occurrence_count),
        cell(agoAt(failure.last_occurrence, response.serverTimeMs ?? op.clock?.now() ?? Date.now())),
      ]),
    );
  }
  return {
    outputs: {
      response: rawResponse(response),
      'test-name': test.name,
      'test-health': test.status.toUpperCase(),
      quarantined: test.quarantined,
      'ticket-url': test.ticketUrl ?? '',
      'test-url': test.htmlUrl ?? '',
    },
    summary,
  };
};

export const linkTicketToTestCase: Operation<FlakyTestsSettings> = async (op) => {
  const testCaseId = requireInput(op, op.settings.testCaseId, 'test-case-id', 'the test case id');
  const ticket = requireInput(op, op.settings.externalTicketId, 'external-ticket-id', 'the ticket');
  const response = await op.client
    .call('linkTicketToTestCase', {
      repo: flakyRepo(op),
      test_case_id: testCaseId,
      external_ticket_id: ticket,
    })
    .catch(
      adviseOnNotFound(
        words`Check ${nameOf('test-case-id')} (the test_case_id of list-quarantined-tests, or the id of a test) and that ${nameOf('repo')} and ${nameOf('repo-host')} name its repository.`,
      ),
    );
  const summary = new Markdown().heading(`🔗 Ticket ${ticket} linked to test case ${testCaseId}`).facts([
    ['Ticket', ticket],
    ['Test case', testCaseId],
    ['Repository', repoSlug(op.context.repo)],
  ]);
  return { outputs: { response: rawResponse(response) }, summary };
};

const HEALTH_ICONS: Record<string, string> = { healthy: '✅', flaky: '🎲', broken: '❌' };

/** "🎲 FLAKY, quarantined: CheckoutService > applies the discount". */
function testHeadline(test: ReturnType<typeof readTest>): string {
  const status = test.status.toLowerCase();
  const quarantine = test.quarantined ? ', quarantined' : '';
  return `${HEALTH_ICONS[status] ?? '❔'} ${test.status.toUpperCase() || 'UNKNOWN'}${quarantine}: ${test.name}`;
}

/** The failure rates the service gave, as one fact; none when it gave neither. */
function failureRates(raw: Record<string, unknown>): [string, string][] {
  const known = (value: unknown) => (typeof value === 'number' ? percent(rate(value)) : '?');
  const [day, week] = [raw.failure_rate_last_24h, raw.failure_rate_last_7d];
  if (day === undefined && week === undefined) return [];
  return [['Failure rate 24h / 7d', `${known(day)} / ${known(week)}`]];
}
