// One PR comment per marker through GitHub's REST API: found among the PR's comments by its hidden
// marker and its author, the token's own login, and updated in place, or created when there is none. A
// comment that starts with our marker but was written by anyone else is never touched.
import { ApiError } from '../../core/api/errors.js';
import type { PullRequestComments } from '../../core/host.js';
import { field, text } from './github-lookup.js';

type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

const REQUEST_TIMEOUT_MS = 30_000;
/** Pages of 100 comments searched for the marker; a PR with more is unusual, and a second comment is harmless. */
const MAX_PAGES = 10;

export function gitHubPullRequestComments(apiUrl: string): PullRequestComments {
  return {
    async upsert({ repo, prNumber, marker, body, token }) {
      const { getOctokit } = await import('@actions/github');
      const octokit: Octokit = getOctokit(token, { baseUrl: apiUrl });
      const where = { owner: repo.owner, repo: repo.name, issue_number: prNumber };
      const request = () => ({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      try {
        const self = await ownLogin(octokit, request);
        for (let page = 1; page <= MAX_PAGES; page++) {
          const listed = await octokit.rest.issues.listComments({
            ...where,
            per_page: 100,
            page,
            request: request(),
          });
          const comments: unknown[] = Array.isArray(listed.data) ? listed.data : [];
          // Ours starts with the marker and is written by this token; a comment that merely quotes the
          // marker, or copies it, is someone else's.
          const mine = self && comments.find((comment) => isOurs(comment, marker, self));
          const id = field(mine, 'id');
          if (typeof id === 'number') {
            const updated = await octokit.rest.issues.updateComment({
              owner: repo.owner,
              repo: repo.name,
              comment_id: id,
              body,
              request: request(),
            });
            return { url: text(field(updated.data, 'html_url')), created: false };
          }
          if (comments.length < 100) break;
        }
        const created = await octokit.rest.issues.createComment({ ...where, body, request: request() });
        return { url: text(field(created.data, 'html_url')), created: true, authorUnknown: !self };
      } catch (error) {
        const status = field(error, 'status');
        const why =
          typeof status === 'number'
            ? `the GitHub API answered ${status}${status === 403 || status === 404 ? ' (github-token needs write access to pull requests; a run for a fork PR has a read-only token)' : ''}`
            : `the GitHub API could not be reached (${error instanceof Error ? error.name : 'error'})`;
        throw typeof status === 'number'
          ? new ApiError('GitHub comments', why, { kind: 'http', status })
          : new ApiError('GitHub comments', why, { kind: 'network' });
      }
    },
  };
}

/**
 * The login the token writes comments as. `GET /user` names a user's token; an app installation's token
 * (the Actions GITHUB_TOKEN) is refused there, and GraphQL's `viewer` names it as REST names its comments'
 * author (`github-actions[bot]`). Undefined when neither answers: then no comment is taken for ours.
 */
async function ownLogin(
  octokit: Octokit,
  request: () => { signal: AbortSignal },
): Promise<string | undefined> {
  try {
    const user = await octokit.rest.users.getAuthenticated({ request: request() });
    const login = text(field(user.data, 'login'));
    if (login) return login;
  } catch {
    // An installation token: asked below.
  }
  try {
    const answer: unknown = await octokit.graphql('query { viewer { login } }', { request: request() });
    return text(field(field(answer, 'viewer'), 'login'));
  } catch {
    return undefined;
  }
}

function isOurs(comment: unknown, marker: string, self: string): boolean {
  const author = text(field(field(comment, 'user'), 'login'));
  return (
    author !== undefined &&
    author.toLowerCase() === self.toLowerCase() &&
    text(field(comment, 'body'))?.startsWith(marker) === true
  );
}
