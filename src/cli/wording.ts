// How the CLI's messages name an input: the flag and its variable (the token only by its variables: it
// has no flag, so that it never shows in a process list).
import type { Wording } from '../core/index.js';
import { variablesOf } from './help.js';

function given(input: string): string {
  const variables = variablesOf(input).join(' or ');
  return input === 'api-token' ? variables : `--${input} or ${variables}`;
}

export const CLI_WORDING: Wording = {
  subject: given,
  name: (input) => (input === 'api-token' ? variablesOf(input)[0]! : `--${input}`),
  give: (input) => `${input === 'api-token' ? 'set' : 'give'} ${given(input)}`,
  operation: (name) => `\`merge-queue-action ${name}\``,
};

/**
 * On a terminal (no CI job), a value reaches the run from the shell: the token as its variable (export
 * MERGE_QUEUE_API_TOKEN=...), the other inputs as a flag or their variable.
 */
export const TERMINAL_WORDING: Wording = {
  ...CLI_WORDING,
  reach: (input) =>
    input === 'api-token'
      ? `${given(input)} is exported in this shell (export ${variablesOf(input)[0]}=<token>)`
      : `${given(input)} is given`,
  supply: (input) =>
    `export ${variablesOf(input)[0]}=<token> in this shell, with your organization API token (Settings > Organization > API token)`,
  // The page shows what a CI job's summary would; a report file is kept only when given.
  listed: (input) => `the page lists them; ${given(input)} keeps every one in a file`,
  again: 'run the command again',
};
