// Reads the targets config: YAML -> one schema -> compiled patterns. A config that cannot be used fails
// with the file, the line and column, what is wrong there and what to write instead: unknown keys are
// named with the keys allowed at that place. Nothing else is read before the config is known good.
// A good config is read with js-yaml and checked in plain code; what explains a bad one (the yaml
// library, which keeps every node's place, and the schema) is loaded only then, from config-problems.ts.
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { CORE_SCHEMA, load } from 'js-yaml';
import { InputError } from '../../../errors.js';
import { CheckoutFileRefusal, readCheckoutFile } from '../../../files.js';
import { quoted } from '../../../inputs.js';
import { isTargetsConfig } from './config-check.js';
import { CONFIG_INPUT, ConfigProblem, configError } from './config-error.js';
import type { RuleDocument, TargetsConfigDocument } from './config-schema.js';
import { PatternError, compilePattern, compileTemplate, templateNames, type PathPattern } from './pattern.js';
import { PatternIndex } from './pattern-index.js';
import type { LockfileMode, PeersMode } from './workspace-settings.js';

const MAX_CONFIG_BYTES = 1024 * 1024;
/** The built-in docs preset: prose and the docs site, never code a build or a test runs. */
export const DOCS_GLOBS = [
  '**/*.md',
  '**/*.mdx',
  '**/*.rst',
  '**/*.adoc',
  'docs/**',
  '**/LICENSE',
  '**/LICENSE.*',
  '.github/ISSUE_TEMPLATE/**',
] as const;
const DEFAULT_COMMAND_TIMEOUT_SECONDS = 120;

export interface CompiledRule {
  /** Its name, else its first glob: how summaries and lint name it. */
  label: string;
  /** `rule <label>`, as the summary says why a target is impacted. */
  via: string;
  patterns: PathPattern[];
  excludes: PathPattern[];
  targets: string[];
  /** The targets with a file's captured values put in. */
  targetsFor(captures: Record<string, string>): string[];
}

export interface WorkspacesConfig {
  target: string;
  depth: 1 | 'all';
  root?: string;
  /** Changed files that impact their own package but not its dependents (pnpm's testPattern). */
  tests: PatternIndex<string>;
  implicit?: Map<string, string[]>;
  /** The package manager's rules, when the config overrides them (else each manager's own). */
  peers?: PeersMode;
  lockfile?: LockfileMode;
  /** Whether a rename's old path claims its package too (both), or only its new path does (the managers'). */
  renames: 'new-path' | 'both';
}

export type UnmatchedPolicy = { kind: 'all' } | { kind: 'ignore' } | { kind: 'target'; target: string };

export interface TargetsConfig {
  /** The path as the user gave it, for messages. */
  file: string;
  rules: CompiledRule[];
  /** Every rule's match globs, indexed; the value is the rule's position. */
  ruleIndex: PatternIndex<number>;
  barriers: PatternIndex<string>;
  inert: PatternIndex<string>;
  inertTarget?: string;
  unmatched: UnmatchedPolicy;
  deletedUnmatched: 'all' | 'like-unmatched';
  groups: Map<string, string[]>;
  workspaces?: WorkspacesConfig;
  /** The built-in docs preset: its files claim nothing (ignore) or one target. */
  docs?: { index: PatternIndex<string>; target?: string };
  command?: { run: string[]; timeoutMs: number };
  mergeQueueTarget?: string;
  maxTargets?: number;
}

/** Reads and checks the config file at `path` (relative to `cwd`, the checkout). */
export async function loadTargetsConfig(path: string, cwd: string): Promise<TargetsConfig> {
  return parseTargetsConfig(await readConfigText(path, cwd), path);
}

/**
 * The config's text. A PR's author controls the checkout, so the file is read by its real path inside
 * it (a symlink to /proc/self/environ or out of the working directory is refused), a regular file of at
 * most 1 MiB whatever its size says. A path given outside the checkout is the workflow's own choice (a
 * config kept out of the PR's reach): read inside its own directory by the same rules.
 */
