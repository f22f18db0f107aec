// lint-impacted-targets-config: runs the config over every tracked file, to find the files no rule claims
// (each would impact everything under unmatched: all) and the globs that match no tracked file (dead
// rules, or a typo). With strict, either fails the step.
import { resolve } from 'node:path';
import { plural } from '../../../report/words.js';
import { Markdown, escapeMarkdown } from '../../../report/markdown.js';
import type { Operation } from '../../types.js';
import { loadTargetsConfig, type TargetsConfig } from './config.js';
import { trackedFiles } from './git-changes.js';
import type { LintSettings } from './inputs.js';
import type { PathPattern } from './pattern.js';
import { readWorkspace, type Workspace } from './workspace.js';
import { recentCommits } from './git-history.js';
import { replayHistory } from './lint-history.js';
import { historyLockfiles, managerView } from './lint-history-manager.js';
import { addHistorySummary, historyLine } from './lint-history-summary.js';

const SHOWN = 100;

export interface LintReport {
  trackedCount: number;
  unclaimed: string[];
  /** Globs that match no tracked file, each with where it is in the config. */
  unused: string[];
}

export function lintConfig(
  config: TargetsConfig,
  tracked: readonly string[],
  workspace?: Workspace,
): LintReport {
  const used = new Set<PathPattern>();
  const unclaimed: string[] = [];
  const mark = (found: { pattern: PathPattern }[]) => found.forEach((f) => used.add(f.pattern));
  for (const path of tracked) {
    const barriers = config.barriers.all(path);
    mark(barriers);
    const inert = config.inert.all(path);
    mark(inert);
    const rules = config.ruleIndex.all(path);
    mark(rules);
    for (const rule of config.rules)
      for (const exclude of rule.excludes) if (exclude.match(path)) used.add(exclude);
    const claimedByRule = rules.some(
      (candidate) => !config.rules[candidate.value]?.excludes.some((exclude) => exclude.match(path)),
    );
    if (barriers.length === 0 && inert.length === 0 && !claimedByRule && !workspace?.packageOf(path))
      unclaimed.push(path);
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
  return { trackedCount: tracked.length, unclaimed, unused };
}

export const lintImpactedTargetsConfig: Operation<LintSettings> = async (op) => {
  const cwd = resolve(op.workingDirectory, op.settings.workingDirectory);
  const config = await loadTargetsConfig(op.settings.config, cwd);
  const workspace = config.workspaces ? await readWorkspace(cwd, config.workspaces) : undefined;
  const tracked = await trackedFiles(cwd, op.common.timeoutMs);
  const report = lintConfig(config, tracked, workspace);
  const clean = report.unclaimed.length === 0 && report.unused.length === 0;
  const line = `${config.file}: ${report.trackedCount} tracked file(s); ${report.unclaimed.length} claimed by no rule; ${report.unused.length} glob(s) match no tracked file.`;
  op.log.info(line);
  for (const path of report.unclaimed.slice(0, SHOWN)) op.log.info(`claimed by no rule: ${path}`);
  for (const glob of report.unused) op.log.info(`matches no tracked file: ${glob}`);

  const summary = new Markdown()
    .heading(
      clean
        ? `✅ ${config.file}: every file claimed, every glob used`
        : `⚠️ ${config.file}: ${plural(report.unclaimed.length, 'file')} claimed by no rule, ${plural(report.unused.length, 'glob')} matching no file`,
    )
    .facts([
      ['Config', config.file],
      ['Tracked files', report.trackedCount],
      [
        'Claimed by no rule',
        `${report.unclaimed.length}${report.unclaimed.length && config.unmatched.kind === 'all' ? ' (each would impact ALL: unmatched is all)' : ''}`,
      ],
      ['Globs matching no tracked file', report.unused.length],
    ]);
  if (report.unclaimed.length)
    summary.details(`Files claimed by no rule (${report.unclaimed.length})`, list(report.unclaimed));
  if (report.unused.length)
    summary.details(`Globs matching no tracked file (${report.unused.length})`, list(report.unused));
  if (op.settings.history > 0) {
    const commits = await recentCommits(cwd, op.settings.history, op.common.timeoutMs);
    const manager = await managerView(config, cwd);
    const lockfiles = await historyLockfiles([workspace, manager?.workspace], commits, {
      cwd,
      timeoutMs: op.common.timeoutMs,
    });
    const history = replayHistory(config, commits, workspace, { lockfiles, manager });
    op.log.info(historyLine(history));
    for (const [name, n] of history.fired) op.log.info(`fired in ${n} commit(s): ${name}`);
    addHistorySummary(summary, history);
  }
  return {
    outputs: {
      'unclaimed-files-count': report.unclaimed.length,
      'unused-rules-count': report.unused.length,
      'unclaimed-files': JSON.stringify(report.unclaimed.slice(0, 1000)),
    },
    summary,
    failure:
      op.settings.strict && !clean
        ? `${line} Claim the files with a rule, inert or barriers, and fix or remove the unused globs (strict is on).`
        : undefined,
  };
};

function list(items: string[]): string {
  const shown = items.slice(0, SHOWN).map((item) => `- ${escapeMarkdown(item)}`);
  if (items.length > SHOWN) shown.push(`- … and ${items.length - SHOWN} more`);
  return shown.join('\n');
}
