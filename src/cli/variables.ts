// MERGE_QUEUE_* variables nobody reads: most often a misspelt input, which would otherwise be ignored
// without a word. Each gets one warning line with the closest known name; its value is never shown.
import { closestMatches } from '../core/index.js';
import type { Environment } from '../hosts/common/pipeline-context.js';
import { ALL_INPUTS } from './args.js';
import { COMMAND, variableOf } from './help.js';

const PREFIX = 'MERGE_QUEUE_';

/** Variables of ours that are not inputs: the host, the operation, and what our own examples set. */
const OTHER_VARIABLES = ['MERGE_QUEUE_HOST', 'MERGE_QUEUE_OPERATION', 'MERGE_QUEUE_CLI'];

/** GitLab hands a job's outputs to later jobs as MERGE_QUEUE_OUTPUT_<NAME> (see dotenvName). */
const OUTPUT_PREFIX = 'MERGE_QUEUE_OUTPUT_';

const KNOWN = [...ALL_INPUTS.map((spec) => variableOf(spec.name)), ...OTHER_VARIABLES];

export function unknownVariableWarnings(env: Environment): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith(PREFIX) && !name.startsWith(OUTPUT_PREFIX) && !KNOWN.includes(name))
    .sort()
    .map((name) => {
      const [closest] = closestMatches(
        name.slice(PREFIX.length),
        KNOWN.map((known) => known.slice(PREFIX.length)),
        1,
      );
      const advice = closest
        ? `Did you mean ${PREFIX}${closest}?`
        : `Run \`${COMMAND} help\` for the inputs and their variables.`;
      return `${name} is set but is no variable ${COMMAND} reads, so it was ignored. ${advice}`;
    });
}
