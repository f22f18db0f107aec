// Every input of the action is read and validated here, once, into a typed Settings object. Nothing
// else calls getInput. A bad input fails with one line: the input, what is wrong, what to do.
import * as core from '@actions/core';
import { isIP } from 'node:net';
import {
  DIRECT_MERGE_MODES,
  LOWEST_PRIORITY,
  MERGE_METHODS,
  OPTIMIZATION_MODES,
  PRIORITY_NAMES,
  PR_STATES,
  QUEUE_MODES,
  SETTABLE_QUEUE_STATES,
  UNHEALTHY_STATUSES,
  type PrState,
  type PriorityName,
  type QueueMode,
  type QueueSettings,
  type UnhealthyStatus,
} from '../wire/index.js';
import {
  OPERATIONS,
  OPERATION_NAMES,
  isOperationName,
  toKebabCase,
  type OperationName,
} from './operations/catalog.js';
import { closestMatches } from './suggest.js';

export const DEFAULT_API_URL = 'https://api.trunk.io/v1';

/** An input that cannot be used as given. Its message is the one line the user sees. */
export class InputError extends Error {
  constructor(
    readonly input: string,
    problem: string,
    fix: string,
  ) {
    super(`Input "${input}": ${problem}. ${fix}`);
    this.name = 'InputError';
  }
}

export interface ContextInputs {
  repo?: { owner: string; name: string };
  repoHost?: string;
  targetBranch?: string;
  prNumber?: number;
  prSha?: string;
}

export type WaitFor = 'merged' | 'tests_passed';

export interface PullRequestSettings {
  /** The priority to send, as given: a name or a number. */
  priority?: PriorityName | number;
  noBatch?: boolean;
  testRunId?: string;
  waitFor?: WaitFor;
  waitTimeoutMs: number;
  pollIntervalMs: number;
}

export type MissingTokenPolicy = 'fail' | 'warn' | 'skip';

export interface ImpactedTargetsSettings {
  /** Exactly one of these three is set when the operation is set-impacted-targets. */
  file?: string;
  inline?: string;
  impactsAll: boolean;
  onMissingToken: MissingTokenPolicy;
}

export type IfExists = 'fail' | 'update' | 'skip';

export interface QueueAdminSettings {
  mode?: QueueMode;
  concurrency?: number;
  ifExists: IfExists;
  /** The settings to send to updateQueue: only those given, plus the `settings` JSON as given. */
  update: QueueSettings & Record<string, unknown>;
}

export interface ListPullRequestsSettings {
  state?: PrState;
  since?: string;
  until?: string;
  take: number;
  maxPages: number;
}

export interface MetricsSettings {
  allRepositories: boolean;
}

export type FailOn = 'none' | 'flaky' | 'broken' | 'any';

export interface FlakyTestsSettings {
  orgUrlSlug?: string;
  statuses: UnhealthyStatus[];
  pageSize: number;
  maxPages: number;
  failOn: FailOn;
  maxUnhealthy: number;
  startTime?: string;
  endTime?: string;
  testId?: string;
  testCaseId?: string;
  externalTicketId?: string;
}

export interface Settings {
  operation: OperationName;
  apiUrl: string;
  /** Absent only where the operation allows it (a fork PR's impacted-targets upload). */
  apiToken?: string;
  githubToken?: string;
  timeoutMs: number;
  summary: boolean;
  context: ContextInputs;
  pullRequest: PullRequestSettings;
  impactedTargets: ImpactedTargetsSettings;
  queue: QueueAdminSettings;
  listPullRequests: ListPullRequestsSettings;
  metrics: MetricsSettings;
  flakyTests: FlakyTestsSettings;
}

export type InputReader = (name: string) => string;

const readActionInput: InputReader = (name) => core.getInput(name);

/** Reads and validates every input. Secrets are masked the moment they are read. */
export function readSettings(read: InputReader = readActionInput): Settings {
  const input = new Inputs(read);
  const apiToken = input.secret('api-token');
  const githubToken = input.secret('github-token');
  try {
    return readValidatedSettings(input, apiToken, githubToken);
  } catch (error) {
    // A secret pasted into the wrong input would otherwise be echoed back in the message.
    if (error instanceof InputError) error.message = hideSecrets(error.message, [apiToken, githubToken]);
    throw error;
  }
}

