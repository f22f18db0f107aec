// A value each operation's own inputs (its registry row's) cannot take, found by trying a few on the
// operation's sample (helpers/operation-samples.ts) as run() reads them, before anything is sent: the
// bad-input table runs each end to end, so that a new operation's inputs are in it without an edit.
import { InputError } from '../../src/core/errors.js';
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/core/operations/registry.js';
import { sampleInputs } from './operation-samples.js';
import { prepareFrom } from './prepare.js';

export interface WrongValue {
  operation: OperationName;
  input: string;
  /** The kind of mistake, as the bad-input table shows it. */
  kind: string;
  /** The operation's inputs beside the common ones: its sample's, with the wrong value. */
  inputs: Record<string, string>;
}

/** Tried in turn: the first the operation refuses, naming the input, is the input's wrong value. */
const TRIED = [
  // Not a number, a duration, a time, a URL, true or false, nor one of the values an input lists.
  { kind: 'not a value it takes', value: 'not-a-valid-value' },
  // Ids, slugs and names are one line.
  { kind: 'not one line', value: 'main\nrelease' },
  // Nor does any item of a list hold a control character.
  { kind: 'a control character', value: 'build\u0007' },
] as const;

/** `operation input`, the key of an input in the tables of the operations' inputs. */
export const inputKey = (operation: string, input: string) => `${operation} ${input}`;

/** The inputs of an operation's sample, as the action takes them (an operation only v2 serves, over v2). */
export function sampleOf(operation: OperationName): Record<string, string> {
  return {
    ...(OPERATIONS[operation].api === 'v2' ? { 'api-version': 'v2' } : {}),
    ...sampleInputs(operation),
  };
}

/** The inputs reading `inputs` for `operation` refuses, before anything runs (two when they conflict). */
function refusedBeforeRunning(operation: OperationName, inputs: Record<string, string>): string[] {
  try {
    prepareFrom({ operation, 'api-token': 'tok_wrong_values', 'target-branch': 'main', ...inputs });
    return [];
  } catch (error) {
    return error instanceof InputError ? error.input.split('" and "') : [];
  }
}

/** The wrong value of `input`, from its sample: the first TRIED it refuses, or missing when required. */
function wrongValueOf(operation: OperationName, input: string): WrongValue | undefined {
  const sample = sampleOf(operation);
  const required = OPERATIONS[operation].inputs.find((spec) => spec.name === input)?.required;
  const tried = [...TRIED, ...(required ? [{ kind: 'missing', value: '' }] : [])];
  for (const { kind, value } of tried) {
    const inputs = { ...sample, [input]: value };
    const refused = refusedBeforeRunning(operation, inputs);
    if (refused.includes(input))
      return { operation, input, kind: refused.length > 1 ? 'conflicting inputs' : kind, inputs };
  }
  return undefined;
}

/**
 * Every own input of every operation in the registry: its wrong value, or, for one that none of TRIED is
 * refused as (a file read when the operation runs, an input read only beside another, free text), its key.
 */
export function wrongValuesFromRegistry(): { found: WrongValue[]; notFound: string[] } {
  const found: WrongValue[] = [];
  const notFound: string[] = [];
  for (const operation of OPERATION_NAMES) {
    for (const { name } of OPERATIONS[operation].inputs) {
      const wrong = wrongValueOf(operation, name);
      if (wrong) found.push(wrong);
      else notFound.push(inputKey(operation, name));
    }
  }
  return { found, notFound };
}
