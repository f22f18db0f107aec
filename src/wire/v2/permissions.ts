// What an API key must be granted to make a request. A key with no permission reads everything and calls
// the flaky-tests and Dynamic CI endpoints; merge-queue writes each need one, and some bodies need one
// more (a submit that sets a priority needs two). The service's names are what an admin sees in Settings >
// Developer > API Keys, so an error can say exactly what to grant.
import type { V2OperationId } from './routes.js';

/** What every v2 API key starts with (a v1 organization token never does). */
export const V2_KEY_PREFIX = 'trunk_v2_';

export const V2_PERMISSIONS = {
  mergeAndCancel: 'Merge and cancel PRs',
  setPriority: 'Set priority on PRs',
  skipBatching: 'Skip batching',
  directToQueue: 'Merge PRs with direct to queue',
  updateSettings: 'Update Merge Queue settings',
} as const;

export type V2Permission = keyof typeof V2_PERMISSIONS;

const BY_ROUTE: Partial<Record<V2OperationId, V2Permission>> = {
  'mergeQueues.submitPullRequest': 'mergeAndCancel',
  'pullRequests.dequeue': 'mergeAndCancel',
  'pullRequests.restartTests': 'mergeAndCancel',
  'impactedTargets.upload': 'mergeAndCancel',
  'pullRequests.reprioritize': 'setPriority',
  'mergeQueues.create': 'updateSettings',
  'mergeQueues.updateConfig': 'updateSettings',
  'mergeQueues.delete': 'updateSettings',
  'mergeQueues.pause': 'updateSettings',
  'mergeQueues.resume': 'updateSettings',
  'mergeQueues.drain': 'updateSettings',
  'mergeQueues.switchModes': 'updateSettings',
};

/** The permissions a request needs: its route's, and those its body's fields add. */
export function permissionsFor(operation: V2OperationId, body: unknown): V2Permission[] {
  const needed = new Set<V2Permission>();
  const own = BY_ROUTE[operation];
  if (own) needed.add(own);
  if (operation === 'mergeQueues.submitPullRequest' || operation === 'pullRequests.updateQueueEntry') {
    const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    if (fields.priorityValue !== undefined || fields.priorityName !== undefined) needed.add('setPriority');
    const batchingField =
      operation === 'mergeQueues.submitPullRequest'
        ? fields.allowBatching === false
        : 'allowBatching' in fields;
    if (batchingField) needed.add('skipBatching');
    if (operation === 'mergeQueues.submitPullRequest' ? fields.direct === true : 'direct' in fields) {
      needed.add('directToQueue');
    }
  }
  return [...needed];
}
