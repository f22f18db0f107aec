// The port between the core and a CI host. The core runs an operation against this interface only; each
// host (GitHub Actions, GitLab CI, Buildkite, CircleCI, Jenkins, a laptop) implements it from its own
// environment, which it is given rather than reading process.env.
import type { ProxySettings } from './api/client.js';
import type { ContextOverrides, Needs, ResolvedContext } from './context.js';
import type { Wording } from './words.js';

export type HostName = 'github-actions' | 'gitlab-ci' | 'buildkite' | 'circleci' | 'jenkins' | 'generic';

export interface Annotation {
  /** A short title: the operation, the input or the endpoint. */
  title?: string;
  /**
   * Where the message points in the checkout (a failed test's source file), relative to the repository's
   * root. Hosts that can place a note on a file show it there; others may print it or ignore it.
   */
  file?: string;
  /** The line in `file` (1-based); only meaningful with `file`. */
  line?: number;
}

/**
 * Where lines go. Text handed to these methods may come from the service or from users' code: the host
 * neutralises its own control syntax (workflow commands, section markers) before writing it.
 */
export interface HostLog {
  info(message: string): void;
  warning(message: string, annotation?: Annotation): void;
  error(message: string, annotation?: Annotation): void;
  /** A note that is neither a warning nor an error; hosts without one fall back to `info`. */
  notice?(message: string, annotation?: Annotation): void;
  /** Runs `work` inside a collapsible group of the host's log. */
  group<T>(title: string, work: () => Promise<T>): Promise<T>;
  /** A status line redrawn in place where the log is a terminal; hosts without one log it as a line. */
  progress?(message: string): void;
}

export interface ContextRequest {
  overrides: ContextOverrides;
  needs: Needs;
  /** For a look-up through the GitHub API when the pipeline does not say what is needed. */
  githubToken?: string;
}

/** Comments on a pull request through the code host's API (only where the host has one: GitHub). */
export interface PullRequestComments {
  /**
   * Creates the PR's comment that contains `marker`, or updates it in place when one exists already, so
   * that a PR carries one such comment however often the step runs. Answers the comment's URL.
   */
  upsert(request: {
    repo: { owner: string; name: string };
    prNumber: number;
    marker: string;
    body: string;
    token: string;
  }): Promise<{
    url?: string;
    created: boolean;
    /** The token's own login could not be learnt, so no earlier comment could be taken for ours. */
    authorUnknown?: boolean;
  }>;
}

export interface Host {
  readonly name: HostName;
  /** An input as the user gave it ('' when not given): an action input, a CLI flag or a variable. */
  input(name: string): string;
  /** Keeps a secret out of everything the host writes from now on. */
  mask(secret: string): void;
  resolveContext(request: ContextRequest): Promise<ResolvedContext>;
  /** Publishes outputs where later steps or jobs read them; may be called more than once. */
  setOutputs(outputs: Record<string, string>): Promise<void>;
  /** Writes the run's summary (markdown) where the host shows it. */
  writeSummary(markdown: string): Promise<void>;
  readonly log: HostLog;
  /** A directory for files handed to later steps (reports, metrics). */
  readonly tempDir: string;
  /** The absolute directory the step runs in: relative paths in inputs are taken from it. */
  readonly workingDirectory: string;
  /** What was piped to the step, for an input file given as `-`; absent where a host has none. */
  readonly stdin?: AsyncIterable<Buffer | string>;
  /** The pipeline's proxy variables, for the API client (core never reads process.env). */
  readonly proxy?: ProxySettings;
  /** PR comments, where the host can write them. */
  readonly comments?: PullRequestComments;
  /**
   * How a user of this host names and gives an input, for messages (the CLI: `--pr-number or
   * MERGE_QUEUE_PR_NUMBER`); without it messages name an action's input (`Input "pr-number"`).
   */
  readonly wording?: Wording;
}
