// Why a targets config cannot be used, and where: the yaml library reads the text keeping every node's
// place, the schema names what is wrong (the deepest problem, an unknown key with the keys allowed there).
// Loaded only for a config that the quick path (js-yaml and config-check.ts) did not accept as it is.
import { Value, type ValueError } from '@sinclair/typebox/value';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import type { InputError } from '../../../errors.js';
import { quoted } from '../../../inputs.js';
import { closestMatches } from '../../../suggest.js';
import { configError } from './config-error.js';
import { TargetsConfigSchema, allowedKeys, schemaAt, type TargetsConfigDocument } from './config-schema.js';

/** How many times aliases may expand (the yaml library's own default, said here as the message gives it). */
const MAX_ALIAS_COUNT = 100;

/** `file:line:col` of the node at `path`, for a problem found after the quick parse. */
export function placeOf(text: string, file: string, path: string[]): string {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const { line, col } = lines.linePos(rangeOf(doc, path, false) ?? 0);
  return `${file}:${line}:${col}`;
}

/**
 * The document as the schema accepts it, read with every node's place to say where a problem is (or to
 * accept what js-yaml did not).
 */
export function checkWithPlaces(text: string, file: string): TargetsConfigDocument {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined) => {
    const { line, col } = lines.linePos(offset ?? 0);
    return `${file}:${line}:${col}`;
  };
  const syntax = doc.errors[0];
  if (syntax?.code === 'RESOURCE_EXHAUSTION') {
    throw configError(
      `${file}: its collections are nested too deeply to read`,
      'A targets config needs a few levels (rules, a rule, its globs); write it flat.',
    );
  }
  if (syntax) {
    const problem =
      syntax.code === 'DUPLICATE_KEY' ? 'a key appears twice in the same mapping' : oneLine(syntax.message);
    throw configError(`${at(syntax.pos[0])}: ${problem}`, 'Fix the YAML at that place.');
  }
  const data = dataOf(doc, file);
  if (!Value.Check(TargetsConfigSchema, data)) {
    throw schemaError(doc, data, [...Value.Errors(TargetsConfigSchema, data)], at);
  }
  return data;
}

/**
 * The document's data; aliases that expand past the yaml library's limit (a "billion laughs" document,
 * each alias a list of the one before) are refused in one line instead of its own exception.
 */
function dataOf(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw configError(
      `${file}: its YAML aliases (*name) expand past ${MAX_ALIAS_COUNT} uses`,
      'Write the values out instead of repeating aliases of aliases.',
    );
  }
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
      `${at(rangeOf(doc, path, true))}: unknown key ${quoted(key)}${inside}`,
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
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string ${quoted(value)}`;
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
