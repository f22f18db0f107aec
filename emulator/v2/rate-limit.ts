// The documented rate limits, counted per second of real time: reads under /v2/pull-requests 5/s per
// key, metrics 5/s per organization, GitHub Actions logins' uploads 10/s per repository (fork PRs' in a
// bucket of their own), everything else (the batch history read too) 100/s per organization. Switched
// off with `v2RateLimits: false`.
import type { V2OperationId } from '../../src/wire/v2/index.js';
import { V2_ROUTES } from '../../src/wire/v2/index.js';
import { actionsBucketName, type ActionsLogin } from './actions-logins.js';
import { V2Error } from './errors.js';
import type { ApiKey } from './keys.js';

const WINDOW_MS = 1_000;

interface Bucket {
  name: string;
  perSecond: number;
}

export function bucketOf(operation: V2OperationId, keyName: string, actions?: ActionsLogin): Bucket {
  if (actions) return { name: actionsBucketName(actions), perSecond: 10 };
  if (operation === 'mergeQueues.metrics' || operation === 'mergeQueues.organizationMetrics') {
    return { name: 'metrics', perSecond: 5 };
  }
  const route = V2_ROUTES[operation];
  // GET /v2/pull-requests* only: the batch history read (/v2/queue-entry-history) is the organization's.
  const prRead = route.method === 'GET' && route.path.startsWith('/v2/pull-requests');
  if (prRead) return { name: `pull-requests:${keyName}`, perSecond: 5 };
  return { name: 'organization', perSecond: 100 };
}

export class RateLimits {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a request of `operation` by `key`; a 429 when its bucket is spent for this second. */
  take(operation: V2OperationId, key: ApiKey): void {
    if (!this.enabled) return;
    const bucket = bucketOf(operation, key.name, key.actions);
    const now = this.now();
    let window = this.windows.get(bucket.name);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(bucket.name, window);
    }
    if (++window.count <= bucket.perSecond) return;
    throw new V2Error(
      429,
      'RATE_LIMIT_EXCEEDED',
      `More than ${bucket.perSecond} requests a second to ${bucket.name === 'organization' ? 'the organization' : bucket.name.split(':')[0]}; retry after a moment`,
    );
  }
}
