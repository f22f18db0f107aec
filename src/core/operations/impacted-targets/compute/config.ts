// Reads the targets config: YAML -> one schema -> compiled patterns. A config that cannot be used fails
// with the file, the line and column, what is wrong there and what to write instead: unknown keys are
// named with the keys allowed at that place. Nothing else is read before the config is known good.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value, type ValueError } from '@sinclair/typebox/value';
import { CORE_SCHEMA, load } from 'js-yaml';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { InputError } from '../../../errors.js';
import { closestMatches } from '../../../suggest.js';
import {
  TargetsConfigSchema,
  allowedKeys,
  schemaAt,
  type RuleDocument,
  type TargetsConfigDocument,
} from './config-schema.js';
import {
  PatternError,
  PatternIndex,
  compilePattern,
  compileTemplate,
  templateNames,
  type PathPattern,
} from './pattern.js';

export const CONFIG_INPUT = 'targets-config';
const MAX_CONFIG_BYTES = 1024 * 1024;
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
  workspaces?: { target: string; depth: 1 | 'all' };
  command?: { run: string[]; timeoutMs: number };
  mergeQueueTarget?: string;
  maxTargets?: number;
}

/** Reads and checks the config file at `path` (relative to `cwd`). */
export function loadTargetsConfig(path: string, cwd: string): TargetsConfig {
  const absolute = resolve(cwd, path);
  return parseTargetsConfig(readConfigText(path, absolute), path);
}

function readConfigText(path: string, absolute: string): string {
  const where = absolute === path ? `"${path}"` : `"${path}" (${absolute})`;
  let size: number;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) {
      throw new InputError(CONFIG_INPUT, `${where} is not a file`, 'Set it to the path of the YAML config.');
    }
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new InputError(
        CONFIG_INPUT,
        `there is no file at ${where}`,
        'Create it (see docs/impacted-targets.md for the format), check the path, or make sure the job checks out the repository first.',
      );
    }
    throw new InputError(
      CONFIG_INPUT,
      `${where} cannot be read (${code ?? 'unknown error'})`,
      'Make it readable.',
    );
  }
  if (size > MAX_CONFIG_BYTES) {
    throw new InputError(
      CONFIG_INPUT,
      `${where} is ${size} bytes, over the limit of ${MAX_CONFIG_BYTES}`,
      'A targets config is a few rules; use captures such as services/{name}/** instead of one rule per directory.',
    );
  }
  return readFileSync(absolute, 'utf8');
}

/** Checks a config given as text; `file` names it in messages. */
export function parseTargetsConfig(text: string, file: string): TargetsConfig {
  const data = quickParse(text);
  if (data !== undefined && Value.Check(TargetsConfigSchema, data)) {
    return compile(data, file, (path) => placeOf(text, file, path));
  }
  return parseWithPlaces(text, file);
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

/** `file:line:col` of the node at `path`, for a problem found after the quick parse. */
function placeOf(text: string, file: string, path: string[]): string {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const { line, col } = lines.linePos(rangeOf(doc, path, false) ?? 0);
  return `${file}:${line}:${col}`;
}

function parseWithPlaces(text: string, file: string): TargetsConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined) => {
    const { line, col } = lines.linePos(offset ?? 0);
    return `${file}:${line}:${col}`;
  };
  const syntax = doc.errors[0];
  if (syntax) {
    const problem =
      syntax.code === 'DUPLICATE_KEY' ? 'a key appears twice in the same mapping' : oneLine(syntax.message);
    throw configError(`${at(syntax.pos[0])}: ${problem}`, 'Fix the YAML at that place.');
  }
  const data: unknown = doc.toJS() ?? {};
  if (!Value.Check(TargetsConfigSchema, data)) {
    throw schemaError(doc, data, [...Value.Errors(TargetsConfigSchema, data)], at);
  }
  const config = data as TargetsConfigDocument;
  return compile(config, file, (path) => at(rangeOf(doc, path, false)));
}

function configError(problem: string, fix: string): InputError {
  return new InputError(CONFIG_INPUT, problem, fix);
}

// ---------------------------------------------------------------------------------------------------
// Schema errors with their place

