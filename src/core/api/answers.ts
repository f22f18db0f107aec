// Checks a 2xx answer against its endpoint's answer schema (src/wire/), read tolerantly: enums in any
// case and unknown values kept, unknown fields kept, legacy queue field names mapped. A wrong shape (a
// list for an object, a number for a state, a missing field the answer always has) is a problem named in
// one line, never success. A small walker over the answer shapes (the schemas' JSON, written out as plain
// data), not TypeBox's compiler: it is all the answers need, loads no schema builder at start-up, and says
// where the answer went wrong in words.
import { ANSWER_SHAPES, readQueue, type AnswerShape, type EndpointName } from '../../wire/index.js';

/** JSON nested deeper than this is no answer of the API (its deepest is 5 levels). */
export const MAX_ANSWER_DEPTH = 64;

/** Endpoints whose older deployments answered with no JSON at all: an empty body or `OK` is success. */
const MAY_ANSWER_WITHOUT_JSON = new Set<EndpointName>(['updateQueue']);

/** Endpoints that answer text of their own format, checked by the operation that reads it. */
const TEXT_ANSWERS = new Set<EndpointName>(['getMergeQueueMetrics']);

/** Endpoints whose answer is a queue, read with legacy field names mapped first. */
const QUEUE_ANSWERS = new Set<EndpointName>(['getQueue', 'updateQueue']);

/**
 * What is wrong with an answer: `what` in our words only (`a body that is not its answer ("tests" is an
 * object, not a list)`), and apart from it the service's own text or value it is about, when one is.
 */
export interface AnswerProblem {
  what: string;
  said?: string;
}

/**
 * What is wrong with the answer of `endpoint`, or undefined when it is what the endpoint answers. `json`
 * is the parsed body, or undefined when it is not JSON.
 */
export function answerProblem(
  endpoint: EndpointName,
  text: string,
  json: unknown,
): AnswerProblem | undefined {
  if (TEXT_ANSWERS.has(endpoint)) return undefined;
  const shape = ANSWER_SHAPES[endpoint];
  const trimmed = text.trim();
  const empty = trimmed === '' || /^ok$/i.test(trimmed);
  if (!shape) {
    // A write answers `{}`, nothing or `OK` (any JSON object is kept as it is); garbage is not success.
    if (empty || isPlainObject(json)) return undefined;
    return json === undefined
      ? notJson(trimmed)
      : { what: `a body that is not its answer (${subject('')} ${describe(json)}, not an object)` };
  }
  if (json === undefined) {
    if (MAY_ANSWER_WITHOUT_JSON.has(endpoint) && empty) return undefined;
    return trimmed === '' ? { what: 'an empty body' } : notJson(trimmed);
  }
  const value = QUEUE_ANSWERS.has(endpoint) && isPlainObject(json) ? readQueue(json) : json;
  return shapeProblem(shape, value);
}

/** Text where JSON was due: the text is the service's, apart from our words. */
export function notJson(text: string): AnswerProblem {
  return { what: 'text that is not JSON', said: text };
}

/**
 * What is wrong with `value` by `shape` (`a body that is not its answer ("data[0].id" is missing)`), or
 * undefined when nothing is; `named` holds the shapes a `ref` names (the v2 document's schemas).
 */
export function shapeProblem(
  shape: AnswerShape,
  value: unknown,
  named: Readonly<Record<string, AnswerShape>> = {},
): AnswerProblem | undefined {
  const problem = problemAt(shape, value, named);
  if (!problem) return undefined;
  const what = `a body that is not its answer (${subject(pathOf(problem.steps))} ${problem.what})`;
  return problem.said === undefined ? { what } : { what, said: problem.said };
}

/**
 * What is wrong at some place inside an answer. Its path is put together on the way back out, only when
 * there is a problem: a listing page of 100 tests is checked field by field, and naming each field's
 * path as it is visited would allocate a string per field.
 */
interface Problem {
  /** Field names and list positions from the problem's place out to the answer, innermost first. */
  steps: (string | number)[];
  /** What follows `"path" is`, in our words. */
  what: string;
  /** The answer's own value it is about, when that is text. */
  said?: string;
}

type Named = Readonly<Record<string, AnswerShape>>;

function problemAt(schema: AnswerShape, value: unknown, named: Named): Problem | undefined {
  if (schema.ref !== undefined) {
    const target = named[schema.ref];
    return target ? problemAt(target, value, named) : undefined;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    let first: Problem | undefined;
    for (const alternative of alternatives) {
      const problem = problemAt(alternative, value, named);
      if (!problem) return undefined;
      first ??= problem;
    }
    return first;
  }
  if (schema.allOf) {
    for (const part of schema.allOf) {
      const problem = problemAt(part, value, named);
      if (problem) return problem;
    }
  }
  if (schema.const !== undefined && typeof schema.const !== 'string' && value !== schema.const) {
    return { steps: [], what: `${describe(value)}, not ${JSON.stringify(schema.const)}` };
  }
  if (schema.type !== undefined && !hasType(value, schema.type)) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const what = `${describe(value)}, not ${types.map(nameOfType).join(' or ')}`;
    return typeof value === 'string' ? { steps: [], what, said: value } : { steps: [], what };
  }
  if (typeof value === 'string' && schema.pattern && !patternOf(schema.pattern).test(value)) {
    return { steps: [], what: 'text that is not a value it can have', said: value };
  }
  if (Array.isArray(value) && schema.items) {
    for (let index = 0; index < value.length; index++) {
      const problem = problemAt(schema.items, value[index], named);
      if (problem) return within(problem, index);
    }
  }
  if (isPlainObject(value) && schema.properties) {
    if (schema.required) {
      for (const name of schema.required) {
        if (value[name] === undefined) return { steps: [name], what: 'missing' };
      }
    }
    for (const name in schema.properties) {
      const field = value[name];
      if (field === undefined) continue;
      const problem = problemAt(schema.properties[name] as AnswerShape, field, named);
      if (problem) return within(problem, name);
    }
  }
  return undefined;
}

function within(problem: Problem, step: string | number): Problem {
  problem.steps.push(step);
  return problem;
}

/** `tests[3].status`: names joined by dots, list positions in brackets. */
function pathOf(innermostFirst: (string | number)[]): string {
  let path = '';
  for (let i = innermostFirst.length - 1; i >= 0; i--) {
    const step = innermostFirst[i] as string | number;
    path = typeof step === 'number' ? `${path}[${step}]` : path ? `${path}.${step}` : step;
  }
  return path;
}

function hasType(value: unknown, type: string | string[]): boolean {
  return Array.isArray(type) ? type.some((one) => isOfType(value, one)) : isOfType(value, type);
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

function nameOfType(type: string): string {
  return TYPE_NAMES[type] ?? type;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return `${value}`;
  return 'an object';
}

function subject(path: string): string {
  return path ? `"${path}" is` : 'it is';
}

const patterns = new Map<string, RegExp>();
function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) patterns.set(source, (pattern = new RegExp(source, 'u')));
  return pattern;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when brackets in the JSON text nest deeper than `limit` (strings skipped). JSON.parse copes with
 * any depth, but everything that later walks the value (a report file, a copy) would overflow the stack.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) i = endOfString(text, i);
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open` (one not escaped by a backslash). */
function endOfString(text: string, open: number): number {
  for (let at = open; ;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
