// The package manager's own settings that change the workspace graph, and each manager's rules where our
// config may choose otherwise (docs/impacted-targets.md has the table):
// - whether a plain range (`^1.2.0`, not `workspace:`) to a workspace package links it: yarn berry's
//   `enableTransparentWorkspaces` in .yarnrc.yml (default true); pnpm's `link-workspace-packages` in .npmrc
//   or `linkWorkspacePackages` in pnpm-workspace.yaml (default false from pnpm 9, true before); npm and
//   yarn classic link it when the workspace's version satisfies it;
// - whether peerDependencies link: pnpm's graph follows them, yarn's and turbo's do not;
// - whom a lockfile change impacts: pnpm's change filter gives it to the root project, yarn berry's
//   (`--since`, yarn 2 to 4) leaves it and yarn's own files out, turbo (npm, yarn classic) gives each
//   project the changes of its own resolved dependencies.
// Settings files are PR-controlled: read through the tree (real path, regular file, capped), and only the
// one line each setting takes is looked at.
import type { PackageManager } from './workspace-manifest.js';
import type { WorkspaceTree } from './workspace-tree.js';

export type LockfileMode = 'resolved' | 'root' | 'ignore';
export type PeersMode = 'follow' | 'ignore';

export interface ManagerSettings {
  manager: PackageManager;
  /** Yarn 2 and later. */
  berry: boolean;
  /** The lockfile's path at the root. */
  lockfile: string;
  /** Whether a plain range to a workspace package can link it (the lockfile, where read, still decides). */
  plainRangesLink: boolean;
  /** Where `plainRangesLink` comes from, for explanations. */
  plainRangesSetting: string;
  /** The manager's own rules, which the config may override. */
  peers: PeersMode;
  lockfileMode: LockfileMode;
}

export function managerSettings(
  tree: WorkspaceTree,
  manager: PackageManager,
  berry: boolean,
  packageManagerField: string,
): ManagerSettings {
  if (manager === 'pnpm') return pnpmSettings(tree, packageManagerField);
  if (manager === 'yarn' && berry) {
    const transparent =
      setting(tree.read('.yarnrc.yml'), /^enableTransparentWorkspaces:\s*(\S+)/m) !== 'false';
    return {
      manager,
      berry,
      lockfile: 'yarn.lock',
      plainRangesLink: transparent,
      plainRangesSetting: `enableTransparentWorkspaces: ${transparent} (.yarnrc.yml)`,
      peers: 'ignore',
      lockfileMode: 'ignore',
    };
  }
  return {
    manager,
    berry,
    lockfile: manager === 'yarn' ? 'yarn.lock' : 'package-lock.json',
    plainRangesLink: true,
    plainRangesSetting: `${manager} links a workspace package whose version satisfies the range`,
    peers: 'ignore',
    lockfileMode: 'resolved',
  };
}

function pnpmSettings(tree: WorkspaceTree, packageManagerField: string): ManagerSettings {
  const fromWorkspace = setting(tree.read('pnpm-workspace.yaml'), /^linkWorkspacePackages:\s*(\S+)/m);
  const fromNpmrc = setting(tree.read('.npmrc'), /^\s*link-workspace-packages\s*=\s*(\S+)/m);
  const major = Number(/^pnpm@(\d+)/.exec(packageManagerField)?.[1] ?? 'NaN');
  const value = fromWorkspace ?? fromNpmrc;
  const links = value !== undefined ? value !== 'false' : major < 9;
  const where =
    fromWorkspace !== undefined
      ? 'pnpm-workspace.yaml'
      : fromNpmrc !== undefined
        ? '.npmrc'
        : `pnpm's default${Number.isNaN(major) ? '' : ` in pnpm ${major}`}`;
  return {
    manager: 'pnpm',
    berry: false,
    lockfile: 'pnpm-lock.yaml',
    plainRangesLink: links,
    plainRangesSetting: `link-workspace-packages: ${links} (${where})`,
    peers: 'follow',
    lockfileMode: 'root',
  };
}

/** The value a setting's line gives, quotes and a trailing comment removed; undefined when absent. */
function setting(text: string | undefined, line: RegExp): string | undefined {
  const value = text === undefined ? undefined : line.exec(text)?.[1];
  return value
    ?.replace(/#.*$/, '')
    .replace(/^['"]|['"]$/g, '')
    .toLowerCase();
}
