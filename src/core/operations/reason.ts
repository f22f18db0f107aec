// The reason a person gives for a queue write (pause, drain, update, cancel). Neither API version takes
// one, so it is never sent: it is shown with who ran the step in this step's log, summary and page.
import { InputError } from '../errors.js';
import type { Inputs, InputSpec } from '../inputs.js';

const MAX_REASON_CHARS = 200;

export const REASON_INPUT: InputSpec = {
  name: 'reason',
  description:
    'Why (e.g. "release freeze"), one line of at most 200 characters: shown with who ran the step in the log, the summary and the CLI page. The service stores no reason, so it is not sent.',
};

export function readReason(input: Inputs): string | undefined {
  const reason = input.line('reason');
  if (reason.length > MAX_REASON_CHARS) {
    throw new InputError(
      'reason',
      `is ${reason.length} characters long, more than ${MAX_REASON_CHARS}`,
      'Say why in one short line; link to the longer story.',
    );
  }
  return reason || undefined;
}

/** "by alice: release freeze", "by alice", ": release freeze" (for "Paused ..."), or ''. */
export function byAndWhy(actor: string | undefined, reason: string | undefined): string {
  return `${actor ? ` by ${actor}` : ''}${reason ? `: ${reason}` : ''}`;
}
