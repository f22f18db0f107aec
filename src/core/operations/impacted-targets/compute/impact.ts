// Changed files -> impacted targets, by the config: a pure function of its inputs, and the same result
// whatever order the files come in (they are sorted first, so that "the first file that tripped a
// barrier" is the same on every run). Per file: a barrier makes everything impacted; an inert file claims
// nothing; else the first rule that matches (and does not exclude it) claims it for its targets; a file
// inside a workspace package claims that package; a file nothing claims is handled by `unmatched`.
// The package manager's own files (its lockfile; yarn berry's cache and install state) go as its rules
// say (lockfile-rule.ts) before that.
import type { CompiledRule, TargetsConfig } from './config.js';
import type { Attribution } from './lockfile-attribution.js';
import { managerFileClaim } from './lockfile-rule.js';
import type { PatternMatch } from './pattern-index.js';
import type { Workspace, WorkspacePackage } from './workspace.js';
import { escapeRegExp } from '../../../regexp.js';

export interface ChangedFile {
  path: string;
  /** The path no longer exists at the head: deleted, or the old side of a rename. */
  deleted: boolean;
  /** Set on the old side of a rename: the path it moved to. */
  renamedTo?: string;
}

/** How a target came to be impacted, for the summary. */
export interface Explanation {
  /** Rules, packages and other causes, by name. */
  via: Set<string>;
  /** The first few files that impacted it. */
  files: string[];
  fileCount: number;
}

export interface Impact {
  /** Set when every target is impacted. */
  all?: { reason: string; barrierFile?: string };
  /** What was found (kept under ALL too, for the summary). */
  targets: Map<string, Explanation>;
  changedCount: number;
  inertCount: number;
  unmatchedCount: number;
  /** The first few files that no rule claims. */
  unmatchedFiles: string[];
}

const SHOWN_FILES = 10;

export interface ImpactOptions {
  workspace?: Workspace;
  isMergeQueueTestRun: boolean;
  /** The lockfile's attribution, by path, when the change touches it (lockfile-change.ts). */
  lockfiles?: ReadonlyMap<string, Attribution>;
}

export function impactOf(
  config: TargetsConfig,
  changed: readonly ChangedFile[],
  options: ImpactOptions,
): Impact {
  const files = normalize(changed);
  const impact: Impact = {
    targets: new Map(),
    changedCount: files.length,
    inertCount: 0,
    unmatchedCount: 0,
    unmatchedFiles: [],
  };
  if (trippedBarrier(config, files, impact)) return impact;

  const changedPackages = new Set<string>();
  // A directory's files come together and mostly claim the same targets for the same causes: the last
  // rule match's and the last package's explanations are kept for the next file.
  let lastPackage: WorkspacePackage | undefined;
  let lastPackageExplanation: Explanation | undefined;
  let lastFound: RuleFound | undefined;
  let lastRuleExplanations: Explanation[] = [];
  const firstRule = ruleFinder(config);
  const tests = config.workspaces?.tests;
  const newPathOnly = config.workspaces?.renames === 'new-path';
  for (const { path, deleted, renamedTo } of files) {
    if (claimedAsInert(config, impact, path)) continue;
    const manager = options.workspace && managerFileClaim(options.workspace, path, options.lockfiles);
    if (manager && 'packages' in manager) {
      for (const [name, why] of manager.packages) {
        const pkg = options.workspace?.byName.get(name);
        if (!pkg) continue;
        add(impact, pkg.target, path, `package ${name}: ${why}`);
        changedPackages.add(name);
      }
      if (manager.packages.size === 0) impact.inertCount++;
      continue;
    }
    let claimed = false;
    const found = firstRule(path);
    if (found) {
      if (found !== lastFound) {
        lastFound = found;
        lastRuleExplanations = found.rule
          .targetsFor(found.captures)
          .map((target) => addCause(impact, target, found.rule.via));
      }
      for (const explanation of lastRuleExplanations) addFile(explanation, path);
      claimed = true;
    }
    // The old path of a rename claims no package where only the new path counts (the managers' rule).
    const movedAway = newPathOnly && renamedTo !== undefined;
    const pkg = manager || movedAway ? undefined : options.workspace?.packageOf(path);
    if (pkg) {
      if (pkg !== lastPackage) {
        lastPackage = pkg;
        lastPackageExplanation = addCause(impact, pkg.target, `package ${pkg.name}`);
      }
      addFile(lastPackageExplanation as Explanation, path);
      // A changed test of a package does not change what its dependents get from it.
      if (!tests?.first(path)) changedPackages.add(pkg.name);
      claimed = true;
    }
    if (claimed) continue;
    if (movedAway) {
      impact.inertCount++;
      continue;
    }

    unmatched(config, impact, path, deleted, manager?.unattributed);
  }
  if (options.workspace) addDependents(config, impact, changedPackages, options.workspace);
  if (options.isMergeQueueTestRun && config.mergeQueueTarget) {
    addCause(impact, config.mergeQueueTarget, 'a merge-queue test run');
  }
  return impact;
}

