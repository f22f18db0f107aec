/** Why the workspace could not be read: a compute error (fail-safe), not a config error. */
export class WorkspaceError extends Error {}
