// The command line: `merge-queue-action <operation> [--<input> <value> ...] [options]`, read with Node's
// own util.parseArgs (no dependency, nothing added to the bundle). Every input of every operation is a
// flag named like the input; a flag given twice makes a list (one value per line). Booleans are flags,
// `--strict` and `--no-strict`, which the older `--strict true` still spells; parseArgs reads them after
// spellBooleans() has written each as `--name=value`, so that a boolean never swallows the next argument.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  closestMatches,
  COMMON_INPUTS,
  type InputSpec,
  isOperationName,
  OPERATIONS,
  toKebabCase,
} from '../core/index.js';
import { COLOUR_CHOICES, type ColourChoice } from '../hosts/common/colour.js';
import { STANDARD_STREAM } from '../hosts/common/files.js';

interface FlagSpec {
  boolean?: true;
  short?: string;
}

/** The CLI's own flags, beside the inputs. */
export const CLI_FLAGS: Record<string, FlagSpec> = {
  host: {},
  json: { boolean: true },
  color: {},
  'outputs-file': {},
  'summary-file': {},
  'dotenv-file': {},
  help: { boolean: true, short: 'h' },
  version: { boolean: true, short: 'V' },
  yes: { boolean: true, short: 'y' },
};

/** Every input any operation reads, each once, common ones first. */
export const ALL_INPUTS: readonly InputSpec[] = [
  ...new Map(
    [...COMMON_INPUTS, ...Object.values(OPERATIONS).flatMap((row) => row.inputs)].map((spec) => [
      spec.name,
      spec,
    ]),
  ).values(),
];

const FLAGS = new Map<string, FlagSpec>([...ALL_INPUTS.map((spec) => [spec.name, spec] as const)]);
for (const [name, spec] of Object.entries(CLI_FLAGS)) FLAGS.set(name, spec);
const SHORT_FLAGS = new Map(
  Object.entries(CLI_FLAGS).flatMap(([name, spec]) => (spec.short ? [[`-${spec.short}`, name]] : [])),
);

// Every flag is a string to parseArgs: booleans arrive as --name=true|false (spellBooleans).
const OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  [...FLAGS.keys()].map((name) => [name, { type: 'string', multiple: true }]),
);
const KNOWN_FLAGS = [
  ...FLAGS.keys(),
  ...[...FLAGS].filter(([, spec]) => spec.boolean).map(([name]) => `no-${name}`),
];

const BOOLEAN_WORD = /^(true|false|yes|no|on|off|1|0)$/i;
const TRUE_WORD = /^(true|yes|on|1)$/i;

export interface CommandLine {
  operation?: string;
  /** `help` or `help <operation>` was given as the command. */
  helpCommand: boolean;
  /** Inputs given as flags (a flag given twice: one value per line). */
  inputs: Record<string, string>;
  host?: string;
  json: boolean;
  help: boolean;
  version: boolean;
  /** --yes: run an operation that cannot be taken back without asking first. */
  yes: boolean;
  colour: ColourChoice;
  files: { outputs?: string; summary?: string; dotenv?: string };
}

/** A command line that cannot be read: what is wrong, then what to do. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCommandLine(args: string[]): CommandLine {
  const { spelt, positions } = spellBooleans(args);
  let parsed;
  try {
    parsed = parseArgs({ args: spelt, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(explain(error as NodeJS.ErrnoException, spelt));
  }
  const values = parsed.values as Record<string, string[] | undefined>;
  const [first, ...rest] = parsed.positionals;
  const helpCommand = first === 'help';
  const operation = helpCommand ? rest.shift() : first;
  if (rest.length) {
    const position = positions[parsed.positionals.length - rest.length] ?? args.length - 1;
    throw new UsageError(unexpected(rest[0]!, position + 1));
  }
  const inputs: Record<string, string> = {};
  for (const spec of ALL_INPUTS) {
    const given = values[spec.name];
    // A boolean given twice (--strict --no-strict) is what it was last; other flags make a list.
    if (given) inputs[spec.name] = spec.boolean ? given.at(-1)! : given.join('\n');
  }
  const last = (name: string) => values[name]?.at(-1);
  return {
    operation,
    helpCommand,
    inputs,
    host: last('host'),
    json: flagIsOn('json', last('json')),
    help: flagIsOn('help', last('help')),
    version: flagIsOn('version', last('version')),
    yes: flagIsOn('yes', last('yes')),
    colour: colourChoice(last('color')),
    files: { outputs: last('outputs-file'), summary: last('summary-file'), dotenv: last('dotenv-file') },
  };
}

/** A stray argument is never shown (it may be a token pasted in the wrong place), only where it is. */
function unexpected(value: string, position: number): string {
  const what = isOperationName(toKebabCase(value))
    ? `a second operation, ${toKebabCase(value)}`
    : `${value.length} character${value.length === 1 ? '' : 's'}, not shown as it may be a secret`;
  return `unexpected argument ${position} (${what}). Give one operation, then --<input> <value> flags; keep a secret in its variable (MERGE_QUEUE_API_TOKEN), not on the command line.`;
}