/** An inert file, or a docs file under the docs preset: it changes no target but its own, if any. */
function claimedAsInert(config: TargetsConfig, impact: Impact, path: string): boolean {
  if (config.inert.first(path)) {
    impact.inertCount++;
    if (config.inertTarget) add(impact, config.inertTarget, path, 'inert files');
    return true;
  }
  if (config.docs?.index.first(path)) {
    impact.inertCount++;
    if (config.docs.target) add(impact, config.docs.target, path, 'docs (the docs preset)');
    return true;
  }
  return false;
}

function trippedBarrier(config: TargetsConfig, files: readonly ChangedFile[], impact: Impact): boolean {
  const barrierOf = config.barriers.matcher();
  for (const file of files) {
    const barrier = barrierOf(file.path);
    if (barrier) {
      impact.all ??= {
        reason: `"${file.path}" matches the barrier "${barrier.value}"`,
        barrierFile: file.path,
      };
      return true;
    }
  }
  return false;
}

/**
 * A file that no rule, package or preset claims, handled by `unmatched` and `deleted-unmatched`; `why` says
 * why a lockfile change was not given to packages, when that is what left it unclaimed.
 */
function unmatched(
  config: TargetsConfig,
  impact: Impact,
  path: string,
  deleted: boolean,
  why?: string,
): void {
  impact.unmatchedCount++;
  if (impact.unmatchedFiles.length < SHOWN_FILES) impact.unmatchedFiles.push(path);
  const because = why ? `; its change could not be given to packages: ${why}` : '';
  if (deleted && config.deletedUnmatched === 'all') {
    impact.all ??= {
      reason: `the deleted file "${path}" is claimed by no rule (deleted-unmatched: all)${because}`,
    };
  } else if (config.unmatched.kind === 'all') {
    impact.all ??= { reason: `"${path}" is claimed by no rule (unmatched: all)${because}` };
  } else if (config.unmatched.kind === 'target') {
    add(impact, config.unmatched.target, path, why ? `unmatched files (${path}: ${why})` : 'unmatched files');
  }
}

/** The changed packages' dependents, each explained by the package-manager rule that links it. */
function addDependents(config: TargetsConfig, impact: Impact, changed: Set<string>, workspace: Workspace) {
  if (!config.workspaces || changed.size === 0) return;
  for (const [name, { through, rule }] of workspace.dependentsOf(changed, config.workspaces.depth)) {
    const pkg = workspace.byName.get(name);
    if (pkg) addCause(impact, pkg.target, `package ${name} depends on ${through}: ${rule}`);
  }
}

/**
 * Adds the members of every impacted group, recursively. A member is a target name, where `*` stands for
 * any run of characters and is expanded against `known()`, every target the config can produce.
 */
export function expandGroups(config: TargetsConfig, impact: Impact, known: () => Iterable<string>): void {
  if (config.groups.size === 0) return;
  let knownList: string[] | undefined;
  const pending = [...impact.targets.keys()].filter((t) => config.groups.has(t));
  const expanded = new Set<string>();
  while (pending.length > 0) {
    const group = pending.pop() as string;
    if (expanded.has(group)) continue;
    expanded.add(group);
    for (const member of config.groups.get(group) ?? []) {
      const names = member.includes('*')
        ? matchingTargets(member, (knownList ??= [...new Set(known())]))
        : [member];
      for (const name of names) {
        if (name === group) continue;
        addCause(impact, name, `group ${group}`);
        if (config.groups.has(name) && !expanded.has(name)) pending.push(name);
      }
    }
  }
}