function readValidatedSettings(
  input: Inputs,
  apiToken: string | undefined,
  githubToken: string | undefined,
): Settings {
  const operation = readOperation(input);
  const settings: Settings = {
    operation,
    apiUrl: readApiUrl(input),
    apiToken,
    githubToken,
    timeoutMs: input.integer('timeout-seconds', { min: 1, max: 3600, fallback: 60 }) * 1000,
    summary: input.boolean('summary') ?? true,
    context: readContextInputs(input),
    pullRequest: readPullRequestSettings(input),
    impactedTargets: readImpactedTargetsSettings(input, operation),
    queue: readQueueAdminSettings(input, operation),
    listPullRequests: {
      // `state` is a PR state here and a queue state for the queue operations.
      state: operation === 'list-pull-requests' ? input.choice('state', PR_STATES) : undefined,
      since: input.dateTime('since'),
      until: input.dateTime('until'),
      take: input.integer('take', { min: 1, max: 100, fallback: 100 }),
      maxPages: input.integer('max-pages', { min: 1, max: 10_000, fallback: 100 }),
    },
    metrics: readMetricsSettings(input),
    flakyTests: readFlakyTestsSettings(input, operation),
  };
  requireOperationInputs(settings, input);
  if (!apiToken && operation !== 'set-impacted-targets') {
    throw new InputError(
      'api-token',
      'is empty',
      'Pass your organization API token from a secret, e.g. `api-token: ${{ secrets.TRUNK_API_TOKEN }}`; a secret is empty in a job run for a fork or Dependabot PR.',
    );
  }
  return settings;
}

function hideSecrets(text: string, secrets: (string | undefined)[]): string {
  return secrets.reduce<string>((out, secret) => (secret ? out.split(secret).join('***') : out), text);
}

const SHOWN_VALUE_CHARS = 80;