function flagIsOn(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (!BOOLEAN_WORD.test(value)) {
    throw new UsageError(`--${name} takes no value. Give --${name} alone, or --no-${name}.`);
  }
  return TRUE_WORD.test(value);
}

function colourChoice(value: string | undefined): ColourChoice {
  if (value === undefined) return 'auto';
  const choice = COLOUR_CHOICES.find((known) => known === value.toLowerCase());
  if (choice) return choice;
  throw new UsageError(`--color takes ${COLOUR_CHOICES.join(', ')}. Give one of those (--color=never).`);
}

/**
 * The arguments with every boolean flag written as `--name=value`: `--strict` and `--strict true` as
 * --strict=true, `--no-strict` as --strict=false, `-h` as --help=true. `--no-batch` is the no-batch input
 * of submit-pull-request but `batch` set to false for an operation that reads batch and not no-batch.
 */
function spellBooleans(args: string[]): Walked {
  const operation = walk(args, undefined).operation;
  const name = operation && toKebabCase(operation);
  const reads =
    name && isOperationName(name) ? new Set(OPERATIONS[name].inputs.map((i) => i.name)) : undefined;
  return walk(args, reads);
}

interface Walked {
  spelt: string[];
  /** Where each positional argument is in the arguments as given. */
  positions: number[];
  operation?: string;
}

function walk(args: string[], reads: Set<string> | undefined): Walked {
  const spelt: string[] = [];
  const positions: number[] = [];
  let operation: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      spelt.push(...args.slice(i));
      positions.push(...args.slice(i + 1).map((_, k) => i + 1 + k));
      operation ??= args[i + 1];
      break;
    }
    const short = SHORT_FLAGS.get(arg);
    if (short) {
      spelt.push(`--${short}=true`);
      continue;
    }
    if (!arg.startsWith('--')) {
      spelt.push(arg);
      if (arg === STANDARD_STREAM || !arg.startsWith('-')) positions.push(i);
      if (!arg.startsWith('-')) operation ??= arg;
      continue;
    }
    const equals = arg.indexOf('=');
    const written = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
    const inline = equals < 0 ? undefined : arg.slice(equals + 1);
    const boolean = booleanFlag(written, reads);
    if (!boolean) {
      spelt.push(arg);
      // A flag that takes a value takes the next argument, whatever it is (`--outputs-file -`).
      if (inline === undefined && FLAGS.has(written) && i + 1 < args.length) spelt.push(args[++i]!);
      continue;
    }
    if (boolean.negated && inline !== undefined) {
      throw new UsageError(`--${written} takes no value. Give --${written} alone, or --${boolean.name}.`);
    }
    const next = args[i + 1];
    if (inline !== undefined) spelt.push(`--${boolean.name}=${inline}`);
    else if (!boolean.negated && next !== undefined && BOOLEAN_WORD.test(next)) {
      spelt.push(`--${boolean.name}=${next}`);
      i++;
    } else spelt.push(`--${boolean.name}=${boolean.negated ? 'false' : 'true'}`);
  }
  return { spelt, positions, operation };
}

/** The boolean a flag as written sets, and whether it is the --no- form; undefined for other flags. */
function booleanFlag(written: string, reads: Set<string> | undefined) {
  const isBoolean = (name: string) => FLAGS.get(name)?.boolean === true;
  const isRead = (name: string) => !reads || reads.has(name) || name in CLI_FLAGS;
  const positive = isBoolean(written) ? written : undefined;
  const negative = written.startsWith('no-') && isBoolean(written.slice(3)) ? written.slice(3) : undefined;
  if (negative && (!positive || (!isRead(positive) && isRead(negative)))) {
    return { name: negative, negated: true };
  }
  return positive ? { name: positive, negated: false } : undefined;
}

function explain(error: NodeJS.ErrnoException, args: string[]): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const unknown = firstUnknownFlag(args);
    if (unknown) {
      const [closest] = closestMatches(unknown.replace(/^-+/, ''), KNOWN_FLAGS, 1);
      const hint = closest ? `Did you mean --${closest}? ` : '';
      return `unknown flag ${unknown}. ${hint}Run \`merge-queue-action help <operation>\` for the flags an operation takes.`;
    }
  }
  // parseArgs' own messages name the flag (never a value); keep them to one line.
  const said = error.message.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return `${said}. Run \`merge-queue-action help\` for the usage.`;
}

/** The first flag no operation knows, as written (without any =value). */
function firstUnknownFlag(args: string[]): string | undefined {
  const { tokens } = parseArgs({
    args,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const token = tokens.find((t) => t.kind === 'option' && !(t.name in OPTIONS));
  return token?.kind === 'option' ? token.rawName.split('=')[0] : undefined;
}
