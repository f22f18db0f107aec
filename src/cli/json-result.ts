// The --json object, one shape for every operation (docs/cli-json.md): the operation, its exit code,
// every output it set with its JSON type, the service's last answer parsed, and the failure line. An
// output's type is declared here, once, so that a program reading `outputs.position` always gets a
// number or null, never "3" one day and 3 the next.
import type { OutputValue, RunResult } from '../core/index.js';

export type OutputType = 'string' | 'number' | 'boolean' | 'json' | 'list' | 'numbers';

const NUMBERS = [
  'pr-number',
  'priority-value',
  'position',
  'prs-ahead',
  'times-sent-back',
  'passed',
  'failed',
  'median-testing-seconds',
  'concurrency',
  'enqueued-count',
  'count',
  'pages',
  'depth',
  'testing',
  'awaiting-mergeability',
  'merged-last-hour',
  'failed-last-hour',
  'cancelled-last-hour',
  'restarts-last-hour',
  'wait-p50-seconds',
  'wait-p90-seconds',
  'test-duration-p50-seconds',
  'unhealthy-count',
  'flaky-count',
  'broken-count',
  'quarantined-count',
  'failing-count',
  'failed-count',
  'step-failing-count',
  'impacted-targets-count',
  'changed-files-count',
  'unclaimed-files-count',
  'unused-rules-count',
  'added',
  'prs',
  'runs',
];

const BOOLEANS = [
  'is-merge-queue-test-run',
  'is-submitted',
  'already-queued',
  'is-merge-queue-run',
  'dequeued',
  'skips-the-line',
  'allow-batching',
  'direct',
  'has-more',
  'queue-exists',
  'queue-created',
  'complete',
  'quarantined',
  'impacts-all',
  'fit',
];

/** Outputs that carry JSON in a pipeline (for `fromJSON`): a program gets the value itself. */
const JSON_VALUES = [
  'impacted-targets-for-tested-prs',
  'failing-checks',
  'transitions',
  'notification',
  'quarantined-failures',
  'unquarantined-failures',
  'impacted-targets',
  'impacted-targets-map',
  'unclaimed-files',
  'recommendation',
];

/** Comma-separated in a pipeline; an array in JSON, of PR numbers or of strings. */
const NUMBER_LISTS = ['tested-pr-numbers', 'prs-still-queued'];
const LISTS = ['run-ids', 'required-statuses'];

export const OUTPUT_TYPES: Readonly<Record<string, OutputType>> = Object.fromEntries([
  ...NUMBERS.map((name) => [name, 'number']),
  ...BOOLEANS.map((name) => [name, 'boolean']),
  ...JSON_VALUES.map((name) => [name, 'json']),
  ...NUMBER_LISTS.map((name) => [name, 'numbers']),
  ...LISTS.map((name) => [name, 'list']),
]);

/** The --json object. `response` is the raw answer's output, parsed once here rather than kept as text. */
export function jsonResult(result: RunResult, given: string) {
  const values = result.values ?? result.outputs;
  const outputs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name !== 'response') outputs[name] = typedOutput(name, value);
  }
  return {
    operation: result.operation ?? given,
    exitCode: result.exitCode,
    outputs,
    response: parsedResponse(result.outputs.response),
    failure: result.failure ?? null,
  };
}

/** An output as its declared type; null when it is empty (not set for this run). */
export function typedOutput(name: string, value: OutputValue): unknown {
  if (value === '') return null;
  switch (OUTPUT_TYPES[name] ?? 'string') {
    case 'number': {
      const number = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(number) ? number : String(value);
    }
    case 'boolean':
      return value === true || value === 'true' ? true : value === false || value === 'false' ? false : value;
    case 'json':
      return parsedJson(String(value));
    case 'list':
      return listItems(value);
    case 'numbers':
      return listItems(value).map((item) => (/^\d+$/.test(item) ? Number(item) : item));
    default:
      return String(value);
  }
}

function listItems(value: OutputValue): string[] {
  return String(value)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // impacted-targets is the word ALL when every target is impacted.
    return text;
  }
}

function parsedResponse(text: string | undefined): unknown {
  if (!text) return null;
  return parsedJson(text);
}
