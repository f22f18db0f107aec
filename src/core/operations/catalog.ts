// The operations the action offers: their names, the area each belongs to, and what each needs from
// the workflow context. Pure data, so that settings can validate `operation` without loading any code.

export type Area =
  'pull-request' | 'impacted-targets' | 'queue' | 'list-pull-requests' | 'metrics' | 'flaky-tests';

export interface OperationInfo {
  area: Area;
  /** What the operation needs from the context; anything not needed is never looked up. */
  needs: { pr: boolean; headSha: boolean; targetBranch: boolean };
}

const PR = { pr: true, headSha: false, targetBranch: true };
const QUEUE = { pr: false, headSha: false, targetBranch: true };
const REPO_ONLY = { pr: false, headSha: false, targetBranch: false };

export const OPERATIONS = {
  'submit-pull-request': { area: 'pull-request', needs: PR },
  'cancel-pull-request': { area: 'pull-request', needs: PR },
  'restart-tests-on-pull-request': { area: 'pull-request', needs: PR },
  'get-submitted-pull-request': { area: 'pull-request', needs: PR },
  'get-merge-queue-testing-details': { area: 'pull-request', needs: QUEUE },
  'set-impacted-targets': {
    area: 'impacted-targets',
    needs: { pr: true, headSha: true, targetBranch: true },
  },
  'create-queue': { area: 'queue', needs: QUEUE },
  'get-queue': { area: 'queue', needs: QUEUE },
  'update-queue': { area: 'queue', needs: QUEUE },
  'delete-queue': { area: 'queue', needs: QUEUE },
  'pause-queue': { area: 'queue', needs: QUEUE },
  'resume-queue': { area: 'queue', needs: QUEUE },
  'drain-queue': { area: 'queue', needs: QUEUE },
  'list-pull-requests': { area: 'list-pull-requests', needs: QUEUE },
  'get-merge-queue-metrics': { area: 'metrics', needs: REPO_ONLY },
  'list-unhealthy-tests': { area: 'flaky-tests', needs: REPO_ONLY },
  'list-quarantined-tests': { area: 'flaky-tests', needs: REPO_ONLY },
  'list-failing-tests': { area: 'flaky-tests', needs: REPO_ONLY },
  'get-test-details': { area: 'flaky-tests', needs: REPO_ONLY },
  'link-ticket-to-test-case': { area: 'flaky-tests', needs: REPO_ONLY },
} as const satisfies Record<string, OperationInfo>;

export type OperationName = keyof typeof OPERATIONS;
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** `submitPullRequest` -> `submit-pull-request`; kebab-case names pass through lowercased. */
export function toKebabCase(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase();
}

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}