/** A given value as an error message shows it: quoted, control characters escaped, long ones cut. */
function quoted(value: string): string {
  if (value.length <= SHOWN_VALUE_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, SHOWN_VALUE_CHARS))}... (${value.length} characters)`;
}

function readOperation(input: Inputs): OperationName {
  const given = input.text('operation');
  if (!given) {
    throw new InputError('operation', 'is empty', `Set it to one of: ${OPERATION_NAMES.join(', ')}.`);
  }
  const name = toKebabCase(given);
  if (isOperationName(name)) return name;
  const suggestions = closestMatches(name, OPERATION_NAMES, 3);
  const hint = suggestions.length ? `Did you mean ${suggestions.join(' or ')}?` : '';
  throw new InputError(
    'operation',
    `${quoted(given)} is not an operation`,
    `${hint} Valid operations: ${OPERATION_NAMES.join(', ')}.`.trim(),
  );
}

function readApiUrl(input: Inputs): string {
  const given = input.text('api-url') || DEFAULT_API_URL;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new InputError(
      'api-url',
      `${quoted(given)} is not a URL`,
      `Set it to the API base, e.g. ${DEFAULT_API_URL}.`,
    );
  }
  if (url.username || url.password) {
    throw new InputError('api-url', 'contains credentials', 'Remove them; the token goes in api-token.');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new InputError(
      'api-url',
      `${quoted(given)} uses plain http to a host other than this machine, which would send the token unencrypted`,
      'Use https (plain http is allowed only for 127.0.0.1, ::1 or localhost).',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(
      'api-url',
      `${quoted(given)} is not an http(s) URL`,
      `Set it to the API base, e.g. ${DEFAULT_API_URL}.`,
    );
  }
  if (url.search || url.hash) {
    throw new InputError(
      'api-url',
      `${quoted(given)} has a query or fragment`,
      `Set it to the API base only, e.g. ${DEFAULT_API_URL}.`,
    );
  }
  return url.toString().replace(/\/+$/, '');
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function readContextInputs(input: Inputs): ContextInputs {
  const context: ContextInputs = {};
  const repo = input.text('repo');
  if (repo) {
    const slash = repo.lastIndexOf('/');
    const owner = repo.slice(0, slash);
    const name = repo.slice(slash + 1);
    const segments = owner.split('/');
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo)) {
      throw new InputError(
        'repo',
        `${quoted(repo)} is a URL, not owner/name`,
        'Set it to the owner and name only, like `my-org/my-repo`, or leave it empty to use this repository.',
      );
    }
    if (slash < 0 || !name || segments.some((s) => !s) || /\s/.test(repo)) {
      throw new InputError(
        'repo',
        `${quoted(repo)} is not owner/name`,
        'Set it like `my-org/my-repo` (an owner may be a nested group, `group/sub/my-repo`), or leave it empty to use this repository.',
      );
    }
    context.repo = { owner, name };
  }
  const host = input.text('repo-host');
  if (host) {
    if (!/^[a-z0-9.-]+(:\d+)?$/i.test(host)) {
      throw new InputError(
        'repo-host',
        `${quoted(host)} is not a host name`,
        'Set it like `github.com` or `ghe.example.com`, without scheme or path, or leave it empty to use the host of GITHUB_SERVER_URL.',
      );
    }
    context.repoHost = host.toLowerCase();
  }
  const branch = input.text('target-branch').replace(/^refs\/heads\//, '');
  if (branch) context.targetBranch = branch;
  const prNumber = input.text('pr-number').replace(/^#/, '');
  if (prNumber) {
    if (!/^[0-9]+$/.test(prNumber) || Number(prNumber) < 1 || Number(prNumber) > 4294967295) {
      throw new InputError(
        'pr-number',
        `${quoted(prNumber)} is not a pull request number`,
        'Set it to a positive whole number such as 123, or leave it empty to take it from the event.',
      );
    }
    context.prNumber = Number(prNumber);
  }
  const sha = input.text('pr-sha');
  if (sha) {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(sha)) {
      throw new InputError(
        'pr-sha',
        `${quoted(sha)} is not a full commit sha`,
        "Set it to the PR head's full 40-character sha (e.g. ${{ github.event.pull_request.head.sha }}), or leave it empty to take it from the event.",
      );
    }
    context.prSha = sha.toLowerCase();
  }
  return context;
}

function readPullRequestSettings(input: Inputs): PullRequestSettings {
  const waitFor = input.choice('wait-for', ['merged', 'tests_passed'] as const);
  return {
    priority: readPriority(input),
    noBatch: input.boolean('no-batch'),
    testRunId: input.text('test-run-id') || undefined,
    waitFor,
    waitTimeoutMs: input.number('wait-timeout-minutes', { min: 0.05, max: 24 * 60, fallback: 60 }) * 60_000,
    pollIntervalMs: input.number('poll-interval-seconds', { min: 1, max: 3600, fallback: 15 }) * 1000,
  };
}

function readPriority(input: Inputs): PriorityName | number | undefined {
  const given = input.text('priority');
  if (!given) return undefined;
  const name = given.toLowerCase();
  if (Object.hasOwn(PRIORITY_NAMES, name)) return name as PriorityName;
  if (/^[0-9]+$/.test(given) && Number(given) <= LOWEST_PRIORITY) return Number(given);
  throw new InputError(
    'priority',
    `${quoted(given)} is not a priority`,
    `Use urgent, high, medium or low, or a number from 0 (highest) to ${LOWEST_PRIORITY} (lowest).`,
  );
}

function readImpactedTargetsSettings(input: Inputs, operation: OperationName): ImpactedTargetsSettings {
  const file = input.text('impacted-targets-file');
  const inline = input.raw('impacted-targets');
  const impactsAll = input.boolean('impacts-all') ?? false;
  const settings: ImpactedTargetsSettings = {
    file: file || undefined,
    inline: inline.trim() ? inline : undefined,
    impactsAll,
    onMissingToken: input.choice('on-missing-token', ['fail', 'warn', 'skip'] as const) ?? 'fail',
  };
  if (operation === 'set-impacted-targets') {
    const given = [
      settings.file && 'impacted-targets-file',
      settings.inline && 'impacted-targets',
      impactsAll && 'impacts-all',
    ].filter(Boolean);
    if (given.length === 0) {
      // Most often an expression such as ${{ steps.x.outputs.path }} that came out empty.
      throw new InputError(
        'impacted-targets-file',
        'is empty, and so are impacted-targets and impacts-all',
        'Set impacted-targets-file to the path of the targets file (check that the expression giving it is not empty), or impacted-targets to the targets inline, or impacts-all: true.',
      );
    }
    if (given.length > 1) {
      throw new InputError(
        given.join('" and "'),
        given.length === 2 ? 'are both set' : 'are all set',
        'Give exactly one source of targets: impacted-targets-file (a path), impacted-targets (inline, or ALL), or impacts-all: true.',
      );
    }
  }
  return settings;
}

const QUEUE_SETTING_INPUTS = {
  'testing-timeout-minutes': 'testingTimeoutMinutes',
  'pending-failure-depth': 'pendingFailureDepth',
  'batching-max-wait-time-minutes': 'batchingMaxWaitTimeMinutes',
  'batching-min-size': 'batchingMinSize',
  'bisection-concurrency': 'bisectionConcurrency',
} as const;

const QUEUE_BOOLEAN_INPUTS = {
  'can-optimistically-merge': 'canOptimisticallyMerge',
  batch: 'batch',
  'delete-required-statuses': 'deleteRequiredStatuses',
  'comments-enabled': 'commentsEnabled',
  'commands-enabled': 'commandsEnabled',
  'status-check-enabled': 'statusCheckEnabled',
  'create-prs-for-testing-branches': 'createPrsForTestingBranches',
} as const;

function readQueueAdminSettings(input: Inputs, operation: OperationName): QueueAdminSettings {
  const update: QueueSettings & Record<string, unknown> = {};
  const mode = input.choice('mode', QUEUE_MODES);
  const concurrency = input.optionalInteger('concurrency', { min: 1, max: 4294967295 });
  const state =
    operation === 'list-pull-requests'
      ? undefined
      : input.choice('state', SETTABLE_QUEUE_STATES, {
          extraAdvice: {
            switching_modes:
              'switching_modes is set by the service while a mode change waits; set running, paused or draining.',
          },
        });
  if (state) update.state = state;
  if (mode) update.mode = mode;
  if (concurrency !== undefined) update.concurrency = concurrency;
  for (const [name, field] of Object.entries(QUEUE_SETTING_INPUTS)) {
    const value = input.optionalInteger(name, { min: 1, max: 4294967295 });
    if (value !== undefined) update[field] = value;
  }
  for (const [name, field] of Object.entries(QUEUE_BOOLEAN_INPUTS)) {
    const value = input.boolean(name);
    if (value !== undefined) update[field] = value;
  }
  const mergeMethod = input.choice('merge-method', MERGE_METHODS);
  if (mergeMethod) update.mergeMethod = mergeMethod;
  const directMergeMode = input.choice('direct-merge-mode', DIRECT_MERGE_MODES);
  if (directMergeMode) update.directMergeMode = directMergeMode;
  const optimizationMode = input.choice('optimization-mode', OPTIMIZATION_MODES);
  if (optimizationMode) update.optimizationMode = optimizationMode;
  const requiredStatuses = input.list('required-statuses');
  if (requiredStatuses.length) update.requiredStatuses = requiredStatuses;
  Object.assign(update, input.jsonObject('settings'));
  if (operation === 'update-queue' && Object.keys(update).length === 0) {
    throw new InputError(
      'settings',
      'is empty, and so is every other queue setting, so update-queue has nothing to send',
      'Set at least one setting (state, mode, concurrency, batch, ... see the README), or settings as a JSON object.',
    );
  }
  return {
    mode,
    concurrency,
    ifExists: input.choice('if-exists', ['fail', 'update', 'skip'] as const) ?? 'fail',
    update,
  };
}

function readMetricsSettings(input: Inputs): MetricsSettings {
  const allRepositories = input.boolean('all-repositories') ?? false;
  const scoped = ['repo', 'repo-host'].filter((name) => input.text(name));
  if (allRepositories && scoped.length) {
    throw new InputError(
      'all-repositories',
      `is true, which asks for every repository of the organization, but ${scoped.join(' and ')} is set too`,
      `Remove ${scoped.join(' and ')} to get every repository, or all-repositories to get one.`,
    );
  }
  return { allRepositories };
}

const MAX_FAILING_TESTS_WINDOW_MS = 7 * 24 * 3600 * 1000;

function readFlakyTestsSettings(input: Inputs, operation: OperationName): FlakyTestsSettings {
  const statuses = readTestStatuses(input);
  const failOn = input.choice('fail-on', ['none', 'flaky', 'broken', 'any'] as const) ?? 'none';
  if (operation === 'list-unhealthy-tests' && (failOn === 'flaky' || failOn === 'broken')) {
    const status = failOn.toUpperCase() as UnhealthyStatus;
    if (!statuses.includes(status)) {
      throw new InputError(
        'fail-on',
        `is ${failOn}, but test-status ${statuses.join(',')} does not fetch ${status} tests, so the step could never fail on them`,
        `Add ${status} to test-status, or set fail-on to any.`,
      );
    }
  }
  const { startTime, endTime } = readFailingTestsWindow(input, operation === 'list-failing-tests');
  return {
    orgUrlSlug: input.text('org-url-slug') || undefined,
    statuses,
    pageSize: input.integer('page-size', { min: 1, max: 100, fallback: 100 }),
    maxPages: input.integer('max-pages', { min: 1, max: 10_000, fallback: 100 }),
    failOn,
    maxUnhealthy: input.integer('max-unhealthy', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
    startTime,
    endTime,
    testId: input.text('test-id') || undefined,
    testCaseId: input.text('test-case-id') || undefined,
    externalTicketId: input.text('external-ticket-id') || undefined,
  };
}

/**
 * start-time and end-time of list-failing-tests: end-time defaults to now and start-time to 7 days before
 * end-time (the most the service allows); the window is checked here, before any request.
 */
function readFailingTestsWindow(
  input: Inputs,
  withDefaults: boolean,
): { startTime?: string; endTime?: string } {
  let startTime = input.dateTime('start-time');
  let endTime = input.dateTime('end-time');
  if (withDefaults) {
    endTime ??= new Date().toISOString();
    startTime ??= new Date(Date.parse(endTime) - MAX_FAILING_TESTS_WINDOW_MS).toISOString();
  }
  if (startTime && endTime) {
    const span = Date.parse(endTime) - Date.parse(startTime);
    if (span <= 0) {
      throw new InputError(
        'end-time',
        `${endTime} is not after start-time ${startTime}`,
        'Set end-time later than start-time.',
      );
    }
    if (span > MAX_FAILING_TESTS_WINDOW_MS) {
      throw new InputError(
        'start-time',
        `the window from ${startTime} to ${endTime} is longer than 7 days, the most the service allows`,
        'Narrow it to 7 days or less (end-time defaults to now), or run one step per week.',
      );
    }
  }
  return { startTime, endTime };
}

function readTestStatuses(input: Inputs): UnhealthyStatus[] {
  const given = input.list('test-status').map((s) => s.toUpperCase());
  if (!given.length || given.includes('BOTH') || given.includes('ALL')) return [...UNHEALTHY_STATUSES];
  for (const status of given) {
    if (!(UNHEALTHY_STATUSES as readonly string[]).includes(status)) {
      throw new InputError(
        'test-status',
        `${quoted(status)} is not a test status`,
        'Use FLAKY, BROKEN, or both (the default), e.g. `test-status: FLAKY,BROKEN`.',
      );
    }
  }
  return [...new Set(given)] as UnhealthyStatus[];
}

/** Inputs that a given operation cannot do without. */
const REQUIRED_INPUTS: Partial<Record<OperationName, (keyof FlakyTestsSettings)[]>> = {
  'list-unhealthy-tests': ['orgUrlSlug'],
  'list-quarantined-tests': ['orgUrlSlug'],
  'list-failing-tests': ['orgUrlSlug'],
  'get-test-details': ['orgUrlSlug', 'testId'],
  'link-ticket-to-test-case': ['testCaseId', 'externalTicketId'],
};

const INPUT_NAME_OF: Partial<Record<keyof FlakyTestsSettings, string>> = {
  orgUrlSlug: 'org-url-slug',
  testId: 'test-id',
  testCaseId: 'test-case-id',
  externalTicketId: 'external-ticket-id',
};

function requireOperationInputs(settings: Settings, input: Inputs): void {
  for (const field of REQUIRED_INPUTS[settings.operation] ?? []) {
    if (settings.flakyTests[field] === undefined) {
      const name = INPUT_NAME_OF[field] ?? field;
      throw new InputError(
        name,
        `is required by operation ${settings.operation}`,
        `Set ${name} (see the README's input reference).`,
      );
    }
  }
  input.warnAboutUnused(settings.operation);
}

