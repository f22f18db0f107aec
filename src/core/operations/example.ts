// An operation's examples, declared in its registry row and host-neutral: what it does and the inputs it
// sets by name. The CLI shows them as command lines in --help, docs/reference.md as the action's `with:`,
// and the suites that run every operation run the first one (the operation's sample).

/** A value an example gives an input: text, a list (one value each, one a line), or on/off. */
export type ExampleValue = string | boolean | readonly string[];

/** The CLI's own flags an example may add (the other hosts have no such thing to set). */
export type CliOnlyFlag = '--json' | '--yes';

export interface OperationExample {
  /** What it does, one line: a comment above the command or the step. */
  about: string;
  /** The inputs it sets, by input name, in the order they are shown. */
  inputs?: Readonly<Record<string, ExampleValue>>;
  /** The exit code it ends with where that is not 0 (what `about` says). */
  exitCode?: number;
  /** Flags only the CLI has, shown after the inputs: a script's `--yes`, a program's `--json`. */
  cli?: readonly CliOnlyFlag[];
}

/** At least one: the first is the operation's sample. */
export type OperationExamples = readonly [OperationExample, ...OperationExample[]];

/** The inputs an example sets as the action and the variables take them: text, a list one value a line. */
export function exampleInputs(example: OperationExample): Record<string, string> {
  return Object.fromEntries(
    Object.entries(example.inputs ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' || typeof value === 'boolean' ? String(value) : value.join('\n'),
    ]),
  );
}
