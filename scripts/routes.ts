// src/wire/routes.ts, rendered from the endpoints' rows (src/wire/endpoints.ts): each row without its
// schemas, as plain data. The action's client reads an endpoint's method, path, answer cap and v2 form
// there, so that a run never loads the schema builder; `npm run metadata` writes the file, a test checks
// that it is up to date, and `tsc` refuses it when it disagrees with the rows.
import { ENDPOINTS } from '../src/wire/index.js';

/** Every endpoint's route, by endpoint name, in the rows' order. */
export function routes(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(ENDPOINTS).map(([name, row]) => {
      const { request: _request, response: _response, ...route } = row as typeof row & { response?: unknown };
      return [name, route];
    }),
  );
}

/** The text of src/wire/routes.ts (before formatting). */
export function renderRoutes(): string {
  return `// Written by \`npm run metadata\` (scripts/routes.ts) from the endpoints' rows in merge-queue.ts,
// flaky-tests.ts and service.ts: do not edit. Every endpoint's route (method, path, answer cap kind, v2
// form, repeatable, authenticated) as plain data, so that a run never loads the schema builder; its types
// come from the rows (endpoints.ts), so that this file and the rows cannot disagree unnoticed.
import type { EndpointName, RouteOf } from './endpoints.js';

export const ROUTES: { readonly [E in EndpointName]: RouteOf<E> } = ${JSON.stringify(routes())};
`;
}