async function readConfigText(path: string, cwd: string): Promise<string> {
  await checkoutDirectory(cwd);
  const absolute = resolve(cwd, path);
  const inCheckout = !relative(cwd, absolute).startsWith('..') && !isAbsolute(relative(cwd, absolute));
  try {
    const content = await readCheckoutFile(inCheckout ? cwd : dirname(absolute), absolute, MAX_CONFIG_BYTES);
    return content.toString('utf8');
  } catch (error) {
    if (!(error instanceof CheckoutFileRefusal)) throw error;
    throw new InputError(CONFIG_INPUT, `${quoted(path)} ${error.message}`, CONFIG_FIXES[error.reason]);
  }
}

/** The checkout (working-directory) the config is read in: a directory, or the line names that input. */
async function checkoutDirectory(cwd: string): Promise<void> {
  const found = await stat(cwd).catch(() => undefined);
  if (!found?.isDirectory()) {
    throw new InputError(
      'working-directory',
      `${quoted(cwd)} is not a directory`,
      'Point it at the root of the checked-out repository (where git runs and targets-config is read).',
    );
  }
}

const CONFIG_FIXES: Record<CheckoutFileRefusal['reason'], string> = {
  missing:
    'Create it (see docs/impacted-targets.md for the format), check the path, or make sure the job checks out the repository first.',
  outside: 'Commit the config itself as a regular file in the repository, not a symlink out of it.',
  'not-a-file': 'Set it to the path of the YAML config, a regular file.',
  'too-large':
    'A targets config is a few rules; use captures such as services/{name}/** instead of one rule per directory.',
  unreadable: 'Make it a readable regular file.',
};

/** Checks a config given as text; `file` names it in messages. */
export async function parseTargetsConfig(text: string, file: string): Promise<TargetsConfig> {
  const data = quickParse(text);
  const checked =
    data !== undefined && isTargetsConfig(data)
      ? data
      : (await import('./config-problems.js')).checkWithPlaces(text, file);
  try {
    return compile(checked, file);
  } catch (error) {
    if (!(error instanceof ConfigProblem)) throw error;
    const { placeOf } = await import('./config-problems.js');
    throw configError(`${placeOf(text, file, error.path)}: ${error.problem}`, error.fix);
  }
}

/**
 * A good config's data, by js-yaml: several times faster than the yaml library, which keeps every
 * node's place for the messages about a bad one (a config of 500 rules takes the yaml library tens of
 * milliseconds). Both read YAML 1.2's core schema; undefined sends the text to the yaml library, which
 * then decides, also when js-yaml refuses it. Binary integers (`0b11`) are the one core scalar that
 * js-yaml reads and the yaml library does not: such text always goes to the yaml library.
 */