// ---------------------------------------------------------------------------------------------------

/** Typed readers over the raw inputs; each remembers which inputs were given. */
class Inputs {
  private readonly given = new Set<string>();

  constructor(private readonly read: InputReader) {}

  raw(name: string): string {
    const value = this.read(name);
    if (value.trim()) this.given.add(name);
    return value;
  }

  text(name: string): string {
    return this.raw(name).trim();
  }

  secret(name: string): string | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    core.setSecret(value);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    if (/^(true|yes|on|1)$/i.test(value)) return true;
    if (/^(false|no|off|0)$/i.test(value)) return false;
    throw new InputError(name, `${quoted(value)} is not a boolean`, 'Use true or false.');
  }

  number(name: string, range: { min: number; max: number; fallback: number }): number {
    const value = this.text(name);
    if (!value) return range.fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < range.min || parsed > range.max) {
      throw new InputError(
        name,
        `${quoted(value)} is not a number from ${range.min} to ${range.max}`,
        `Use a number in that range, or leave it empty for ${range.fallback}.`,
      );
    }
    return parsed;
  }

  integer(name: string, range: { min: number; max: number; fallback: number }): number {
    return this.optionalInteger(name, range) ?? range.fallback;
  }

  optionalInteger(name: string, range: { min: number; max: number; fallback?: number }): number | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    if (!/^-?[0-9]+$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
      const leave =
        range.fallback === undefined
          ? 'leave it empty to keep the current value'
          : `leave it empty for ${range.fallback}`;
      throw new InputError(
        name,
        `${quoted(value)} is not a whole number from ${range.min} to ${range.max}`,
        `Use a whole number in that range, or ${leave}.`,
      );
    }
    return Number(value);
  }

  /** One of `values`, compared without regard to case or `-`/`_`; undefined when empty. */
  choice<const T extends readonly string[]>(
    name: string,
    values: T,
    options: { extraAdvice?: Record<string, string> } = {},
  ): T[number] | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    const normalized = value.toLowerCase().replace(/-/g, '_');
    const match = values.find((v) => v.toLowerCase().replace(/-/g, '_') === normalized);
    if (match) return match;
    const extra = options.extraAdvice?.[normalized];
    throw new InputError(
      name,
      `${quoted(value)} is not one of ${values.join(', ')}`,
      extra ?? 'Use one of those values.',
    );
  }

  /** A comma- or newline-separated list, blanks dropped. */
  list(name: string): string[] {
    return this.raw(name)
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean);
  }

  dateTime(name: string): string | undefined {
    const value = this.text(name);
    if (!value) return undefined;
    const ms = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
      throw new InputError(
        name,
        `${quoted(value)} is not a date-time`,
        'Use ISO 8601, e.g. 2026-01-31T00:00:00Z.',
      );
    }
    return new Date(ms).toISOString();
  }

  jsonObject(name: string): Record<string, unknown> {
    const value = this.text(name);
    if (!value) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new InputError(
        name,
        `is not valid JSON (${(error as Error).message})`,
        'Give a JSON object, e.g. {"concurrency": 3}.',
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new InputError(name, 'is not a JSON object', 'Give a JSON object, e.g. {"concurrency": 3}.');
    }
    return parsed as Record<string, unknown>;
  }

  warnAboutUnused(operation: OperationName): void {
    const used = INPUTS_BY_AREA[OPERATIONS[operation].area];
    for (const name of this.given) {
      if (!COMMON_INPUTS.includes(name) && !used.includes(name)) {
        core.warning(`Input "${name}" is not used by operation ${operation}; it was ignored.`);
      }
    }
  }
}

