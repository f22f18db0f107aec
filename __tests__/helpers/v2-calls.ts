// Calls to the emulator's v2 API by operationId, each answer checked against the v2 document (its status
// declared for the operation, its body valid, X-Request-Id present) before the test sees it; the
// operations answered with their success status are counted, so a file can check it covered them all.
import { V2_ROUTES, type V2OperationId } from '../../src/wire/v2/index.js';
import { request, type EmulatorHandle, type HttpAnswer } from './emulator.js';
import { v2AnswerProblem } from './openapi.js';

export interface V2CallOptions {
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** The key to send (the one with every permission unless given); null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
}

export class V2Calls {
  /** Operations answered with their success status. */
  readonly succeeded = new Set<V2OperationId>();

  constructor(private readonly emulator: EmulatorHandle) {}

  async call<T = Record<string, unknown>>(
    operation: V2OperationId,
    options: V2CallOptions = {},
  ): Promise<HttpAnswer<T>> {
    const route = V2_ROUTES[operation];
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(options.path?.[name] ?? ''),
    );
    const query = new URLSearchParams(
      Object.entries(options.query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();
    const key = options.key === undefined ? this.emulator.v2Key : options.key;
    const headers = { ...(key !== null ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    const url = `${this.emulator.current.v2Url}${path}${query ? `?${query}` : ''}`;
    const answer = await request<T>(url, route.method, options.body, headers);
    const problem = v2AnswerProblem(operation, answer.status, answer.contentType, answer.text);
    if (problem) throw new Error(`${problem}\n${answer.text.slice(0, 500)}`);
    if (!answer.headers.get('x-request-id')) throw new Error(`${operation}: no X-Request-Id`);
    if (answer.status === route.success) this.succeeded.add(operation);
    return answer;
  }

  /** The call, which must answer its success status. */
  async ok<T = Record<string, unknown>>(operation: V2OperationId, options: V2CallOptions = {}): Promise<T> {
    const answer = await this.call<T>(operation, options);
    if (answer.status !== V2_ROUTES[operation].success) {
      throw new Error(`${operation} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
    }
    return answer.json;
  }

  /** The error code of a call that must fail with `status`. */
  async refused(operation: V2OperationId, status: number, options: V2CallOptions = {}): Promise<string> {
    const answer = await this.call<{ error: { code: string; message: string } }>(operation, options);
    if (answer.status !== status) {
      throw new Error(`${operation} answered ${answer.status}, not ${status}: ${answer.text.slice(0, 500)}`);
    }
    return answer.json.error.code;
  }
}
