// A workspace package as the graph holds it, and how the config asks for the workspace to be read.
import type { LockfileMode, PeersMode } from './workspace-settings.js';

export interface WorkspacePackage {
  name: string;
  /** Relative to the repository root, with `/`. */
  dir: string;
  target: string;
  /** Names of the workspace packages it depends on. */
  dependsOn: string[];
  /** Why it depends on each, by name. */
  rules?: Map<string, string>;
  /**
   * Its manifest's dependencies (name, range), for the lockfiles whose changes are resolved from the
   * manifests: yarn classic's (which lists no projects) and package-lock.json (turbo reads the manifest).
   */
  declared?: [string, string][];
}

/** Each project's manifest dependencies (name, range), by directory. */
export type ManifestDependencies = Map<string, [string, string][]>;

/** How the workspace is read: the target template, the root's target, implicit dependents. */
export interface WorkspaceOptions {
  target: string;
  /** Makes the root a package with this target; else the root is not one. */
  root?: string;
  /** Package name -> globs of the packages (by name or directory) that depend on it without saying so. */
  implicit?: Map<string, string[]>;
  /** Overrides the manager's own rule for peerDependencies. */
  peers?: PeersMode;
  /** Overrides the manager's own rule for whom a lockfile change impacts. */
  lockfile?: LockfileMode;
}
