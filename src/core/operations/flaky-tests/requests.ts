// What every flaky-tests request carries, and 404s turned into advice about the inputs that name things.
import { ApiError } from '../../api/errors.js';
import type { Repo } from '../../../wire/index.js';
import { neededBy } from '../../errors.js';
import { nameOf, words, type Words } from '../../words.js';
import type { OperationContext } from '../types.js';
import type { FlakyTestsSettings } from './inputs.js';

export function flakyRepo(op: OperationContext<FlakyTestsSettings>): Repo {
  const { host, owner, name } = op.context.repo;
  return { host, owner, name };
}

/** The repository and the organization's URL slug (settings require org-url-slug for these operations). */
export function flakyRequestBase(op: OperationContext<FlakyTestsSettings>): {
  repo: Repo;
  org_url_slug: string;
} {
  return {
    repo: flakyRepo(op),
    org_url_slug: requireInput(op, op.settings.orgUrlSlug, 'org-url-slug', "your organization's slug"),
  };
}

/** Settings require these inputs for their operations; this keeps the types honest. */
export function requireInput(
  op: OperationContext<FlakyTestsSettings>,
  value: string | undefined,
  input: string,
  what: string,
): string {
  if (value) return value;
  throw neededBy(op.operation, input, what);
}

export const REPOSITORY_NOT_FOUND = words`Check ${nameOf('org-url-slug')}, ${nameOf('repo')} and ${nameOf('repo-host')}: the service knows no such repository in that organization.`;

/** For `.catch()`: a 404 gets `advice` (which inputs to check) instead of the generic one. */
export function adviseOnNotFound(advice: Words): (error: unknown) => never {
  return (error) => {
    if (error instanceof ApiError && error.status === 404) {
      throw error.withDetail(words`the API answered 404. ${advice}`);
    }
    throw error;
  };
}
