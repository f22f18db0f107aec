// Which files the PR changes, from the source the settings name: a list (a file or standard input), the
// git checkout, or the GitHub API. `auto` takes a list when one is given, else git in a checkout, else
// the API.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ResolvedContext } from '../../../context.js';
import { InputError } from '../../../errors.js';
import { nameOf, words } from '../../../words.js';
import { readStandardInput } from '../../../stdin.js';
import { defaultGithubApiUrl, GITHUB_FILES_CAP, githubChangedFiles } from './github-changes.js';
import {
  NotACheckoutError,
  gitChangedFiles,
  startQuickChanges,
  type GitChangesOptions,
  type QuickStart,
} from './git-changes.js';
import type { ChangedFile } from './impact.js';
import type { ComputeSettings } from './inputs.js';

const MAX_LIST_BYTES = 64 * 1024 * 1024;

export interface ChangedFiles {
  files: ChangedFile[];
  /** In words: `git diff <base>...<head>`, `the GitHub API`, `changed-files.txt`. */
  from: string;
  /** Set when the list is known to be incomplete: everything must be impacted. */
  incompleteReason?: string;
  base?: string;
  head?: string;
}

export interface ChangedFilesRequest {
  settings: ComputeSettings;
  context: ResolvedContext;
  githubToken?: string;
  timeoutMs: number;
  log: (line: string) => void;
  stdin?: AsyncIterable<Buffer | string>;
}

/** The changed files being found: `find` gives them; `cancel` stops the work when they are not wanted. */
export interface PendingChangedFiles {
  find(): Promise<ChangedFiles>;
  cancel(): void;
}

/**
 * Begins finding the changed files. git's usual case starts its processes at once (they only read the
 * clone), so that they work while the config is read; everything else the source needs (the list, the
 * API, fetching into the clone, the log) waits for `find`.
 */
export function beginChangedFiles(request: ChangedFilesRequest): PendingChangedFiles {
  const source = sourceOf(request.settings);
  const options = source === 'git' ? gitOptions(request) : undefined;
  const git = options && { options, quickStart: startQuickChanges(options) };
  return {
    find: () => findChangedFiles(request, source, git),
    cancel: () => git?.quickStart.stop(),
  };
}

type Source = Exclude<ComputeSettings['source'], 'auto'>;

function sourceOf(settings: ComputeSettings): Source {
  return settings.source !== 'auto' ? settings.source : settings.changedFilesFile ? 'file' : 'git';
}

/** What git needs; undefined without a target branch, which find then asks for. */
function gitOptions(request: ChangedFilesRequest): GitChangesOptions | undefined {
  const { settings, context } = request;
  if (!context.targetBranch) return undefined;
  return {
    cwd: resolve(settings.workingDirectory),
    targetBranch: context.targetBranch,
    headSha: context.headSha,
    deepenAttempts: settings.deepenAttempts,
    timeoutMs: request.timeoutMs,
    log: request.log,
  };
}

async function findChangedFiles(
  request: ChangedFilesRequest,
  source: Source,
  git: { options: GitChangesOptions; quickStart: QuickStart } | undefined,
): Promise<ChangedFiles> {
  const { settings } = request;
  const cwd = resolve(settings.workingDirectory);

  if (source === 'file') {
    const name = settings.changedFilesFile as string;
    const content =
      name === '-' ? await readStandardInputList(request.stdin) : readListFile(resolve(cwd, name), name);
    return { files: parseList(content), from: name === '-' ? 'standard input' : name };
  }
  if (source === 'git') {
    if (!git) {
      throw new InputError(
        'target-branch',
        'is not known',
        words`Set ${nameOf('target-branch')} to the branch the PR merges into.`,
      );
    }
    let changes;
    try {
      changes = await gitChangedFiles(git.options, git.quickStart);
    } catch (error) {
      // auto: without a checkout, the API lists the PR's files.
      if (settings.source === 'auto' && error instanceof NotACheckoutError) return fromGithub(request);
      throw error;
    }
    for (const note of changes.notes) request.log(`git: ${note}.`);
    return {
      files: changes.files,
      from: `git diff ${changes.base.slice(0, 12)}..${changes.head.slice(0, 12)}`,
      base: changes.base,
      head: changes.head,
    };
  }
  return fromGithub(request);
}

async function fromGithub(request: ChangedFilesRequest): Promise<ChangedFiles> {
  const { settings, context } = request;
  if (!context.prNumber) {
    throw new InputError(
      'pr-number',
      'is not known, and the changed files can only come from the GitHub API here (no git checkout)',
      words`Run this in a pull request workflow, set ${nameOf('pr-number')}, or check out the repository.`,
    );
  }
  const changes = await githubChangedFiles({
    apiUrl: settings.githubApiUrl ?? defaultGithubApiUrl(context.repo.host),
    token: request.githubToken,
    repo: context.repo,
    prNumber: context.prNumber,
    deadlineMs: request.timeoutMs,
  });
  return {
    files: changes.files,
    from: `the GitHub API (PR #${context.prNumber} files)`,
    incompleteReason: changes.capped
      ? `the PR changes ${GITHUB_FILES_CAP} files or more, and the GitHub API lists only the first ${GITHUB_FILES_CAP}; check out the repository (changed-files-from: git) for the full list`
      : undefined,
  };
}

function readListFile(path: string, name: string): Buffer {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile())
      throw new InputError('changed-files-file', `"${name}" is not a file`, 'Give the path of the list.');
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError('changed-files-file', `there is no file at "${name}" (${path})`, 'Check the path.');
  }
  if (size > MAX_LIST_BYTES) {
    throw new InputError(
      'changed-files-file',
      `"${name}" is over ${MAX_LIST_BYTES} bytes`,
      'Give a list of paths, one a line.',
    );
  }
  return readFileSync(path);
}

/** One path a line; blank lines dropped, a leading ./ removed, Windows line ends accepted. */
export function parseList(content: Buffer): ChangedFile[] {
  if (content.length > MAX_LIST_BYTES) {
    throw new InputError(
      'changed-files-file',
      `the list is over ${MAX_LIST_BYTES} bytes`,
      'Give a list of paths, one a line.',
    );
  }
  return content
    .toString('utf8')
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/^\.\//, ''))
    .filter(Boolean)
    .map((path) => ({ path, deleted: false }));
}

/** Standard input, read to its end, refused past the cap. */
function readStandardInputList(stdin: AsyncIterable<Buffer | string> | undefined): Promise<Buffer> {
  return readStandardInput('changed-files-file', MAX_LIST_BYTES, 'Give a list of paths, one a line.', stdin);
}
