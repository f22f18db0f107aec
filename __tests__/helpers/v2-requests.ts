// Whether a request is one the v2 document allows: its method and path an operation's, its query
// parameters and JSON body valid by that operation's schemas (ajv over the structure-only copy in
// src/wire/v2), and a proxy that checks every request a client sends on its way to the server.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Parameter {
  name?: string;
  in?: string;
  required?: boolean;
  schema?: object;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: object }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

const DOCUMENT = new URL('../../src/wire/v2/openapi.structure.json', import.meta.url);
let loaded: { doc: Document; ajv: Ajv2020; routes: { method: string; pattern: RegExp; template: string }[] };
const validators = new Map<string, ValidateFunction>();

function load() {
  if (!loaded) {
    const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Document;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const plugin = formats as unknown as { default?: unknown };
    ((plugin.default ?? plugin) as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'v2', components: doc.components });
    const routes = Object.entries(doc.paths).flatMap(([template, operations]) =>
      Object.keys(operations)
        .filter((method) => typeof operations[method] === 'object' && 'operationId' in operations[method]!)
        .map((method) => ({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
        })),
    );
    loaded = { doc, ajv, routes };
  }
  return loaded;
}

/** A schema of the document with its `#/components/...` references pointing into the loaded copy. */
function compiled(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    const rebased = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"v2#/components/'));
    validate = load().ajv.compile(rebased as object);
    validators.set(key, validate);
  }
  return validate;
}

function resolveParameter(parameter: Parameter): Parameter {
  if (!parameter.$ref) return parameter;
  const name = parameter.$ref.replace('#/components/parameters/', '');
  return load().doc.components.parameters?.[name] as Parameter;
}

/** What is wrong with a request by the document, or undefined when it is one the document allows. */
export function v2RequestProblem(method: string, url: URL, body: string): string | undefined {
  const { doc, routes } = load();
  const route = routes.find((r) => r.method === method && r.pattern.test(url.pathname));
  if (!route) return `${method} ${url.pathname} is no operation of the document`;
  const operation = doc.paths[route.template]![method.toLowerCase()]!;
  const problems: string[] = [];
  const parameters = (operation.parameters ?? []).map(resolveParameter).filter((p) => p?.in === 'query');
  for (const name of url.searchParams.keys()) {
    if (!parameters.some((p) => p.name === name)) problems.push(`query ${name} is not a parameter`);
  }
  for (const parameter of parameters) {
    const value = url.searchParams.get(parameter.name!);
    if (value === null) {
      if (parameter.required) problems.push(`query ${parameter.name} is required`);
      continue;
    }
    const schema = parameter.schema as { type?: string } | undefined;
    const typed = schema?.type === 'integer' || schema?.type === 'number' ? Number(value) : value;
    const checked = schema?.type === 'boolean' ? value === 'true' || value === 'false' : true;
    const validate = compiled(`${operation.operationId} ?${parameter.name}`, schema ?? {});
    if (!checked || !validate(typed)) problems.push(`query ${parameter.name}=${value} ${describe(validate)}`);
  }
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  if (body && !bodySchema) problems.push('a body where the operation takes none');
  if (!body && bodySchema && operation.requestBody?.required) problems.push('no body');
  if (body && bodySchema) {
    const validate = compiled(`${operation.operationId} body`, bodySchema);
    if (!validate(JSON.parse(body))) problems.push(`body ${describe(validate)}`);
  }
  return problems.length ? `${operation.operationId}: ${problems.join('; ')}` : undefined;
}

function describe(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`)
    .join(', ');
}

export interface CheckingProxy {
  /** Its origin: point a client at it instead of the server. */
  origin: string;
  /** Every v2 request seen, as `METHOD /path`. */
  seen: string[];
  /** Every request seen, v1's too, as `METHOD /path`. */
  all: string[];
  /** Every problem found, one line each. */
  problems: string[];
  /**
   * The next request matching `method` and `path` reaches the server, which does its work, and then the
   * connection is cut before its answer gets back: an answer lost after the service acted.
   */
  cutAfterAnswer(method: string, path: RegExp): void;
  close(): Promise<void>;
}

/** A proxy to `target` that checks every /v2 request against the document before passing it on. */
export async function startCheckingProxy(target: string): Promise<CheckingProxy> {
  const seen: string[] = [];
  const all: string[] = [];
  const problems: string[] = [];
  const cuts: { method: string; path: RegExp }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', target);
      all.push(`${req.method} ${url.pathname}`);
      if (url.pathname.startsWith('/v2/')) {
        seen.push(`${req.method} ${url.pathname}`);
        const problem = v2RequestProblem(req.method ?? '', url, body.toString('utf8'));
        if (problem) problems.push(problem);
      }
      const cut = cuts.findIndex((c) => c.method === req.method && c.path.test(url.pathname));
      if (cut >= 0) cuts.splice(cut, 1);
      const forward = httpRequest(
        url,
        { method: req.method, headers: { ...req.headers, host: url.host } },
        (answer) => {
          if (cut >= 0) {
            // The server has done its work; its answer never gets back.
            answer.resume();
            answer.on('end', () => res.socket?.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    all,
    problems,
    cutAfterAnswer: (method, path) => cuts.push({ method, path }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
