// The command line: `merge-queue-action <operation> [--<input> <value> ...] [options]`, read with Node's
// own util.parseArgs (no dependency, nothing added to the bundle). Every input of every operation is a
// flag named like the input; a flag given twice makes a list (one value per line).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { COMMON_INPUTS } from '../core/common-inputs.js';
import type { InputSpec } from '../core/inputs.js';
import { OPERATIONS } from '../core/operations/registry.js';
import { closestMatches } from '../core/suggest.js';

/** The CLI's own flags, beside the inputs. */
export const CLI_FLAGS = {
  host: { type: 'string' },
  json: { type: 'boolean' },
  'outputs-file': { type: 'string' },
  'summary-file': { type: 'string' },
  'dotenv-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

/** Every input any operation reads, each once, common ones first. */
export const ALL_INPUTS: readonly InputSpec[] = [
  ...new Map(
    [...COMMON_INPUTS, ...Object.values(OPERATIONS).flatMap((row) => row.inputs)].map((spec) => [
      spec.name,
      spec,
    ]),
  ).values(),
];

const OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  ...Object.fromEntries(ALL_INPUTS.map((spec) => [spec.name, { type: 'string', multiple: true }])),
  ...CLI_FLAGS,
};
const KNOWN_FLAGS = Object.keys(OPTIONS);

export interface CommandLine {
  operation?: string;
  /** Inputs given as flags (a flag given twice: one value per line). */
  inputs: Record<string, string>;
  host?: string;
  json: boolean;
  help: boolean;
  version: boolean;
  files: { outputs?: string; summary?: string; dotenv?: string };
}

/** A command line that cannot be read: one line saying what and how to fix it. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseCommandLine(args: string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(explain(error as NodeJS.ErrnoException, args));
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, string | string[] | boolean | undefined>;
  if (positionals.length > 1) {
    throw new UsageError(
      `Unexpected argument ${JSON.stringify(positionals[1])}: give one operation, then --<input> <value> flags.`,
    );
  }
  const inputs: Record<string, string> = {};
  for (const spec of ALL_INPUTS) {
    const given = values[spec.name];
    if (Array.isArray(given)) inputs[spec.name] = given.join('\n');
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    operation: positionals[0],
    inputs,
    host: text(values.host),
    json: values.json === true,
    help: values.help === true,
    version: values.version === true,
    files: {
      outputs: text(values['outputs-file']),
      summary: text(values['summary-file']),
      dotenv: text(values['dotenv-file']),
    },
  };
}

function explain(error: NodeJS.ErrnoException, args: string[]): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const unknown = firstUnknownFlag(args);
    if (unknown) {
      const [closest] = closestMatches(unknown.replace(/^-+/, ''), KNOWN_FLAGS, 1);
      const hint = closest ? `; did you mean --${closest}?` : '';
      return `Unknown flag ${unknown}${hint} (see --help for the flags an operation takes).`;
    }
  }
  // parseArgs' own messages name the flag; keep them to one line.
  return error.message.replace(/\s+/g, ' ').trim();
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
  return token?.kind === 'option' ? token.rawName : undefined;
}
