// A message as data: our text, and the inputs it names, which each host says in its own terms when it
// shows the message (the action `Input "pr-number"`, the CLI `--pr-number or MERGE_QUEUE_PR_NUMBER`, the
// MCP server the tool's argument). Nothing is rewritten after it is made: a host words the parts.

/**
 * An input named inside a message: `subject` says it as the subject of a line about it, `name` says it,
 * `give` tells the reader to give it, `reach` says how its value reaches this run (a CI job's secret, a
 * terminal's exported variable), `supply` tells the reader how to put a secret's value where this run
 * reads it, `listed` says where the reader finds what the message counts (the summary shows some, the
 * file the input names holds every one).
 */
export interface InputPart {
  readonly input: string;
  readonly as: 'subject' | 'name' | 'give' | 'reach' | 'supply' | 'listed';
}

export type Part = string | InputPart;

/** A message's parts, in order. */
export type Words = readonly Part[];

/** How a host says the inputs a message names. */
export interface Wording {
  /** The subject of a line about one input: `Input "test-id"`, `--test-id or MERGE_QUEUE_TEST_ID`. */
  subject(input: string): string;
  /** The input named inside a sentence: `test-id`, `--test-id`. */
  name(input: string): string;
  /** Telling the reader to give it, lower case: `set the test-id input`, `give --test-id or …`. */
  give(input: string): string;
  /** How its value reaches the run, to check: `the secret is passed to this job`; the action's when absent. */
  reach?(input: string): string;
  /** How to put a secret's value where this run reads it, lower case; a CI job's secret when absent. */
  supply?(input: string): string;
  /**
   * Where the reader finds what a message counts, the file input `input` names holding every one, lower
   * case: `the job summary lists them; report-file has every one` when absent.
   */
  listed?(input: string): string;
  /** How the reader runs it again once it is fixed: `re-run the job` when absent. */
  readonly again?: string;
  /** How the reader runs another operation, in code: `operation: create-queue` when absent. */
  operation?(name: string): string;
}

/** The action's (and any CI job's) way a secret reaches the run. */
export function reachInCi(): string {
  return 'the secret is passed to this job';
}

/** The action's (and any CI job's) way to give a secret: from the CI's secrets, which a fork's run lacks. */
function supplyInCi(wording: Wording, input: string): string {
  return `${wording.give(input)} from a secret that holds your organization API token (Settings > Organization > API token); a job run for a fork or Dependabot PR gets empty secrets`;
}

/** How the reader runs operation `name`, as the host says it, in Markdown code. */
export function operationIn(wording: Wording, name: string): string {
  return wording.operation ? wording.operation(name) : `\`operation: ${name}\``;
}

/** An input's name as the host says it, as Markdown code: `wait-timeout-minutes`, `--wait-timeout-minutes`. */
export function codeNameIn(wording: Wording, input: string): string {
  return `\`${wording.name(input)}\``;
}

/** How the reader runs it again, as the host says it. */
export function againIn(wording: Wording): string {
  return wording.again ?? 're-run the job';
}

/** The action's words: its inputs as a workflow's `with:` names them. */
export const ACTION_WORDING: Wording = {
  subject: (input) => `Input "${input}"`,
  name: (input) => input,
  give: (input) => `set the ${input} input`,
};

/** The input as the subject of a line about it, as the host says it: `Input "api-token"`. */
export function subjectOf(input: string): InputPart {
  return { input, as: 'subject' };
}

/** The input's name, as the host says it. */
export function nameOf(input: string): InputPart {
  return { input, as: 'name' };
}

/** How the input's value reaches this run, as the host says it: "that {reach} ...". */
export function reach(input: string): InputPart {
  return { input, as: 'reach' };
}

/** How to put a secret's value where this run reads it, as the host says it. */
export function supply(input: string): InputPart {
  return { input, as: 'supply' };
}

/** Where the reader finds what the message counts, every one in the file `input` names. */
export function listedIn(input: string): InputPart {
  return { input, as: 'listed' };
}

/** Telling the reader to give the input, as the host says it (capitalised at a sentence's start). */
export function give(input: string): InputPart {
  return { input, as: 'give' };
}

/** Words from a template: `` words`Check ${nameOf('repo')}.` `` (numbers and strings are text). */
export function words(text: TemplateStringsArray, ...values: readonly (Part | Words | number)[]): Words {
  const parts: Part[] = [];
  text.forEach((piece, index) => {
    if (piece) parts.push(piece);
    if (index >= values.length) return;
    const value = values[index]!;
    if (Array.isArray(value)) parts.push(...(value as Words));
    else parts.push(typeof value === 'number' ? String(value) : (value as Part));
  });
  return parts;
}

/** Text or words as words. */
export function asWords(text: string | Words): Words {
  return typeof text === 'string' ? [text] : text;
}

/** The words as one host says them; a part that starts a sentence starts with a capital, a name excepted. */
export function say(message: string | Words, wording: Wording = ACTION_WORDING): string {
  let line = '';
  for (const part of asWords(message)) {
    if (typeof part === 'string') {
      line += part;
      continue;
    }
    const said = sayPart(part, wording);
    // A name is said as it is given (`notify-pr-comment`), even where it starts a sentence.
    const sentence = part.as !== 'name' && part.as !== 'subject' && /(^|[.!?]\s+)$/.test(line);
    line += sentence ? said.charAt(0).toUpperCase() + said.slice(1) : said;
  }
  return line;
}

function sayPart(part: InputPart, wording: Wording): string {
  switch (part.as) {
    case 'subject':
      return wording.subject(part.input);
    case 'name':
      return wording.name(part.input);
    case 'give':
      return wording.give(part.input);
    case 'reach':
      return (wording.reach ?? reachInCi)(part.input);
    case 'supply':
      return wording.supply ? wording.supply(part.input) : supplyInCi(wording, part.input);
    case 'listed':
      return wording.listed
        ? wording.listed(part.input)
        : `the job summary lists them; ${wording.name(part.input)} has every one`;
  }
}
