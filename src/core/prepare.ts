// Before anything is looked up or sent: the operation named, and every input it uses read and checked,
// so that a bad input fails the run at once with one line that names it.
import { COMMON_INPUTS, readCommonSettings, type CommonSettings } from './common-inputs.js';
import { InputError, MissingInputError, neededBy } from './errors.js';
import type { Host } from './host.js';
import { Inputs, quoted } from './inputs.js';
import {
  OPERATIONS,
  OPERATION_NAMES,
  isOperationName,
  toKebabCase,
  type OperationName,
  type RegisteredOperation,
  type SharedContext,
} from './operations/registry.js';
import type { OperationResult } from './operations/types.js';
import { oneLine } from './report/control-syntax.js';
import type { Redact } from './report/redact.js';
import { closestMatches } from './suggest.js';
import { say, subjectOf, supply, words } from './words.js';

/** Every input any operation reads, for warning about inputs given to one that does not read them. */
const ALL_INPUT_NAMES = [
  ...new Set(Object.values(OPERATIONS).flatMap((row) => row.inputs.map((input) => input.name))),
];

export interface PreparedOperation {
  operation: OperationName;
  row: RegisteredOperation;
  common: CommonSettings;
  /** The operation's own settings (typed by its row). */
  settings: unknown;
  /** Runs the operation with its settings, read and checked already. */
  start: (shared: SharedContext) => Promise<OperationResult>;
}

export type InputSource = Pick<Host, 'input' | 'mask' | 'wording'> & {
  log: Pick<Host['log'], 'warning'>;
};

/** Reads and checks every input the operation uses, before anything is looked up or sent. */
export function prepareOperation(host: InputSource, redact: Redact = (text) => text): PreparedOperation {
  const operation = readOperation(host);
  const row: RegisteredOperation = OPERATIONS[operation];
  const input = new Inputs(
    (name) => host.input(name),
    new Set([...COMMON_INPUTS, ...row.inputs].map((spec) => spec.name)),
    (secret) => host.mask(secret),
  );
  const common = readCommonSettings(input);
  warnAboutUnusedInputs(host, operation, row, redact);
  requireInputs(host, operation, row);
  const { settings, start } = row.prepare(input, operation);
  if (!common.apiToken && !row.tokenOptional) {
    throw new MissingInputError('api-token', words`The API token is empty: ${supply('api-token')}.`);
  }
  return { operation, row, common, settings, start };
}

// The whole list is longer than a line a person reads (30 names), so the line points to where it is.
const OPERATIONS_HINT = `one of the ${OPERATION_NAMES.length} operations in docs/reference.md (the CLI: --help), e.g. submit-pull-request, set-impacted-targets, get-queue, check-test-results.`;

function readOperation(host: InputSource): OperationName {
  const given = host.input('operation').trim();
  if (!given) {
    throw new InputError('operation', 'is empty', `Set it to ${OPERATIONS_HINT}`);
  }
  const name = toKebabCase(given);
  if (isOperationName(name)) return name;
  const suggestions = closestMatches(name, OPERATION_NAMES, 3);
  const hint = suggestions.length
    ? `Did you mean ${suggestions.join(' or ')}?`
    : `Set it to ${OPERATIONS_HINT}`;
  throw new InputError('operation', `${quoted(given)} is not an operation`, hint);
}

/** An input the operation does not read is ignored, and the user is told so: it is most often a mistake. */
function warnAboutUnusedInputs(
  host: InputSource,
  operation: OperationName,
  row: RegisteredOperation,
  redact: Redact,
): void {
  const used = new Set(row.inputs.map((input) => input.name));
  for (const name of ALL_INPUT_NAMES) {
    if (!used.has(name) && host.input(name).trim()) {
      host.log.warning(
        oneLine(
          redact(
            say(
              words`${subjectOf(name)} is not used by operation ${operation}; it was ignored.`,
              host.wording,
            ),
          ),
        ),
        { title: operation },
      );
    }
  }
}

function requireInputs(host: InputSource, operation: OperationName, row: RegisteredOperation): void {
  for (const input of row.inputs) {
    if (input.required && !host.input(input.name).trim()) {
      throw neededBy(operation, input.name, whatItHolds(input.description));
    }
  }
}

/**
 * What an input holds, from its description's first phrase: "The test's id." is "the test's id", "JUnit
 * XML reports: globs ..." is "JUnit XML reports".
 */
function whatItHolds(description: string): string {
  const phrase = description.split(/[.:;(]|, e\.g\./)[0]!.trim();
  return phrase.replace(/^[A-Z](?=[a-z ])/, (c) => c.toLowerCase());
}
