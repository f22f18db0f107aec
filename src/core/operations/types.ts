import type { ClientOptions, ServiceClient } from '../api/client.js';
import type { Clock } from '../clock.js';
import type { CommonSettings } from '../common-inputs.js';
import type { ResolvedContext } from '../context.js';
import type { Annotation, PullRequestComments } from '../host.js';
import type { Markdown } from '../report/markdown.js';
import type { Words, Wording } from '../words.js';

export type OutputValue = string | number | boolean;

/** What an operation is given: its own settings (read by its registry row), and everything shared. */
export interface OperationContext<S> {
  /** The operation's name, as the registry spells it. */
  operation: string;
  settings: S;
  common: CommonSettings;
  context: ResolvedContext;
  /** A client authenticated with api-token. */
  client: ServiceClient;
  /** What `client` was built from, for an operation that needs another kind of client (a fork upload). */
  clientOptions: ClientOptions;
  /** The host's directory for files handed to later steps (write them with writeStepFile). */
  tempDir: string;
  /** The absolute directory relative paths in inputs are taken from (the host's). */
  workingDirectory: string;
  /** The host's standard input, for an input file given as `-` (read it with readStandardInput). */
  stdin?: AsyncIterable<Buffer | string>;
  /** Hides the run's secrets (and anything shaped like a credential) in text that leaves the run. */
  redact: (text: string) => string;
  /**
   * Lines for the log; secrets are already hidden from them. A line that names inputs (one told of a
   * failure, say) is given as words, which the host says in its own terms.
   */
  log: {
    info(message: string | Words): void;
    /**
     * The result (or a count of it) in one line, for a log that is all its reader sees; left out where a
     * page shows it.
     */
    outcome?(message: string): void;
    /** A status line that replaces the last one where the log is a terminal; elsewhere a line. */
    progress?(message: string): void;
    warning(message: string | Words): void;
    /** A note placed where it belongs (a failed test's file and line) when the host can. */
    annotate(level: 'error' | 'warning' | 'notice', message: string, at: Annotation): void;
    /** Runs `work` inside a collapsible group of the host's log (where the host has groups). */
    group?<T>(title: string, work: () => Promise<T>): Promise<T>;
  };
  /** Real time unless a test gives the emulator's virtual clock. */
  clock?: Clock;
  /** Where the host can comment on the PR (GitHub); absent elsewhere. */
  comments?: PullRequestComments;
  /** How the host names inputs and operations in what it shows (a summary's next step); the action's when absent. */
  wording?: Wording;
  /** Aborts when the run is called off (an agent gave up, or its time is up): long work stops at it. */
  signal?: AbortSignal;
}

export interface OperationResult {
  /** Outputs of the step; `response` (the raw body) is expected from every operation that called the API. */
  outputs: Record<string, OutputValue>;
  /** The summary; omitted when there is nothing to say. */
  summary?: Markdown;
  /** When set, the step fails with this one line (its inputs in the host's words), after outputs and the summary are written. */
  failure?: string | Words;
  /**
   * The error the failure comes from, when the service's answer is the failure (no queue there): its
   * kind sets the exit code, as if it had been thrown. Else the exit code says the outcome failed.
   */
  failureCause?: unknown;
  /** The failure's headline, as its annotation's title ("3 failures not quarantined: ..."); else the operation. */
  failureTitle?: string;
  /** How loud the failure's annotation is: an error (red) unless nothing failed (a cancelled PR). */
  failureLevel?: 'error' | 'warning';
  /**
   * What it found, as data, for an entry point that shows it (the CLI in a terminal): one of details.ts's
   * kinds, which name the areas' own types, so that this file, which every area imports, names none.
   */
  details?: object;
}

export type Operation<S> = (op: OperationContext<S>) => Promise<OperationResult>;
