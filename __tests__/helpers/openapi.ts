// The service's OpenAPI document, as the structure-only copy in src/wire/v1 (made from the service's own
// document by `npm run spec:structure`), compiled with ajv: whether an answer of the emulator or a webhook
// payload is one the spec allows.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { readFileSync } from 'node:fs';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
  requestBody?: { content?: Record<string, { schema?: object }> };
}

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
}

const SPEC = new URL('../../src/wire/v1/openapi.structure.json', import.meta.url);

let loaded: { spec: OpenApi; ajv: Ajv2020 } | undefined;
const validators = new Map<string, ValidateFunction | null>();

function load() {
  if (!loaded) {
    const spec = JSON.parse(readFileSync(SPEC, 'utf8')) as OpenApi;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: its plugin is the module itself or its default, depending on the loader.
    const plugin = formats as unknown as { default?: unknown };
    const addFormats = (plugin.default ?? plugin) as (ajv: Ajv2020) => void;
    addFormats(ajv);
    loaded = { spec, ajv };
  }
  return loaded;
}

export function spec(): OpenApi {
  return load().spec;
}

function validator(key: string, schema: () => object | undefined): ValidateFunction | null {
  if (!validators.has(key)) {
    const found = schema();
    validators.set(key, found ? load().ajv.compile(found) : null);
  }
  return validators.get(key)!;
}

function describe(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('; ');
}

/**
 * What is wrong with a 200 answer of `method path` (path without /v1) by the spec, or undefined when
 * nothing is. A path the spec does not have is a problem too.
 */
export function answerProblem(
  method: string,
  path: string,
  body: string,
  contentType: string,
): string | undefined {
  const operation = spec().paths[path]?.[method.toLowerCase()];
  if (!operation) return `${method} ${path} is not in the spec`;
  const content = operation.responses?.['200']?.content ?? {};
  if (content['application/json'] === undefined) {
    return contentType.startsWith('text/plain')
      ? undefined
      : `${method} ${path}: answered ${contentType}, the spec says text`;
  }
  if (!contentType.startsWith('application/json'))
    return `${method} ${path}: answered ${contentType}, not JSON`;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `${method} ${path}: the answer is not JSON`;
  }
  const validate = validator(`${method} ${path}`, () => content['application/json']?.schema);
  if (!validate || validate(json)) return undefined;
  return `${method} ${path}: ${describe(validate)}`;
}

// The v2 document (src/wire/v2): an answer of an operation, by operationId and status, against the
// schema the document gives that status (success or error), its references resolved in the document.

interface V2Response {
  $ref?: string;
  content?: Record<string, { schema?: object }>;
}
interface V2Document {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, V2Response> }>>;
  components: { responses: Record<string, V2Response> };
}

const V2_SPEC = new URL('../../src/wire/v2/openapi.structure.json', import.meta.url);
const V2_ID = 'v2.json';
let v2Loaded: { document: V2Document; ajv: Ajv2020 } | undefined;
const v2Validators = new Map<string, ValidateFunction>();

function loadV2() {
  if (!v2Loaded) {
    const document = JSON.parse(readFileSync(V2_SPEC, 'utf8')) as V2Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const plugin = formats as unknown as { default?: unknown };
    ((plugin.default ?? plugin) as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema(document, V2_ID);
    v2Loaded = { document, ajv };
  }
  return v2Loaded;
}

/** The responses the v2 document declares for an operation, by status. */
export function v2Responses(operationId: string): Record<string, V2Response> {
  for (const methods of Object.values(loadV2().document.paths)) {
    for (const operation of Object.values(methods)) {
      if (operation.operationId === operationId) return operation.responses ?? {};
    }
  }
  throw new Error(`${operationId} is not in the v2 document`);
}

/**
 * What is wrong with an answer of a v2 operation (status, content type, body) by the document, or
 * undefined when nothing is: a status the operation does not declare is a problem too.
 */
export function v2AnswerProblem(
  operationId: string,
  status: number,
  contentType: string,
  body: string,
): string | undefined {
  let response = v2Responses(operationId)[String(status)];
  if (!response) return `${operationId}: answered ${status}, which the document does not declare`;
  if (response.$ref) response = loadV2().document.components.responses[response.$ref.split('/').pop()!]!;
  const content = response.content ?? {};
  const [type, media] = Object.entries(content)[0] ?? [];
  if (!type) return body === '' ? undefined : `${operationId} ${status}: a body where the document has none`;
  if (!contentType.startsWith(type)) return `${operationId} ${status}: answered ${contentType}, not ${type}`;
  if (type !== 'application/json') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `${operationId} ${status}: the answer is not JSON`;
  }
  const key = `${operationId} ${status}`;
  let validate = v2Validators.get(key);
  if (!validate) {
    const text = JSON.stringify(media!.schema).replace(/"\$ref":"#\//g, `"$ref":"${V2_ID}#/`);
    validate = loadV2().ajv.compile(JSON.parse(text) as object);
    v2Validators.set(key, validate);
  }
  return validate(json) ? undefined : `${key}: ${describe(validate)}`;
}

/** What is wrong with a webhook payload by the spec's schema for its `type`, or undefined. */
export function webhookProblem(payload: Record<string, unknown>): string | undefined {
  const type = String(payload.type);
  const webhook = spec().webhooks[type];
  if (!webhook) return `webhook ${type} is not in the spec`;
  const validate = validator(
    `webhook ${type}`,
    () => webhook.post.requestBody?.content?.['application/json']?.schema,
  );
  if (!validate || validate(payload)) return undefined;
  return `webhook ${type}: ${describe(validate)}`;
}