function quickParse(text: string): unknown {
  if (/\b0b[01]/.test(text)) return undefined;
  try {
    return load(text, { schema: CORE_SCHEMA }) ?? {};
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Compiling

/** The checked document made ready to use; a problem found here is thrown as a ConfigProblem. */
export function compile(config: TargetsConfigDocument, file: string): TargetsConfig {
  const globs = (value: string | string[] | undefined, path: string[]) =>
    value === undefined
      ? []
      : typeof value === 'string'
        ? [pattern(value, path)]
        : value.map((source, i) => pattern(source, [...path, String(i)]));

  const ruleIndex = new PatternIndex<number>();
  const rules = (config.rules ?? []).map((rule: RuleDocument, index): CompiledRule => {
    const path = ['rules', String(index)];
    const patterns = globs(rule.match, [...path, 'match']);
    const excludes = globs(rule.exclude, [...path, 'exclude']);
    rule.targets.forEach((target, t) => {
      for (const name of templateNames(target)) {
        const missing = patterns.find((p) => !p.captures.includes(name));
        if (missing) {
          throw new ConfigProblem(
            [...path, 'targets', String(t)],
            `target "${target}" uses {${name}}, which the match glob "${missing.source}" does not capture`,
            `Capture it in every match glob of the rule (e.g. services/{${name}}/**), or remove {${name}} from the target.`,
          );
        }
      }
    });
    for (const compiled of patterns) ruleIndex.add(compiled, index);
    const label = rule.name ?? patterns[0]?.source ?? `rule ${index + 1}`;
    const fillers = rule.targets.map(compileTemplate);
    return {
      label,
      via: `rule ${label}`,
      patterns,
      excludes,
      targets: rule.targets,
      targetsFor: rule.targets.some((target) => target.includes('{'))
        ? (captures) => fillers.map((fill) => fill(captures))
        : () => rule.targets,
    };
  });

  const command = config.dependents?.command;
  const unmatched = config.unmatched ?? 'all';
  return {
    file,
    rules,
    ruleIndex,
    barriers: indexOf(config.barriers, 'barriers'),
    inert: indexOf(config.inert, 'inert'),
    inertTarget: config['inert-target'],
    unmatched:
      unmatched === 'all' || unmatched === 'ignore'
        ? { kind: unmatched }
        : { kind: 'target', target: unmatched.target },
    deletedUnmatched: config['deleted-unmatched'] ?? 'like-unmatched',
    groups: new Map(Object.entries(config.groups ?? {})),
    workspaces: workspacesOf(config.dependents?.workspaces),
    docs: config.docs && {
      index: indexOf(DOCS_GLOBS, 'docs'),
      target: config.docs === 'ignore' ? undefined : config.docs.target,
    },
    command: command && {
      run: command.run,
      timeoutMs: (command['timeout-seconds'] ?? DEFAULT_COMMAND_TIMEOUT_SECONDS) * 1000,
    },
    mergeQueueTarget: config['merge-queue-target'],
    maxTargets: config['max-targets'],
  };
}

function pattern(source: string, path: string[]): PathPattern {
  try {
    return compilePattern(source);
  } catch (error) {
    if (error instanceof PatternError) {
      throw new ConfigProblem(path, error.message, 'See "Globs" in docs/impacted-targets.md.');
    }
    throw error;
  }
}

function indexOf(list: readonly string[] | undefined, ...key: string[]): PatternIndex<string> {
  const index = new PatternIndex<string>();
  (list ?? []).forEach((source, i) => index.add(pattern(source, [...key, String(i)]), source));
  return index;
}

type WorkspacesDocument = NonNullable<NonNullable<TargetsConfigDocument['dependents']>['workspaces']>;

function workspacesOf(workspaces: WorkspacesDocument | undefined): WorkspacesConfig | undefined {
  if (!workspaces) return undefined;
  const unknown =
    workspaces.target && templateNames(workspaces.target).find((name) => name !== 'name' && name !== 'dir');
  if (unknown) {
    throw new ConfigProblem(
      ['dependents', 'workspaces', 'target'],
      `{${unknown}} is not known here`,
      'A workspace target may use {name} (the package name) and {dir} (its directory).',
    );
  }
  return {
    target: workspaces.target ?? '{name}',
    depth: workspaces.depth ?? 'all',
    root: workspaces.root,
    tests: indexOf(workspaces.tests, 'dependents', 'workspaces', 'tests'),
    implicit: workspaces.implicit && implicitOf(workspaces.implicit),
    peers: workspaces.peers,
    lockfile: workspaces.lockfile,
    renames: workspaces.renames ?? 'new-path',
  };
}

/** Each implicit dependents' glob checked (by compiling it) where the config says it. */
function implicitOf(implicit: Record<string, string | string[]>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [name, value] of Object.entries(implicit)) {
    const globs = typeof value === 'string' ? [value] : value;
    globs.forEach((glob, i) => pattern(glob, ['dependents', 'workspaces', 'implicit', name, String(i)]));
    map.set(name, globs);
  }
  return map;
}
