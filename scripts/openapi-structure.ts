// The structure of an OpenAPI document without its prose: paths, methods, parameters, request, answer
// and webhook schemas, enums, required fields and formats stay; descriptions, summaries, titles,
// examples, tags and the prose extensions go. What is left validates exactly what the whole document
// validates, as everything removed is an annotation a validator ignores.

/** Keywords that only annotate. (A property, header or path of the same name is kept: see NAMED.) */
const PROSE = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  '$comment',
  'tags',
]);

/** Extensions that carry data rather than words. Every other `x-` extension goes. */
const DATA_EXTENSIONS = new Set(['x-known-values']);

/** Keywords whose value maps names (of properties, paths, status codes, media types...) to objects. */
const NAMED = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'paths',
  'webhooks',
  'responses',
  'content',
  'headers',
  'schemas',
  'parameters',
  'requestBodies',
  'securitySchemes',
  'callbacks',
  'links',
  'encoding',
  'mapping',
  'variables',
]);

/** Keywords whose value is data to copy as it is (an enum may well hold the string "description"). */
const VERBATIM = new Set(['enum', 'const', 'default', 'required', ...DATA_EXTENSIONS]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function keeps(keyword: string): boolean {
  if (PROSE.has(keyword)) return false;
  return !keyword.startsWith('x-') || DATA_EXTENSIONS.has(keyword);
}

/** An object of keywords (a schema, an operation, a response...) without its prose. */
function keywords(node: Json): Json {
  if (Array.isArray(node)) return node.map(keywords);
  if (!isObject(node)) return node;
  const kept: { [key: string]: Json } = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (!keeps(keyword)) continue;
    if (VERBATIM.has(keyword)) kept[keyword] = value;
    else if (NAMED.has(keyword) && isObject(value)) kept[keyword] = names(value);
    else kept[keyword] = keywords(value);
  }
  return kept;
}

/** A map of names to objects of keywords: every name kept, whatever it is. */
function names(map: { [name: string]: Json }): Json {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, keywords(value)]));
}

/** The structure-only copy of `document`, saying which script made it. */
export function structureOf(document: Json, madeBy: string): Json {
  if (!isObject(document)) throw new Error('an OpenAPI document is a JSON object');
  return {
    'x-structure-only': `made by ${madeBy} from the service's document, without its prose: do not edit`,
    ...(keywords(document) as { [key: string]: Json }),
  };
}
