// The PR's changed files from the GitHub REST API, for a job without a checkout: GET
// /repos/{owner}/{repo}/pulls/{number}/files, 100 a page, every page. The API lists at most 3,000 files;
// a PR at that cap may change more, so the caller impacts everything rather than guess. Every answer is
// bounded in time and size and checked for its shape before a file name is taken from it.
import type { RepoRef } from '../../../context.js';
import { VERSION } from '../../../version.js';
import type { ChangedFile } from './impact.js';

export const GITHUB_FILES_CAP = 3000;
const PAGE_SIZE = 100;
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

export interface GithubChangesOptions {
  apiUrl: string;
  token?: string;
  repo: RepoRef;
  prNumber: number;
  deadlineMs: number;
}

export interface GithubChanges {
  files: ChangedFile[];
  /** True when the API's cap was reached: the list may be incomplete. */
  capped: boolean;
}

export class GithubChangesError extends Error {}

/** https://api.github.com for github.com, https://<host>/api/v3 for GitHub Enterprise Server. */
export function defaultGithubApiUrl(host: string): string {
  return host === 'github.com' ? 'https://api.github.com' : `https://${host}/api/v3`;
}

export async function githubChangedFiles(options: GithubChangesOptions): Promise<GithubChanges> {
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const files: ChangedFile[] = [];
  let listed = 0;
  for (let page = 1; page <= GITHUB_FILES_CAP / PAGE_SIZE; page++) {
    const entries = await fetchPage(options, page, deadline);
    listed += entries.length;
    for (const entry of entries) {
      if (entry.status === 'renamed' && entry.previous_filename) {
        files.push({ path: entry.previous_filename, deleted: true, renamedTo: entry.filename });
      }
      files.push({ path: entry.filename, deleted: entry.status === 'removed' });
    }
    if (entries.length < PAGE_SIZE) return { files, capped: false };
  }
  return { files, capped: listed >= GITHUB_FILES_CAP };
}

interface FileEntry {
  filename: string;
  status: string;
  previous_filename?: string;
}

async function fetchPage(
  options: GithubChangesOptions,
  page: number,
  signal: AbortSignal,
): Promise<FileEntry[]> {
  const { owner, name } = options.repo;
  const url = `${options.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls/${options.prNumber}/files?per_page=${PAGE_SIZE}&page=${page}`;
  const where = `GET /repos/${owner}/${name}/pulls/${options.prNumber}/files (page ${page})`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': `merge-queue-action/${VERSION}`,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      redirect: 'error',
      signal,
    });
  } catch (error) {
    const cause = signal.aborted
      ? `no answer within ${Math.round(options.deadlineMs / 1000)} s`
      : causeOf(error);
    throw new GithubChangesError(`${where} failed: ${cause}`);
  }
  const body = await readCapped(response, where);
  if (!response.ok) {
    const hint =
      response.status === 401 || response.status === 403
        ? '; pass a github-token that can read the pull request (the workflow token needs pull-requests: read)'
        : response.status === 404
          ? '; check repo and pr-number, and that github-token can see the repository'
          : '';
    throw new GithubChangesError(`${where} answered HTTP ${response.status}${hint}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new GithubChangesError(`${where} answered with something that is not JSON`);
  }
  if (!Array.isArray(data)) throw new GithubChangesError(`${where} answered with JSON that is not a list`);
  return data.map((entry: unknown, index) => {
    const e = entry as Partial<FileEntry> | null;
    if (!e || typeof e.filename !== 'string' || !e.filename || typeof e.status !== 'string') {
      throw new GithubChangesError(`${where}: entry ${index} has no filename or status`);
    }
    if (e.previous_filename !== undefined && typeof e.previous_filename !== 'string') {
      throw new GithubChangesError(`${where}: entry ${index} has a previous_filename that is not a string`);
    }
    return { filename: e.filename, status: e.status, previous_filename: e.previous_filename };
  });
}

async function readCapped(response: Response, where: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_PAGE_BYTES) {
      await reader.cancel();
      throw new GithubChangesError(`${where} answered more than ${MAX_PAGE_BYTES} bytes for one page`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