function schemaError(
  doc: Document,
  data: unknown,
  errors: ValueError[],
  at: (offset: number | undefined) => string,
): InputError {
  // Report the deepest problem first (a wrong key inside a rule says more than "not a valid union"),
  // and an unknown key before a missing one: the unknown key is most often the missing one misspelt.
  const error = errors.reduce((best, e) => (weight(e) > weight(best) ? e : best));
  const path = error.path.split('/').slice(1).map(unescapePointer);
  const here = displayPath(path);

  if (isUnknownKey(error)) {
    const key = path[path.length - 1] ?? '';
    const parentPath = path.slice(0, -1);
    const allowed = allowedKeys(schemaAt(parentPath));
    const suggestion = closestMatches(key, allowed, 1)[0];
    const inside = parentPath.length ? ` in ${displayPath(parentPath)}` : '';
    return configError(
      `${at(rangeOf(doc, path, true))}: unknown key "${key}"${inside}`,
      `${suggestion ? `Did you mean "${suggestion}"? ` : ''}Allowed keys: ${allowed.join(', ')}.`,
    );
  }
  if (/required property/i.test(error.message)) {
    const key = path[path.length - 1] ?? '';
    const parentPath = path.slice(0, -1);
    return configError(
      `${at(rangeOf(doc, parentPath, false))}: ${displayPath(parentPath) || 'the config'} has no "${key}"`,
      `Add ${key}: ${schemaAt(path)?.description ?? 'a value'}.`,
    );
  }
  const schema = schemaAt(path) ?? error.schema;
  const expected = schema.description ?? error.message.toLowerCase();
  const found = valueAt(data, path);
  return configError(
    `${at(rangeOf(doc, path, false))}: ${here || 'the config'} is ${describe(found)}, expected ${expected}`,
    `Write ${here || 'the config'} as ${expected}.`,
  );
}

function weight(error: ValueError): number {
  return error.path.split('/').length * 2 + (isUnknownKey(error) ? 1 : 0);
}

function isUnknownKey(error: ValueError): boolean {
  return error.message === 'Unexpected property';
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `rules[2].match` */
function displayPath(path: readonly string[]): string {
  return path.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return value === '' ? 'an empty string' : `the string ${JSON.stringify(value)}`;
  return `${typeof value === 'number' ? 'the number' : 'the value'} ${String(value)}`;
}

/** The offset where the node at `path` starts (its key when `key` is true); the nearest parent when absent. */
function rangeOf(doc: Document, path: readonly string[], key: boolean): number | undefined {
  let node: unknown = doc.contents;
  let offset = (doc.contents as Node | null)?.range?.[0];
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) return offset;
      const last = index === path.length - 1;
      const keyNode = pair.key as Node;
      const valueNode = pair.value as Node | null;
      offset = last && key ? keyNode.range?.[0] : (valueNode?.range?.[0] ?? keyNode.range?.[0]);
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (!item) return offset;
      offset = item.range?.[0];
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n[\s\S]*$/, '').trim();
}

// ---------------------------------------------------------------------------------------------------
// Compiling

function compile(config: TargetsConfigDocument, file: string, at: (path: string[]) => string): TargetsConfig {
  const pattern = (source: string, path: string[]) => {
    try {
      return compilePattern(source);
    } catch (error) {
      if (error instanceof PatternError) {
        throw configError(`${at(path)}: ${error.message}`, 'See "Globs" in docs/impacted-targets.md.');
      }
      throw error;
    }
  };
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
          throw configError(
            `${at([...path, 'targets', String(t)])}: target "${target}" uses {${name}}, which the match glob "${missing.source}" does not capture`,
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

  const indexOf = (list: string[] | undefined, key: string) => {
    const index = new PatternIndex<string>();
    (list ?? []).forEach((source, i) => index.add(pattern(source, [key, String(i)]), source));
    return index;
  };

  const workspaces = config.dependents?.workspaces;
  if (workspaces?.target) {
    const unknown = templateNames(workspaces.target).find((name) => name !== 'name' && name !== 'dir');
    if (unknown) {
      throw configError(
        `${at(['dependents', 'workspaces', 'target'])}: {${unknown}} is not known here`,
        'A workspace target may use {name} (the package name) and {dir} (its directory).',
      );
    }
  }
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
    workspaces: workspaces && { target: workspaces.target ?? '{name}', depth: workspaces.depth ?? 'all' },
    command: command && {
      run: command.run,
      timeoutMs: (command['timeout-seconds'] ?? DEFAULT_COMMAND_TIMEOUT_SECONDS) * 1000,
    },
    mergeQueueTarget: config['merge-queue-target'],
    maxTargets: config['max-targets'],
  };
}
