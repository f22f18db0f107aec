// The rules the workspace graph follows: the package manager's settings (workspace-settings.ts) with the
// config's choices applied, and what turbo's graph adds under its rules (lockfile: resolved): the root
// sits under every package, so that a workspace package the root depends on is every package's
// dependency too.
import type { Edge } from './workspace-edges.js';
import type { Manifest } from './workspace-manifest.js';
import { managerSettings, type ManagerSettings } from './workspace-settings.js';
import type { WorkspaceTree } from './workspace-tree.js';
import type { WorkspaceOptions, WorkspacePackage } from './workspace-package.js';

/** The manager's settings with the config's choices applied: what the compute follows. */
export interface WorkspaceRules extends ManagerSettings {
  /** Which of peers and lockfile the config chose rather than the manager. */
  chosen: string[];
}

export function workspaceRules(
  tree: WorkspaceTree,
  layout: { manager: ManagerSettings['manager']; berry: boolean; rootManifest?: Manifest },
  options: WorkspaceOptions,
): WorkspaceRules {
  const field = layout.rootManifest?.packageManager;
  const settings = managerSettings(
    tree,
    layout.manager,
    layout.berry,
    typeof field === 'string' ? field : '',
  );
  const chosen = [options.peers && 'peers', options.lockfile && 'lockfile'].filter((c): c is string => !!c);
  return {
    ...settings,
    peers: options.peers ?? settings.peers,
    lockfileMode: options.lockfile ?? settings.lockfileMode,
    chosen,
  };
}

/** A manifest's dependencies (not peers), as name and range. */
export function declaredDependencies(manifest: Manifest): [string, string][] {
  const declared: [string, string][] = [];
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const entries = manifest[field];
    if (!entries || typeof entries !== 'object' || Array.isArray(entries)) continue;
    for (const [name, range] of Object.entries(entries as Record<string, unknown>)) {
      if (typeof range === 'string') declared.push([name, range]);
    }
  }
  return declared;
}

/** Every package gets the root's workspace dependencies, explained by the root's own rule. */
export function addRootDependencies(packages: WorkspacePackage[], rootEdges: Edge[]): void {
  for (const edge of rootEdges) {
    for (const pkg of packages) {
      if (pkg.name === edge.to || pkg.dependsOn.includes(edge.to)) continue;
      pkg.dependsOn.push(edge.to);
      (pkg.rules ??= new Map()).set(
        edge.to,
        `the root's ${edge.rule}, and turbo puts the root under every package`,
      );
    }
  }
}
