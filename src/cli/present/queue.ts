// A queue in a terminal: what the step did and the queue's state in one line, the settings it changed,
// then the PRs in line as a table (place, number, title, state, priority, time in that state).
import { plural, type PullRequestListDetails, type QueueDetails, timeSince } from '../../core/index.js';
import { enumValue } from '../../wire/index.js';
import type { Page } from './page.js';
import { prStateTone, queueStateTone, type Tone } from './style.js';

type Entry = NonNullable<NonNullable<QueueDetails['queue']>['enqueuedPullRequests']>[number];

export function presentQueue(page: Page, details: QueueDetails): void {
  const { queue, branch, repo } = details;
  const where = `${branch} of ${repo}`;
  const by = details.by ? ` by ${details.by}` : '';
  if (!queue) {
    if (details.missing) page.outcome(`No merge queue for ${where}`, 'bad');
    else
      page.outcome(
        `${details.action}${by}: ${where}`,
        details.action.endsWith('deleted') ? 'good' : 'waiting',
      );
    page.facts([['Reason', details.reason]]);
    return;
  }
  const state = enumValue(queue.state).toUpperCase() || 'UNKNOWN';
  const prs = queue.enqueuedPullRequests ?? [];
  // What a write did names the state already ("paused"); the State fact below says it in capitals.
  page.outcome(
    details.action === 'Merge queue'
      ? `Queue ${where} is ${state}: ${countsByState(prs)}`
      : `${details.action}${by}: ${where}; ${countsByState(prs)}`,
    queueStateTone(state),
  );
  page.facts([
    ['Reason', details.reason],
    ['State', { text: state, tone: queueStateTone(state) }],
    ['Mode', enumValue(queue.mode)],
    ['Concurrency', typeof queue.concurrency === 'number' ? queue.concurrency : undefined],
  ]);
  if (details.changes.length) {
    page.table(
      'Changed',
      [{ title: 'Setting' }, { title: 'Before' }, { title: 'After' }],
      details.changes.map((change) => [change.name, change.before, { text: change.after, tone: 'strong' }]),
    );
  }
  if (!prs.length) return;
  page.table(
    `In line (${prs.length})`,
    [
      { title: '#', align: 'right' },
      { title: 'PR', align: 'right' },
      { title: 'Title', max: 48 },
      { title: 'State' },
      { title: 'Priority' },
      { title: 'In state', align: 'right' },
    ],
    prs.map((pr, index) => [
      index + 1,
      `#${pr.prNumber}`,
      pr.prTitle ?? '',
      stateCell(pr.state),
      pr.priorityName ?? '',
      timeSince(pr.stateChangedAt, details.nowMs),
    ]),
  );
}

export function presentPullRequestList(page: Page, details: PullRequestListDetails): void {
  const { pullRequests: prs, total } = details;
  page.outcome(
    `${plural(total, 'pull request')}${details.complete ? '' : ' (more remain)'} in the queue for ${details.branch}${total ? `: ${countsByState(prs)}` : ''}`,
    details.complete ? 'plain' : 'waiting',
  );
  if (!prs.length) return;
  page.table(
    'Pull requests',
    [
      { title: 'PR', align: 'right' },
      { title: 'Title', max: 48 },
      { title: 'State' },
      { title: 'In state', align: 'right' },
      { title: 'Author', max: 24 },
    ],
    prs.map((pr) => [
      `#${pr.prNumber}`,
      pr.prTitle ?? '',
      stateCell(pr.state),
      timeSince(pr.stateChangedAt, details.nowMs),
      pr.prAuthor ?? '',
    ]),
    total,
  );
}

function stateCell(state: unknown): { text: string; tone: Tone } {
  const text = enumValue(state).toUpperCase();
  return { text, tone: prStateTone(text) };
}

/** "3 PRs testing, 2 pending", in the order a line moves; "no PRs in line" for an empty one. */
function countsByState(prs: readonly Pick<Entry, 'state'>[]): string {
  if (!prs.length) return 'no PRs in line';
  const counts = new Map<string, number>();
  for (const pr of prs) {
    const state = enumValue(pr.state) || 'unknown';
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  const order = ['testing', 'tests_passed', 'pending', 'pending_failure', 'not_ready'];
  const sorted = [...counts].sort(([a], [b]) => rank(order, a) - rank(order, b));
  return sorted
    .map(([state, count], i) => `${i === 0 ? plural(count, 'PR') : count} ${state.replace(/_/g, ' ')}`)
    .join(', ');
}

function rank(order: string[], state: string): number {
  const index = order.indexOf(state);
  return index < 0 ? order.length : index;
}
