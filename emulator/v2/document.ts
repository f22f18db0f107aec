// The service's v2 document (the structure-only copy in src/wire/v2), compiled with ajv: each
// operation's path parameters, query and body as the document defines them. The emulator checks every
// request against it, so a client that passes here sends what the service takes.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { V2_ROUTES, type V2OperationId } from '../../src/wire/v2/index.js';

const DOCUMENT_URL = new URL('../../src/wire/v2/openapi.structure.json', import.meta.url);
const DOCUMENT_ID = 'v2.json';

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: object;
}
interface Operation {
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  responses?: Record<string, unknown>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter> };
}

export interface OperationValidators {
  path: ValidateFunction;
  query: ValidateFunction;
  /** Undefined for an operation that takes no body. */
  body: ValidateFunction | undefined;
  bodyRequired: boolean;
  /** Whether the document gives the operation a 400 (those without take no query and ignore one). */
  refusesBadRequests: boolean;
}

function newAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes, useDefaults: false });
  // ajv-formats is CommonJS: its plugin is the module itself or its default, depending on the loader.
  const plugin = formats as unknown as { default?: unknown };
  ((plugin.default ?? plugin) as (ajv: Ajv2020) => void)(ajv);
  return ajv;
}

let compiled: Map<V2OperationId, OperationValidators> | undefined;

/** Every operation's validators, compiled once. */
export function validatorsOf(operation: V2OperationId): OperationValidators {
  compiled ??= compileAll();
  return compiled.get(operation)!;
}

function compileAll(): Map<V2OperationId, OperationValidators> {
  const document = JSON.parse(readFileSync(DOCUMENT_URL, 'utf8')) as Document;
  const parameters = newAjv(true);
  const bodies = newAjv(false);
  bodies.addSchema(document, DOCUMENT_ID);
  parameters.addSchema(document, DOCUMENT_ID);
  const all = new Map<V2OperationId, OperationValidators>();
  for (const [id, route] of Object.entries(V2_ROUTES) as [
    V2OperationId,
    (typeof V2_ROUTES)[V2OperationId],
  ][]) {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`${id}: ${route.method} ${route.path} is not in the v2 document`);
    const params = (operation.parameters ?? []).map((p) =>
      '$ref' in p ? document.components.parameters[p.$ref.split('/').pop()!]! : p,
    );
    const schema = operation.requestBody?.content['application/json']?.schema;
    all.set(id, {
      path: parameters.compile(objectOf(params.filter((p) => p.in === 'path'))),
      query: parameters.compile(objectOf(params.filter((p) => p.in === 'query'))),
      body: schema ? bodies.compile(rebased(schema)) : undefined,
      bodyRequired: operation.requestBody?.required ?? false,
      refusesBadRequests: operation.responses?.['400'] !== undefined,
    });
  }
  return all;
}

/** An object schema of parameters: only these names, the required ones required. */
function objectOf(params: Parameter[]): object {
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, rebased(p.schema)])),
    required: params.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/** A fragment of the document whose `#/…` references point into the document added under DOCUMENT_ID. */
function rebased(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_ID}#/`)) as object;
}

/** One line naming the first problem ajv found in `where` (body, query or path). */
export function describeProblem(where: string, errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return `the ${where} is not what this operation takes`;
  const at = first.instancePath ? `${where}${first.instancePath.replace(/\//g, '.')}` : where;
  const params = first.params as Record<string, unknown>;
  switch (first.keyword) {
    case 'additionalProperties':
      return `${at} does not take ${JSON.stringify(params.additionalProperty)}${where === 'query' ? ' (an unknown query parameter)' : ''}`;
    case 'required':
      return `${at} needs ${JSON.stringify(params.missingProperty)}`;
    case 'enum':
      return `${at} must be one of ${(params.allowedValues as unknown[]).join(', ')} (spelled exactly so)`;
    case 'not':
      return `${at} takes priorityValue or priorityName, not both`;
    default:
      return `${at} ${first.message ?? 'is not valid'}`;
  }
}
