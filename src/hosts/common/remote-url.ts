// A git remote URL as CIs give it (BUILDKITE_REPO, CIRCLE_REPOSITORY_URL, GIT_URL, CI_REPOSITORY_URL,
// TRUNK_REPO_URL) read as the repository's host, owner and name. Credentials in the URL are dropped.
import type { RepoRef } from '../../core/context.js';

// git@github.com:owner/name.git (scp-like: no scheme, a colon before the path)
const SCP_LIKE = /^(?:[^@/\s]+@)?([a-z0-9.-]+):(?!\/)(.+)$/i;

/** The repository a remote URL names (ssh, scp-like or https; GitHub Enterprise hosts too), if any. */
export function parseRemoteUrl(remote: string | undefined): RepoRef | undefined {
  const given = remote?.trim();
  if (!given) return undefined;
  let host: string;
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
    if (!URL.canParse(given)) return undefined;
    const url = new URL(given);
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(url.protocol)) return undefined;
    // The ssh port is not part of the repository's address; a web server's port is.
    host = url.protocol.startsWith('http') ? url.host : url.hostname;
    path = decodeURIComponent(url.pathname);
  } else {
    const scp = SCP_LIKE.exec(given);
    if (!scp) return undefined;
    host = scp[1]!;
    path = scp[2]!;
  }
  const segments = path
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  if (!host || segments.length < 2 || segments.some((s) => /\s/.test(s))) return undefined;
  const name = segments.pop()!;
  return { host: host.toLowerCase(), owner: segments.join('/'), name };
}
