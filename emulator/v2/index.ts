// The v2 API of the emulator, assembled: its keys, the directory over the shared engine, the Dynamic CI
// store, the rate limits, and the routes (see register.ts).
import type { FastifyInstance } from 'fastify';
import type { DeviceLogins } from '../device-auth.js';
import type { FlakyTestStore } from '../flaky-tests/store.js';
import type { MergeQueueEngine } from '../../src/queue-model/index.js';
import { ActionsLogins, registerActionsLoginRoute } from './actions-logins.js';
import { V2Directory } from './directory.js';
import { DynamicCiStore } from './dynamic-ci-store.js';
import { ApiKeys, type ApiKey, type ApiKeySpec } from './keys.js';
import { RateLimits } from './rate-limit.js';
import { registerV2 } from './register.js';
import { V2_HANDLERS } from './routes/index.js';
import { TestCollectionStore } from './test-collections.js';

export { parseApiKeySpec, type ApiKey, type ApiKeySpec } from './keys.js';

export interface V2Options {
  apiKeys?: readonly ApiKeySpec[];
  /** The documented rate limits (default on). */
  rateLimits?: boolean;
  seed: number;
  v1Token: string;
}

export interface V2Api {
  /** The key with every permission, then the keys asked for, in order. */
  keys: ApiKey[];
  directory: V2Directory;
}

export function installV2(
  app: FastifyInstance,
  state: { engine: MergeQueueEngine; flakyTests: FlakyTestStore; deviceLogins: DeviceLogins },
  options: V2Options,
): V2Api {
  const keys = new ApiKeys(options.apiKeys ?? [], options.seed);
  const directory = new V2Directory(state.engine, () => state.flakyTests.repositoriesWithData());
  const now = () => state.engine.clock.now();
  const dynamicCi = new DynamicCiStore(options.seed, now);
  const testCollections = new TestCollectionStore(options.seed, now);
  const actionsLogins = new ActionsLogins(now);
  registerActionsLoginRoute(app, actionsLogins);
  registerV2(app, {
    context: { engine: state.engine, directory, flakyTests: state.flakyTests, dynamicCi, testCollections },
    handlers: V2_HANDLERS,
    credentials: { keys, v1Token: options.v1Token, deviceLogins: state.deviceLogins, actionsLogins },
    rateLimits: new RateLimits(options.rateLimits ?? true),
  });
  return { keys: keys.all(), directory };
}
