// The one error a targets config gives, and a problem found in a config the schema accepts, which the
// caller places in the file (the quick path and config-problems.ts place it each their own way).
import { InputError } from '../../../errors.js';

export const CONFIG_INPUT = 'targets-config';

export function configError(problem: string, fix: string): InputError {
  return new InputError(CONFIG_INPUT, problem, fix);
}

/** A problem with a config the schema accepts, at a path of the document. */
export class ConfigProblem extends Error {
  constructor(
    readonly path: string[],
    readonly problem: string,
    readonly fix: string,
  ) {
    super(problem);
  }
}
