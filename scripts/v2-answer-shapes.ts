// src/wire/v2/answer-shapes.ts, rendered from the v2 document's structure (src/wire/v2/openapi.structure.json):
// each named schema and each operation's success answer, reduced to what src/core/api/answers.ts checks
// (types, required fields, items, alternatives, non-text constants, patterns), references kept by name.
// Enums and formats are left out: v2 adds enum values without notice, and clients must keep them.
import { readFileSync } from 'node:fs';
import type { AnswerShape } from '../src/wire/index.js';

const DOCUMENT = 'src/wire/v2/openapi.structure.json';
const SCHEMA_REF = '#/components/schemas/';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  responses: Record<string, { content?: { 'application/json'?: { schema?: Schema } } }>;
}

function shapeOf(schema: Schema): AnswerShape {
  const shape: AnswerShape = {};
  if (typeof schema.$ref === 'string') return { ref: schema.$ref.replace(SCHEMA_REF, '') };
  if (schema.type !== undefined) shape.type = schema.type as string | string[];
  if (schema.properties) {
    const properties = Object.entries(schema.properties as Record<string, Schema>);
    shape.properties = Object.fromEntries(properties.map(([name, p]) => [name, shapeOf(p)]));
  }
  if (Array.isArray(schema.required) && schema.required.length) shape.required = schema.required as string[];
  if (schema.items) shape.items = shapeOf(schema.items as Schema);
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) shape[key] = (schema[key] as Schema[]).map(shapeOf);
  }
  if (schema.const !== undefined && typeof schema.const !== 'string') shape.const = schema.const;
  if (typeof schema.pattern === 'string') shape.pattern = schema.pattern;
  return shape;
}

export function v2AnswerShapes(): {
  named: Record<string, AnswerShape>;
  answers: Record<string, AnswerShape>;
} {
  const document = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  const named = Object.fromEntries(
    Object.entries(document.components.schemas).map(([name, schema]) => [name, shapeOf(schema)]),
  );
  const answers: Record<string, AnswerShape> = {};
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (typeof operation !== 'object' || !operation.operationId) continue;
      const success = Object.entries(operation.responses).find(([status]) => /^2\d\d$/.test(status));
      const schema = success?.[1].content?.['application/json']?.schema;
      if (schema) answers[operation.operationId] = shapeOf(schema);
    }
  }
  return { named, answers };
}

/** The text of src/wire/v2/answer-shapes.ts (before formatting). */
export function renderV2AnswerShapes(): string {
  const { named, answers } = v2AnswerShapes();
  return `// Written by \`npm run metadata\` (scripts/v2-answer-shapes.ts) from openapi.structure.json: do not edit.
// Each v2 schema and each operation's success answer as what the client checks an answer against
// (src/core/api/answers.ts), references by name; enums and formats left out (v2 adds values).
import type { AnswerShape } from '../answer-shapes.js';
import type { V2OperationId } from './routes.js';

export const V2_NAMED_SHAPES: Readonly<Record<string, AnswerShape>> = ${JSON.stringify(named)};

export const V2_ANSWER_SHAPES: { readonly [Id in V2OperationId]?: AnswerShape } = ${JSON.stringify(answers)};
`;
}
