// The targets config's schema (config-schema.ts) checked in plain code, for the usual case of a good
// config: the schema library and the YAML library that places a problem are loaded only when this says
// no, to explain why. It answers as the schema does (a test checks them against each other).
import type { TargetsConfigDocument } from './config-schema.js';

type Check = (value: unknown) => boolean;

const TOP_LEVEL: Record<string, Check> = {
  version: (value) => value === 1,
  rules: listOf(isRule),
  barriers: listOf(isNonEmptyString),
  inert: listOf(isNonEmptyString),
  'inert-target': isNonEmptyString,
  unmatched: (value) =>
    value === 'all' || value === 'ignore' || isMappingOf(value, { target: isNonEmptyString }, ['target']),
  'deleted-unmatched': (value) => value === 'all' || value === 'like-unmatched',
  groups: (value) => isMapping(value) && Object.values(value).every(listOf(isNonEmptyString)),
  dependents: (value) =>
    isMappingOf(value, {
      workspaces: (workspaces) =>
        isMappingOf(workspaces, {
          target: isNonEmptyString,
          depth: (depth) => depth === 1 || depth === 'all',
          root: isNonEmptyString,
          tests: listOf(isNonEmptyString),
          implicit: (implicit) => isMapping(implicit) && Object.values(implicit).every(isGlobs),
          peers: (peers) => peers === 'follow' || peers === 'ignore',
          lockfile: (lockfile) => lockfile === 'resolved' || lockfile === 'root' || lockfile === 'ignore',
          renames: (renames) => renames === 'new-path' || renames === 'both',
        }),
      command: (command) =>
        isMappingOf(
          command,
          {
            run: (run) => Array.isArray(run) && run.length > 0 && run.every(isNonEmptyString),
            'timeout-seconds': (seconds) => isWholeNumber(seconds, 1, 3600),
          },
          ['run'],
        ),
    }),
  docs: (value) => value === 'ignore' || isMappingOf(value, { target: isNonEmptyString }, ['target']),
  'merge-queue-target': isNonEmptyString,
  'max-targets': (value) => isWholeNumber(value, 1, Infinity),
};

const RULE: Record<string, Check> = {
  name: isNonEmptyString,
  match: isGlobs,
  exclude: isGlobs,
  targets: listOf(isNonEmptyString),
};

/** True when the document is one the schema accepts. */
export function isTargetsConfig(data: unknown): data is TargetsConfigDocument {
  return isMappingOf(data, TOP_LEVEL);
}

function isRule(value: unknown): boolean {
  return isMappingOf(value, RULE, ['match', 'targets']);
}

function isGlobs(value: unknown): boolean {
  return (
    isNonEmptyString(value) || (Array.isArray(value) && value.length > 0 && value.every(isNonEmptyString))
  );
}

function listOf(item: Check): Check {
  return (value) => Array.isArray(value) && value.every(item);
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

function isWholeNumber(value: unknown, min: number, max: number): boolean {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A mapping with only these keys, each value passing its check, the required ones present. */
function isMappingOf(value: unknown, keys: Record<string, Check>, required: string[] = []): boolean {
  if (!isMapping(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    const check = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (!check || !check(item)) return false;
  }
  return required.every((key) => Object.hasOwn(value, key));
}
