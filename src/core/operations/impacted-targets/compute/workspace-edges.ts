// Which workspace package a dependency entry links, by the package managers' rules, and the rule that
// decided it (explanations name it):
// - `workspace:` (pnpm, yarn berry): the package of that name, or of that directory
//   (`workspace:../core`, yarn berry's path form), or the alias's (`workspace:core@*`, pnpm);
// - `file:`, `link:`, `portal:`: the package in that directory, whatever the entry's name;
// - `npm:`, git and URL specs install from elsewhere: no link;
// - a plain range or tag: the workspace package of that name, where the manager's settings let a plain
//   range link (workspace-settings.ts: pnpm's link-workspace-packages, yarn berry's
//   enableTransparentWorkspaces) and the workspace copy satisfies the range (its version, where it has
//   one); where the lockfile (pnpm-lock.yaml, package-lock.json) says whether the project got the
//   workspace copy or a registry one, that decides.
// peerDependencies link only where the manager follows them (pnpm; not yarn nor turbo), or the config says.
import { satisfies, validRange } from 'semver';
import type { Lockfile } from './workspace-lockfile.js';
import type { PeersMode } from './workspace-settings.js';

export interface Edge {
  /** The dependency's package name. */
  to: string;
  /** The rule that made the link, e.g. `devDependencies "vite": "workspace:*" (workspace: protocol)`. */
  rule: string;
}

export interface EdgeContext {
  dir: string;
  nameAt(dir: string): string | undefined;
  has(name: string): boolean;
  /** The version a workspace package's manifest gives, if any. */
  versionOf(name: string): string | undefined;
  /** The lockfile (pnpm's or npm's), read on first use; undefined when there is none (then a plain range links). */
  lockfile(): { file: string; lock: Lockfile } | undefined;
  /** Whether a plain range may link a workspace package, and the setting that says so. */
  plainRanges: { link: boolean; setting: string };
  peers: PeersMode;
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const ELSEWHERE = /^(npm:|git[+:]|https?:|github:|gitlab:|bitbucket:|patch:|exec:|catalog:)/;

export function edgesOf(manifest: Record<string, unknown>, context: EdgeContext): Edge[] {
  const edges: Edge[] = [];
  const seen = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) {
    if (field === 'peerDependencies' && context.peers === 'ignore') continue;
    const entries = manifest[field];
    if (!entries || typeof entries !== 'object' || Array.isArray(entries)) continue;
    for (const [name, spec] of Object.entries(entries as Record<string, unknown>)) {
      if (typeof spec !== 'string') continue;
      const link = linkOf(name, spec.trim(), context);
      if (!link || seen.has(link.to)) continue;
      seen.add(link.to);
      edges.push({
        to: link.to,
        rule: `${field} ${JSON.stringify(name)}: ${JSON.stringify(spec)} (${link.why})`,
      });
    }
  }
  return edges;
}

function linkOf(name: string, spec: string, context: EdgeContext): { to: string; why: string } | undefined {
  const protocol = /^(workspace|file|link|portal):/.exec(spec)?.[1];
  if (protocol === 'workspace') return workspaceLink(name, spec.slice('workspace:'.length), context);
  if (protocol) {
    const to = context.nameAt(joinDir(context.dir, spec.slice(protocol.length + 1)));
    return to ? { to, why: `${protocol}: dependency, by directory` } : undefined;
  }
  if (ELSEWHERE.test(spec) || /^[^@./][^:]*\/[^/]/.test(spec) || !context.has(name)) return undefined;
  if (!context.plainRanges.link) return undefined;
  const lockfile = context.lockfile();
  const links = lockfile?.lock.links(context.dir, name);
  if (links === false) return undefined;
  if (links === undefined && !satisfiedBy(context.versionOf(name), spec)) return undefined;
  return {
    to: name,
    why: links
      ? `same name; ${lockfile?.file} links it`
      : `same name as a workspace package; ${context.plainRanges.setting}`,
  };
}

/**
 * Whether the workspace copy can stand for a plain range, as the managers decide without a lockfile (yarn
 * reads none here): its version satisfies the range. A package without a version, or a spec that is no
 * range (a tag), is taken to link, as before: more impacted, never less.
 */
function satisfiedBy(version: string | undefined, spec: string): boolean {
  if (version === undefined || validRange(spec) === null) return true;
  try {
    return satisfies(version, spec);
  } catch {
    return true;
  }
}

function workspaceLink(name: string, rest: string, context: EdgeContext) {
  if (rest.startsWith('.') || rest.startsWith('/')) {
    const to = context.nameAt(joinDir(context.dir, rest));
    return to ? { to, why: 'workspace: protocol, by directory' } : undefined;
  }
  const alias = /^(@?[^@]+)@/.exec(rest)?.[1];
  const to = alias ?? name;
  return context.has(to) ? { to, why: 'workspace: protocol' } : undefined;
}

/** `base` joined with a relative path, normalized; undefined outside the repository. */
function joinDir(base: string, relative: string): string {
  const parts = base ? base.split('/') : [];
  for (const part of relative.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return '\0outside';
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}
