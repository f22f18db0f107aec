import type { ApiClient, ClientOptions } from '../api/client.js';
import type { ResolvedContext } from '../../hosts/github-actions/context.js';
import type { Settings } from '../inputs.js';
import type { Markdown } from '../report/markdown.js';

export type OutputValue = string | number | boolean;

export interface OperationContext {
  settings: Settings;
  context: ResolvedContext;
  /** A client authenticated with api-token. */
  client: ApiClient;
  /** What `client` was built from, for an operation that needs another kind of client (a fork upload). */
  clientOptions: ClientOptions;
  /** The runner's environment (GITHUB_RUN_ID, RUNNER_TEMP, ...). */
  env: NodeJS.ProcessEnv;
  log: { info(message: string): void; warning(message: string): void };
}

export interface OperationResult {
  /** Outputs of the step; `response` (the raw body) is expected from every operation that called the API. */
  outputs: Record<string, OutputValue>;
  /** The job summary; omitted when there is nothing to say. */
  summary?: Markdown;
  /** When set, the step fails with this one line, after outputs and the summary are written. */
  failure?: string;
}

export type Operation = (op: OperationContext) => Promise<OperationResult>;
