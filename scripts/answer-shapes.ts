// src/wire/answer-shapes.ts, rendered from the answer schemas of src/wire/endpoints.ts read tolerantly
// (`tolerant(...)`): for each endpoint that answers JSON, only what src/core/api/answers.ts checks (types,
// required fields, items, alternatives, constants, patterns), as plain data. The action checks answers
// with these shapes, so that a run never loads the schema builder; `npm run metadata` writes the file and
// a test checks that it is up to date.
import type { TSchema } from '@sinclair/typebox';
import { ENDPOINTS, tolerant, type AnswerShape } from '../src/wire/index.js';

/** The keys of a schema that the answer check reads; everything else (formats, bounds, text) is left out. */
const CHECKED: readonly (keyof AnswerShape)[] = [
  'type',
  'properties',
  'required',
  'items',
  'anyOf',
  'allOf',
  'oneOf',
  'const',
  'pattern',
];

function shapeOf(schema: TSchema): AnswerShape {
  const shape: Record<string, unknown> = {};
  for (const key of CHECKED) {
    const value: unknown = schema[key];
    if (value === undefined) continue;
    if (key === 'properties') {
      const properties = value as Record<string, TSchema>;
      shape[key] = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, shapeOf(p)]));
    } else if (key === 'items') shape[key] = shapeOf(value as TSchema);
    else if (key === 'anyOf' || key === 'allOf' || key === 'oneOf') {
      shape[key] = (value as TSchema[]).map(shapeOf);
    } else shape[key] = value;
  }
  return shape as AnswerShape;
}

/** The answer shape of every endpoint that has an answer schema, by endpoint name. */
export function answerShapes(): Record<string, AnswerShape> {
  const shapes: Record<string, AnswerShape> = {};
  for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
    if ('response' in endpoint) shapes[name] = shapeOf(tolerant(endpoint.response as TSchema));
  }
  return shapes;
}

/** The text of src/wire/answer-shapes.ts (before formatting). */
export function renderAnswerShapes(): string {
  return `// Written by \`npm run metadata\` (scripts/answer-shapes.ts) from the answer schemas in endpoints.ts, read
// tolerantly (tolerant.ts): do not edit. For each endpoint that answers JSON, what the action checks an
// answer against (src/core/api/answers.ts), as plain data, so that a run never loads the schema builder.
import type { EndpointName } from './endpoints.js';

/** The part of an answer schema that the answer check reads. */
export interface AnswerShape {
  type?: string | string[];
  properties?: Record<string, AnswerShape>;
  required?: string[];
  items?: AnswerShape;
  anyOf?: AnswerShape[];
  allOf?: AnswerShape[];
  oneOf?: AnswerShape[];
  const?: unknown;
  pattern?: string;
  /** Another shape by name (the v2 document's references). */
  ref?: string;
}

export const ANSWER_SHAPES: { readonly [E in EndpointName]?: AnswerShape } = ${JSON.stringify(answerShapes())};
`;
}