function matchingTargets(member: string, known: readonly string[]): string[] {
  const regex = new RegExp(`^${member.split('*').map(escapeRegExp).join('.*')}$`);
  return known.filter((name) => regex.test(name));
}

/** Every target the config names or can produce from these paths (for groups and the outputs' map). */
export function knownTargets(
  config: TargetsConfig,
  paths: Iterable<string>,
  workspace?: Workspace,
): Set<string> {
  const known = new Set<string>();
  for (const rule of config.rules)
    for (const target of rule.targets) if (!target.includes('{')) known.add(target);
  for (const [group, members] of config.groups) {
    known.add(group);
    for (const member of members) if (!member.includes('*')) known.add(member);
  }
  for (const extra of [config.inertTarget, config.mergeQueueTarget]) if (extra) known.add(extra);
  if (config.unmatched.kind === 'target') known.add(config.unmatched.target);
  if (workspace) for (const pkg of workspace.byName.values()) known.add(pkg.target);
  const dynamic = config.rules.some((rule) => rule.targets.some((t) => t.includes('{')));
  if (dynamic) {
    const firstRule = ruleFinder(config);
    for (const path of paths) {
      const found = firstRule(path);
      if (found) for (const target of found.rule.targetsFor(found.captures)) known.add(target);
    }
  }
  return known;
}

interface RuleFound {
  rule: CompiledRule;
  captures: Record<string, string>;
}

/**
 * Finds the rule that claims a path: the first whose match holds it and whose exclude does not. Made for
 * paths in sorted order: without excludes, a directory's files share the answer when the directory alone
 * decides it (and then the same object comes back).
 */
export function ruleFinder(config: TargetsConfig): (path: string) => RuleFound | undefined {
  const accept = (index: number, path: string) => {
    const excludes = config.rules[index]?.excludes;
    return !excludes?.length || !excludes.some((exclude) => exclude.match(path));
  };
  const first = config.rules.some((rule) => rule.excludes.length > 0)
    ? (path: string) => config.ruleIndex.first(path, accept)
    : config.ruleIndex.matcher();
  let lastMatch: PatternMatch<number> | undefined;
  let lastFound: RuleFound | undefined;
  return (path) => {
    const match = first(path);
    if (match !== lastMatch) {
      lastMatch = match;
      const rule = match && config.rules[match.value];
      lastFound = rule && { rule, captures: match.captures };
    }
    return lastFound;
  };
}

/** Deduplicated and sorted; a path is deleted only if no entry says it still exists. */
function normalize(changed: readonly ChangedFile[]): readonly ChangedFile[] {
  // git lists a diff sorted, each path once: then there is nothing to do.
  const sorted = changed.every(
    (file, i) => file.path && (i === 0 || (changed[i - 1] as ChangedFile).path < file.path),
  );
  if (sorted) return changed;
  const byPath = new Map<string, boolean>();
  const renamedTo = new Map<string, string>();
  for (const file of changed) {
    if (!file.path) continue;
    byPath.set(file.path, (byPath.get(file.path) ?? true) && file.deleted);
    if (file.renamedTo !== undefined) renamedTo.set(file.path, file.renamedTo);
  }
  return [...byPath.keys()].sort(compareCodeUnits).map((path) => {
    const deleted = byPath.get(path) as boolean;
    const to = deleted ? renamedTo.get(path) : undefined;
    return to === undefined ? { path, deleted } : { path, deleted, renamedTo: to };
  });
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function add(impact: Impact, target: string, path: string, via: string): void {
  addFile(addCause(impact, target, via), path);
}

function addFile(explanation: Explanation, path: string): void {
  explanation.fileCount++;
  if (explanation.files.length < SHOWN_FILES) explanation.files.push(path);
}

function addCause(impact: Impact, target: string, via: string): Explanation {
  let explanation = impact.targets.get(target);
  if (!explanation) {
    explanation = { via: new Set(), files: [], fileCount: 0 };
    impact.targets.set(target, explanation);
  }
  explanation.via.add(via);
  return explanation;
}
