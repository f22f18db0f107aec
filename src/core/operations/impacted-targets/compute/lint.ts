// lint-impacted-targets-config: runs the config over every tracked file in the order compute-impacted-
// targets does (barriers, inert, the docs preset, the package manager's files, the rules, workspace
// packages), to say which part of the config claims which files and what it impacts, which files nothing
// claims (each would be handled by unmatched) and which globs match no tracked file (dead rules, or a
// typo). With strict, unclaimed files or unused globs fail the step.
import { resolve } from 'node:path';
import type { Operation } from '../../types.js';
import { loadTargetsConfig, type TargetsConfig } from './config.js';
import { trackedFiles } from './git-changes.js';
import { ruleFinder } from './impact.js';
import type { LintSettings } from './inputs.js';
import { managerFileClaim } from './lockfile-rule.js';
import type { PathPattern } from './pattern.js';
import { readWorkspace, type Workspace } from './workspace.js';
import { recentCommits } from './git-history.js';
import { replayHistory } from './lint-history.js';
import { historyLockfiles, managerView } from './lint-history-manager.js';
import { addHistorySummary, historyLine } from './lint-history-summary.js';
import type { Claim, LintReport } from './lint-report.js';
import { lintLine, lintSummary } from './lint-summary.js';
import { plural } from '../../../report/words.js';

const EXAMPLES = 3;

export function lintConfig(
  config: TargetsConfig,
  tracked: readonly string[],
  workspace?: Workspace,
): LintReport {
  const claims = claimants(config);
  const claimOf = claimFinder(config, claims, workspace);
  const unclaimed: string[] = [];
  for (const path of tracked) {
    const claim = claimOf(path);
    if (!claim) {
      unclaimed.push(path);
      continue;
    }
    claim.count++;
    if (claim.examples.length < EXAMPLES) claim.examples.push(path);
  }
  return {
    config: config.file,
    trackedCount: tracked.length,
    claims: claims.all.filter((claim) => claim.count > 0 || claim.by.startsWith('rule ')),
    unclaimed,
    unclaimedImpacts: unmatchedImpacts(config),
    unused: unusedGlobs(config, tracked),
  };
}

interface Claimants {
  all: Claim[];
  barriers: Claim;
  inert: Claim;
  docs: Claim;
  manager: Claim;
  rules: Claim[];
  packages: Claim;
}

function claimants(config: TargetsConfig): Claimants {
  const claim = (by: string, impacts: string): Claim => ({ by, impacts, count: 0, examples: [] });
  const barriers = claim('barriers', 'ALL (every target)');
  const inert = claim('inert', config.inertTarget ?? 'nothing');
  const docs = claim('docs preset', config.docs?.target ?? 'nothing (docs: ignore)');
  const manager = claim("the package manager's files", 'the packages their change touches');
  const rules = config.rules.map((rule) => claim(rule.via, rule.targets.join(', ')));
  const packages = claim('workspace packages', `their package (${config.workspaces?.target ?? ''})`);
  return {
    all: [barriers, inert, docs, manager, ...rules, packages],
    ...{ barriers, inert, docs, manager, rules, packages },
  };
}

/** The part of the config that claims a path, as compute-impacted-targets decides it, else undefined. */
function claimFinder(config: TargetsConfig, claims: Claimants, workspace?: Workspace) {
  const firstRule = ruleFinder(config);
  return (path: string): Claim | undefined => {
    if (config.barriers.first(path)) return claims.barriers;
    if (config.inert.first(path)) return claims.inert;
    if (config.docs?.index.first(path)) return claims.docs;
    if (workspace && managerFileClaim(workspace, path, undefined)) return claims.manager;
    const found = firstRule(path);
    if (found) return claims.rules[config.rules.indexOf(found.rule)];
    return workspace?.packageOf(path) ? claims.packages : undefined;
  };
}

function unmatchedImpacts(config: TargetsConfig): string {
  const policy = config.unmatched;
  if (policy.kind === 'all') return 'ALL (unmatched: all)';
  return policy.kind === 'ignore' ? 'nothing (unmatched: ignore)' : `${policy.target} (unmatched)`;
}

/** The config's own globs (not the docs preset's) that no tracked file matches. */
function unusedGlobs(config: TargetsConfig, tracked: readonly string[]): string[] {
  const used = new Set<PathPattern>();
  const mark = (found: { pattern: PathPattern }[]) => found.forEach((f) => used.add(f.pattern));
  for (const path of tracked) {
    mark(config.barriers.all(path));
    mark(config.inert.all(path));
    mark(config.ruleIndex.all(path));
    for (const rule of config.rules)
      for (const exclude of rule.excludes) if (exclude.match(path)) used.add(exclude);
  }
  const unused: string[] = [];
  const check = (pattern: PathPattern, where: string) => {
    if (!used.has(pattern)) unused.push(`${where}: "${pattern.source}"`);
  };
  config.rules.forEach((rule, i) => {
    const name = `rules[${i}]${rule.label !== rule.patterns[0]?.source ? ` (${rule.label})` : ''}`;
    rule.patterns.forEach((p) => check(p, `${name} match`));
    rule.excludes.forEach((p) => check(p, `${name} exclude`));
  });
  for (const [key, index] of [
    ['barriers', config.barriers],
    ['inert', config.inert],
  ] as const) {
    for (const pattern of index.patterns()) check(pattern, key);
  }
  return unused;
}

export const lintImpactedTargetsConfig: Operation<LintSettings> = async (op) => {
  const cwd = resolve(op.workingDirectory, op.settings.workingDirectory);
  const config = await loadTargetsConfig(op.settings.config, cwd);
  const workspace = config.workspaces ? await readWorkspace(cwd, config.workspaces) : undefined;
  const tracked = await trackedFiles(cwd, op.common.timeoutMs);
  const report = lintConfig(config, tracked, workspace);
  const clean = report.unclaimed.length === 0 && report.unused.length === 0;
  const line = lintLine(report);
  // Where a page shows the result (the CLI in a terminal), the log does not say it again.
  (op.log.outcome ?? op.log.info)(line);
  const summary = lintSummary(report);
  if (op.settings.history > 0) {
    const commits = await recentCommits(cwd, op.settings.history, op.common.timeoutMs);
    const manager = await managerView(config, cwd);
    const lockfiles = await historyLockfiles([workspace, manager?.workspace], commits, {
      cwd,
      timeoutMs: op.common.timeoutMs,
    });
    const history = replayHistory(config, commits, workspace, { lockfiles, manager });
    op.log.info(historyLine(history));
    for (const [name, n] of history.fired) op.log.info(`fired in ${plural(n, 'commit')}: ${name}`);
    addHistorySummary(summary, history);
  }
  return {
    outputs: {
      'unclaimed-files-count': report.unclaimed.length,
      'unused-rules-count': report.unused.length,
      'unclaimed-files': JSON.stringify(report.unclaimed.slice(0, 1000)),
    },
    summary,
    details: { kind: 'targets-config-lint', report },
    failure:
      op.settings.strict && !clean
        ? `${line} Claim the files with a rule, inert or barriers, and fix or remove the unused globs (strict is on).`
        : undefined,
  };
};
