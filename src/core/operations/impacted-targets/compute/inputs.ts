// Inputs of compute-impacted-targets and lint-impacted-targets-config, and of set-impacted-targets when it
// computes the targets itself (targets-config). Kept apart from the compute code, which is loaded only
// when an operation computes.
import { InputError } from '../../../errors.js';
import { give, nameOf, words } from '../../../words.js';
import { quoted, type Inputs, type InputSpec } from '../../../inputs.js';

export const DEFAULT_TARGETS_CONFIG = '.github/impacted-targets.yml';

export const CHANGED_FILES_SOURCES = ['auto', 'git', 'github-api', 'file'] as const;
export type ChangedFilesSource = (typeof CHANGED_FILES_SOURCES)[number];
export const ON_COMPUTE_ERROR_VALUES = ['all', 'fail'] as const;
export type OnComputeError = (typeof ON_COMPUTE_ERROR_VALUES)[number];

export interface ComputeSettings {
  /** The config's path, relative to workingDirectory. */
  config: string;
  source: ChangedFilesSource;
  /** A list of changed files, one a line; `-` for standard input. */
  changedFilesFile?: string;
  /** The repository's root: git runs here, and the config and workspace are read from here. */
  workingDirectory: string;
  deepenAttempts: number;
  onComputeError: OnComputeError;
  githubApiUrl?: string;
}

export interface LintSettings {
  config: string;
  workingDirectory: string;
  strict: boolean;
  /** Replay this many of the last commits (0: none). */
  history: number;
}

export const MAX_HISTORY_COMMITS = 5000;

const WORKING_DIRECTORY_INPUT: InputSpec = {
  name: 'working-directory',
  default: '.',
  description:
    'The root of the checked-out repository: git runs there, and targets-config and the workspace files are read from there.',
};

const CONFIG_INPUT: InputSpec = {
  name: 'targets-config',
  default: DEFAULT_TARGETS_CONFIG,
  description: 'The YAML config that maps changed files to targets (see docs/impacted-targets.md).',
};

/** For set-impacted-targets the config is one source of targets among others, so it has no default. */
export const UPLOAD_CONFIG_INPUT: InputSpec = {
  name: 'targets-config',
  description:
    "Compute the targets from the PR's changed files with this YAML config, then upload them (instead of a file or an inline list).",
};

/** How the changed files are found; shared by compute-impacted-targets and set-impacted-targets. */
export const CHANGED_FILES_INPUTS: readonly InputSpec[] = [
  {
    name: 'changed-files-from',
    values: CHANGED_FILES_SOURCES,
    default: 'auto',
    description:
      'Where the changed files come from - git (the checkout), github-api (the PR files list, no checkout needed), file (changed-files-file), or auto (file if given, else git in a checkout, else github-api).',
  },
  {
    name: 'changed-files-file',
    description:
      'A file listing the changed files, one path a line, relative to the repository root; - reads standard input.',
  },
  WORKING_DIRECTORY_INPUT,
  {
    name: 'fetch-deepen-attempts',
    default: '5',
    description:
      'How many times a shallow clone may be deepened (git fetch --deepen, 50 commits then twice as many each time) to reach the merge base.',
  },
  {
    name: 'on-compute-error',
    values: ON_COMPUTE_ERROR_VALUES,
    default: 'all',
    description:
      'When the changed files cannot be found (git or API error, timeout, no merge base) - all (impact every target, with a warning) or fail. A bad config always fails.',
  },
  {
    name: 'github-api-url',
    description:
      'The GitHub REST API for changed-files-from github-api. Default - https://api.github.com, or https://<repo-host>/api/v3 for GitHub Enterprise Server.',
  },
];

export const COMPUTE_INPUTS: readonly InputSpec[] = [CONFIG_INPUT, ...CHANGED_FILES_INPUTS];

export const LINT_INPUTS: readonly InputSpec[] = [
  CONFIG_INPUT,
  WORKING_DIRECTORY_INPUT,
  {
    name: 'strict',
    boolean: true,
    default: 'false',
    description:
      'Fail (exit code 1) when a tracked file is claimed by no rule or a rule matches no tracked file.',
  },
  {
    name: 'history',
    default: '0',
    description:
      'Also replay the last N commits of the checkout (each against its first parent, git only) and report how often each rule and barrier fired, how many commits impacted all and why, and how many targets the rest impacted. Fetch that much history first (fetch-depth).',
  },
];

export function readComputeSettings(
  input: Inputs,
  config = input.text('targets-config') || DEFAULT_TARGETS_CONFIG,
): ComputeSettings {
  const changedFilesFile = input.text('changed-files-file') || undefined;
  const source = input.choice('changed-files-from', CHANGED_FILES_SOURCES) ?? 'auto';
  if (source === 'file' && !changedFilesFile) {
    throw new InputError(
      'changed-files-from',
      words`is file, but ${nameOf('changed-files-file')} is empty`,
      words`${give('changed-files-file')} (the list of changed files, - for standard input), or use git or github-api.`,
    );
  }
  if (changedFilesFile && source !== 'auto' && source !== 'file') {
    throw new InputError(
      'changed-files-file',
      words`is set, but ${nameOf('changed-files-from')} is ${source}`,
      words`Leave one of them: ${nameOf('changed-files-file')} (with ${nameOf('changed-files-from')} auto or file), or ${nameOf('changed-files-from')} alone.`,
    );
  }
  const githubApiUrl = input.text('github-api-url') || undefined;
  if (githubApiUrl && !/^https?:\/\/[^\s/]+/i.test(githubApiUrl)) {
    throw new InputError(
      'github-api-url',
      `${quoted(githubApiUrl)} is not an http(s) URL`,
      'Set it like https://api.github.com.',
    );
  }
  return {
    config,
    source,
    changedFilesFile,
    workingDirectory: input.text('working-directory') || '.',
    deepenAttempts: input.integer('fetch-deepen-attempts', { min: 0, max: 20, fallback: 5 }),
    onComputeError: input.choice('on-compute-error', ON_COMPUTE_ERROR_VALUES) ?? 'all',
    githubApiUrl,
  };
}

export function readLintSettings(input: Inputs): LintSettings {
  return {
    config: input.text('targets-config') || DEFAULT_TARGETS_CONFIG,
    workingDirectory: input.text('working-directory') || '.',
    strict: input.boolean('strict') ?? false,
    history: historyCommits(input),
  };
}

/** lint's history is a number of commits; the planner's is a file, and people mix the two up. */
function historyCommits(input: Inputs): number {
  const text = input.text('history');
  if (text && !/^\d+$/.test(text)) {
    throw new InputError(
      'history',
      `${quoted(text)} is not a number of commits, which is what lint-impacted-targets-config takes`,
      `Give how many commits to replay (0 to ${MAX_HISTORY_COMMITS}); a history file is for export-queue-history and plan-queue-settings.`,
    );
  }
  return input.integer('history', { min: 0, max: MAX_HISTORY_COMMITS, fallback: 0 });
}
