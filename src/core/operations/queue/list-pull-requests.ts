// list-pull-requests: every PR of a queue that matches the filters, following nextCursor page by page up
// to max-pages. All rows go to a JSON file (report-file); the summary shows as many as fit.
import type { Answered } from '../../api/client.js';
import type { PullRequestEntry } from '../../api/typed-answers.js';
import { ApiError } from '../../api/errors.js';
import { nameOf, words } from '../../words.js';
import type { RequestOf } from '../../../wire/index.js';
import { timeSince } from '../../report/duration.js';
import { filledColumns } from '../../report/filled-columns.js';
import { Markdown, codeSpan, escapeCell, escapeMarkdown, link } from '../../report/markdown.js';
import { filled } from '../../report/filled.js';
import { plural } from '../../report/words.js';
import {
  LISTED_IN_DETAILS,
  pullRequestUrl,
  queueRef,
  rawResponse,
  repoLink,
  repoSlug,
  stateOutput,
} from '../common.js';
import { writeStepFile } from '../step-file.js';
import type { Operation, OperationContext } from '../types.js';
import type { ListPullRequestsSettings } from './inputs.js';

type Row = PullRequestEntry;

export const listPullRequests: Operation<ListPullRequestsSettings> = async (op) => {
  const ref = queueRef(op.context);
  const { state, since, until, take } = op.settings;
  const { rows, pages, last, cutShort } = await readAllPages(op, { ...ref, state, since, until, take });
  const complete = cutShort === undefined;

  const reportFile = await writeStepFile(
    op,
    'pull-requests.json',
    JSON.stringify(
      {
        repo: ref.repo,
        targetBranch: ref.targetBranch,
        filters: { state, since, until },
        complete,
        pages,
        pullRequests: rows,
      },
      null,
      2,
    ),
  );
  (op.log.outcome ?? op.log.info)(
    `${plural(rows.length, 'pull request')} in ${plural(pages, 'page')}; every one is in the report-file output.`,
  );

  const summary = new Markdown()
    .headingMarkdown(
      `${complete ? '📋' : '⚠️'} ${plural(rows.length, 'pull request')}${complete ? '' : ' (more remain)'}${state ? ` ${escapeMarkdown(stateOutput(state))}` : ''} in the merge queue for ${codeSpan(ref.targetBranch)}`,
    )
    .paragraph(
      [countsByState(rows), `concluded ${window(since, until)}`, cutShort]
        .filter(Boolean)
        .map((part) => escapeMarkdown(part))
        .join('; ') + `. Repository ${repoLink(ref.repo)}.`,
    );
  const now = last.serverTimeMs ?? op.clock?.now() ?? Date.now();
  if (rows.length) {
    const table = filledColumns(
      ['PR', 'Title', 'State', 'In this state', 'Priority', 'Author'],
      rows.map((pr) => [
        link(
          `#${pr.prNumber}`,
          typeof pr.prNumber === 'number' ? pullRequestUrl(ref.repo, pr.prNumber) : undefined,
        ),
        escapeCell(filled(pr.prTitle)),
        escapeMarkdown(stateOutput(pr.state)),
        escapeMarkdown(timeSince(pr.stateChangedAt, now)),
        escapeMarkdown(filled(pr.priorityName ?? pr.priorityValue)),
        escapeMarkdown(filled(pr.prAuthor)),
      ]),
    );
    summary.table(table.headers, table.rows, 'not shown; every row is in report-file');
  }
  return {
    outputs: {
      response: rawResponse(last),
      count: rows.length,
      'report-file': reportFile,
      complete,
      pages,
    },
    summary,
    failure: cutShort && `${cutShort}. The ${rows.length} PR(s) read are in ${reportFile}.`,
    details: {
      kind: 'pull-request-list',
      branch: ref.targetBranch,
      pullRequests: rows.slice(0, LISTED_IN_DETAILS),
      total: rows.length,
      complete,
      nowMs: now,
    },
  };
};

/** Every page from the first, until there is no next cursor, the cursor repeats or max-pages is reached. */
async function readAllPages(
  op: OperationContext<ListPullRequestsSettings>,
  request: Omit<RequestOf<'listPullRequests'>, 'cursor'>,
): Promise<{ rows: Row[]; pages: number; last: Answered<'listPullRequests'>; cutShort?: string }> {
  const { maxPages } = op.settings;
  const rows: Row[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const last = await listPage(op, { ...request, cursor });
    const page = last.answer;
    rows.push(...page.pullRequests);
    if (!page.nextCursor) return { rows, pages, last };
    if (page.nextCursor === cursor) {
      const cutShort = `listPullRequests returned the same cursor twice, so paging stopped after page ${pages}`;
      return { rows, pages, last, cutShort };
    }
    cursor = page.nextCursor;
    if (pages >= maxPages) {
      const cutShort = `Stopped after max-pages (${maxPages}) pages of up to ${request.take} with more PRs to come; raise max-pages or narrow since/until`;
      return { rows, pages, last, cutShort };
    }
  }
}

async function listPage(
  op: OperationContext<ListPullRequestsSettings>,
  request: RequestOf<'listPullRequests'>,
): Promise<Answered<'listPullRequests'>> {
  try {
    return await op.client.call('listPullRequests', request);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    const { repo, targetBranch } = request;
    throw error.reworded(
      words`No merge queue exists for branch ${targetBranch} of ${repo.host}/${repoSlug(repo)} (listPullRequests answered 404). Check ${nameOf('target-branch')}, ${nameOf('repo')} and ${nameOf('repo-host')}.`,
    );
  }
}

/** "3 merged, 1 failed, 2 testing": the states in the order they are most often looked for. */
function countsByState(rows: Row[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const state = stateOutput(row.state) || 'UNKNOWN';
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([state, count]) => `${count} ${state}`)
    .join(', ');
}

function window(since: string | undefined, until: string | undefined): string {
  if (since && until) return `from ${since} until ${until}`;
  if (since) return `since ${since}`;
  if (until) return `until ${until}`;
  return 'any time';
}
