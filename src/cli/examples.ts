// The registry rows' examples as the CLI shows and runs them: each input as its flag (`--pr-number 12`,
// a list as the flag once per value, a boolean as `--strict` or `--no-strict`), then the CLI's own flags
// the example adds (`--yes`, `--json`).
import { type OperationExample, type OperationName, OPERATIONS } from '../core/index.js';

export interface CliExample {
  /** What it does, as a shell comment above the command. */
  about: string;
  /** The arguments after the operation's name, exactly as the help shows them and the tests run them. */
  args: string[];
  /** The exit code it ends with (0 unless `about` says otherwise). */
  exitCode: number;
}

/** The arguments after the operation's name that set what the example sets. */
export function exampleArgs({ inputs = {}, cli = [] }: OperationExample): string[] {
  const flags = Object.entries(inputs).flatMap(([name, value]) => {
    if (typeof value === 'boolean') return [value ? `--${name}` : `--no-${name}`];
    if (typeof value === 'string') return [`--${name}`, value];
    return value.flatMap((one) => [`--${name}`, one]);
  });
  return [...flags, ...cli];
}

/** An operation's examples as command lines, its sample first. */
export function cliExamples(operation: OperationName): CliExample[] {
  return OPERATIONS[operation].examples.map((example) => ({
    about: example.about,
    args: exampleArgs(example),
    exitCode: example.exitCode ?? 0,
  }));
}

/** An argument as a shell takes it: quoted only when it holds something the shell would read. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
