// The CircleCI orb as `circleci orb pack` assembles it from orb/ (the CLI is not installable here): the
// @orb.yml root, one element per file under commands/, jobs/, executors/ and examples/, and
// <<include(file)>> replaced by the file's text. Also a checker of the reusable-config rules the orb
// registry enforces on publish: required keys, parameter types and defaults, and every parameter
// reference and command invocation resolved.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';

export type Element = Record<string, unknown>;

export interface PackedOrb {
  version: unknown;
  description: unknown;
  display?: Record<string, unknown>;
  commands: Record<string, Element>;
  jobs: Record<string, Element>;
  executors: Record<string, Element>;
  examples: Record<string, Element>;
}

const INCLUDE = /<<\s*include\(([^)]+)\)\s*>>/g;

export function packOrb(dir: string): PackedOrb {
  const root = parse(readFileSync(join(dir, '@orb.yml'), 'utf8')) as Element;
  const elements = (kind: string): Record<string, Element> =>
    Object.fromEntries(
      readdirSync(join(dir, kind))
        .filter((file) => file.endsWith('.yml'))
        .map((file) => {
          const text = readFileSync(join(dir, kind, file), 'utf8').replace(INCLUDE, (_, path: string) =>
            // A block scalar keeps the script byte for byte, as pack does.
            JSON.stringify(readFileSync(join(dir, path.trim()), 'utf8')),
          );
          return [basename(file, '.yml'), parse(text) as Element];
        }),
    );
  return {
    ...(root as Omit<PackedOrb, 'commands' | 'jobs' | 'executors' | 'examples'>),
    commands: elements('commands'),
    jobs: elements('jobs'),
    executors: elements('executors'),
    examples: elements('examples'),
  };
}

export const PARAMETER_TYPES = ['string', 'boolean', 'integer', 'enum', 'executor', 'steps', 'env_var_name'];

export const BUILT_IN_STEPS = new Set([
  'run',
  'checkout',
  'setup_remote_docker',
  'save_cache',
  'restore_cache',
  'store_artifacts',
  'store_test_results',
  'persist_to_workspace',
  'attach_workspace',
  'add_ssh_keys',
  'when',
  'unless',
]);

interface Parameter {
  type?: unknown;
  default?: unknown;
  description?: unknown;
  enum?: unknown;
}

/** What is wrong with one element's parameters, as "where: what" lines. */
export function parameterProblems(where: string, element: Element, executors: string[]): string[] {
  const problems: string[] = [];
  const parameters = (element.parameters ?? {}) as Record<string, Parameter>;
  for (const [name, parameter] of Object.entries(parameters)) {
    const at = `${where} parameter ${name}`;
    if (!PARAMETER_TYPES.includes(String(parameter.type)))
      problems.push(`${at}: type ${String(parameter.type)}`);
    if (typeof parameter.description !== 'string' || !parameter.description)
      problems.push(`${at}: no description`);
    if (!('default' in parameter)) continue;
    const value = parameter.default;
    const fits = {
      string: typeof value === 'string',
      boolean: typeof value === 'boolean',
      integer: Number.isInteger(value),
      enum: Array.isArray(parameter.enum) && parameter.enum.includes(value),
      executor: typeof value === 'string' && executors.includes(value),
      steps: Array.isArray(value),
      env_var_name: typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value),
    }[String(parameter.type)];
    if (!fits) problems.push(`${at}: default ${JSON.stringify(value)} is not a ${String(parameter.type)}`);
  }
  if (parameters && Object.values(parameters).some((p) => p.type === 'enum' && !Array.isArray(p.enum)))
    problems.push(`${where}: an enum parameter without its enum list`);
  // Every << parameters.x >> the element uses is one it declares.
  const used = JSON.stringify(element).matchAll(/<<\s*parameters\.([\w-]+)\s*>>/g);
  for (const [, name] of used) if (!(name! in parameters)) problems.push(`${where}: uses undeclared ${name}`);
  return problems;
}

/** What is wrong with the steps' invocations of the orb's commands (name is the orb's alias or ''). */
export function invocationProblems(
  where: string,
  steps: unknown,
  commands: Record<string, Element>,
  prefix = '',
): string[] {
  if (!Array.isArray(steps) || steps.length === 0) return [`${where}: no steps`];
  const problems: string[] = [];
  for (const step of steps) {
    const [name, args] = typeof step === 'string' ? [step, {}] : Object.entries(step as Element)[0]!;
    if (BUILT_IN_STEPS.has(name)) continue;
    const command = name.startsWith(prefix) ? commands[name.slice(prefix.length)] : undefined;
    if (!command) {
      problems.push(`${where}: step ${name} is neither built in nor a command of the orb`);
      continue;
    }
    problems.push(...argumentProblems(`${where} step ${name}`, command, (args ?? {}) as Element));
  }
  return problems;
}

/** Arguments given to a command or job: each declared, and every parameter without a default given. */
export function argumentProblems(where: string, element: Element, args: Element, ignore: string[] = []) {
  const parameters = (element.parameters ?? {}) as Record<string, Parameter>;
  const problems: string[] = [];
  for (const name of Object.keys(args))
    if (!(name in parameters) && !ignore.includes(name)) problems.push(`${where}: unknown parameter ${name}`);
  for (const [name, parameter] of Object.entries(parameters))
    if (!('default' in parameter) && !(name in args)) problems.push(`${where}: missing parameter ${name}`);
  return problems;
}

/** Keys CircleCI accepts on any job in a workflow, beside the job's own parameters. */
export const WORKFLOW_JOB_KEYS = [
  'requires',
  'context',
  'filters',
  'name',
  'matrix',
  'type',
  'pre-steps',
  'post-steps',
];
