// A repository as v2 shows it, and the provider URL it is resolved from.
import type { Repo } from '../../../src/wire/index.js';
import type { V2 } from '../../../src/wire/v2/index.js';
import { iso } from './time.js';

export function repositoryUrl(repo: Repo): string {
  return `https://${repo.host}/${repo.owner}/${repo.name}`;
}

export function providerOf(host: string): V2<'Provider'> {
  const lower = host.toLowerCase();
  if (lower === 'github.com' || lower.includes('github')) return 'github';
  if (lower.includes('gitlab')) return 'gitlab';
  if (lower.includes('bitbucket')) return 'bitbucket';
  return 'unknown';
}

export function repositoryView(id: string, repo: Repo, firstSeenAt: number): V2<'Repository'> {
  return {
    id,
    provider: providerOf(repo.host),
    path: `${repo.owner}/${repo.name}`,
    host: repo.host,
    url: repositoryUrl(repo),
    // The emulator is never told these; null is the document's "not known".
    defaultBranch: null,
    isPrivate: null,
    createdAt: iso(firstSeenAt),
    updatedAt: iso(firstSeenAt),
  };
}

/**
 * The repository a provider URL names (`https://github.com/acme/app`, `.git` and a trailing slash
 * allowed; the owner may be a GitLab group path), or undefined when it names none.
 */
export function repoOfProviderUrl(text: string): Repo | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const parts = url.pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  if (parts.length < 2) return undefined;
  return { host: url.host, owner: parts.slice(0, -1).join('/'), name: parts[parts.length - 1]! };
}