const COMMON_INPUTS = [
  'operation',
  'api-token',
  'api-url',
  'repo',
  'repo-host',
  'timeout-seconds',
  'summary',
  'github-token',
  'target-branch',
  'pr-number',
  'pr-sha',
];

const QUEUE_INPUTS = [
  'mode',
  'concurrency',
  'if-exists',
  'state',
  'settings',
  'merge-method',
  'direct-merge-mode',
  'optimization-mode',
  'required-statuses',
  ...Object.keys(QUEUE_SETTING_INPUTS),
  ...Object.keys(QUEUE_BOOLEAN_INPUTS),
];

const INPUTS_BY_AREA: Record<(typeof OPERATIONS)[OperationName]['area'], string[]> = {
  'pull-request': [
    'priority',
    'no-batch',
    'test-run-id',
    'wait-for',
    'wait-timeout-minutes',
    'poll-interval-seconds',
  ],
  'impacted-targets': ['impacted-targets-file', 'impacted-targets', 'impacts-all', 'on-missing-token'],
  queue: QUEUE_INPUTS,
  'list-pull-requests': ['state', 'since', 'until', 'take', 'max-pages'],
  metrics: ['all-repositories'],
  'flaky-tests': [
    'org-url-slug',
    'test-status',
    'page-size',
    'max-pages',
    'fail-on',
    'max-unhealthy',
    'start-time',
    'end-time',
    'test-id',
    'test-case-id',
    'external-ticket-id',
  ],
};
