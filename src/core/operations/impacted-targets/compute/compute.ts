// Works out a PR's impacted targets: the config, the changed files, the workspace, the rules, groups,
// dependents and the merge-queue target, then the max-targets cap. Fail-safe: when the changed files or
// dependents cannot be found, every target is impacted (with a warning and the reason), unless
// on-compute-error is fail. A bad config always fails: it is the user's to fix, and ALL would hide it.
import { resolve } from 'node:path';
import type { ResolvedContext } from '../../../context.js';
import { InputError, StepFailure } from '../../../errors.js';
import { quoted } from '../../../inputs.js';
import { beginChangedFiles, type ChangedFiles } from './changed-files.js';
import { loadTargetsConfig, type TargetsConfig } from './config.js';
import { trackedFiles } from './git-changes.js';
import { expandGroups, impactOf, knownTargets, type Impact } from './impact.js';
import { lockfileAttributions } from './lockfile-change.js';
import type { ComputeSettings } from './inputs.js';
import { CommandError, lastLine, runCommand } from './run-command.js';
import { nameOf, words, type Words } from '../../../words.js';
import { readWorkspace, type Workspace } from './workspace.js';
import { plural } from '../../../report/words.js';

const MAX_COMMAND_OUTPUT = 16 * 1024 * 1024;

export interface ComputeRequest {
  settings: ComputeSettings;
  context: ResolvedContext;
  githubToken?: string;
  timeoutMs: number;
  log: { info(line: string): void; warning(line: string | Words): void };
  /** For a changed-files-file given as `-`. */
  stdin?: AsyncIterable<Buffer | string>;
}

export interface Computed {
  config: TargetsConfig;
  impact: Impact;
  /** Where the changed files came from, in words; empty when they could not be found. */
  from: string;
  /** Every target the config is known to produce, for the outputs' map. */
  known: Set<string>;
  /** Set when a compute error was turned into ALL. */
  computeError?: string;
}

export async function computeImpact(request: ComputeRequest): Promise<Computed> {
  const { settings, context } = request;
  const cwd = resolve(settings.workingDirectory);
  // git's processes start before the config is read, to work meanwhile; a bad config stops them.
  const pending = beginChangedFiles({
    settings,
    context,
    githubToken: request.githubToken,
    timeoutMs: request.timeoutMs,
    log: request.log.info,
    stdin: request.stdin,
  });
  let config: TargetsConfig;
  try {
    config = await loadTargetsConfig(settings.config, cwd);
  } catch (error) {
    pending.cancel();
    throw error;
  }
  let changed: ChangedFiles | undefined;
  try {
    const changes = pending.find();
    // git works in its own processes while the workspace's manifests are read here, a few at a time with
    // git's output taken in between; a problem with the changed files is still the one reported when both
    // go wrong.
    const workspaceRead = attempt(async () =>
      config.workspaces ? readWorkspace(cwd, config.workspaces) : undefined,
    );
    changed = await changes;
    const workspace = await workspaceRead;
    request.log.info(`${plural(changed.files.length, 'changed file')} from ${changed.from}.`);
    const packages = workspace.value;
    if (packages) request.log.info(`${plural(packages.size, 'workspace package')} from ${packages.source}.`);
    if ('error' in workspace) throw workspace.error;
    const lockfiles = await lockfileAttributions(workspace.value, changed.files, {
      base: changed.base,
      head: changed.head,
      cwd,
      timeoutMs: request.timeoutMs,
      from: changed.from,
    });
    const impact = impactOf(config, changed.files, {
      workspace: workspace.value,
      isMergeQueueTestRun: context.isMergeQueueTestRun,
      lockfiles,
    });
    if (changed.incompleteReason && !impact.all) impact.all = { reason: changed.incompleteReason };
    const known = await knownSet(config, impact, workspace.value, cwd, request.timeoutMs);
    if (!impact.all) await addCommandTargets(config, impact, changed, cwd);
    if (!impact.all) expandGroups(config, impact, () => known);
    capTargets(config, impact);
    for (const target of impact.targets.keys()) known.add(target);
    return { config, impact, from: changed.from, known };
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = `the impacted targets could not be computed: ${(error as Error).message}`;
    if (settings.onComputeError === 'fail')
      throw new StepFailure(words`${capitalize(reason)} (${nameOf('on-compute-error')}: fail).`);
    request.log.warning(
      words`Impacting ALL targets, because ${reason}. Set ${nameOf('on-compute-error')}: fail to fail the step instead.`,
    );
    const impact: Impact = {
      all: { reason },
      targets: new Map(),
      changedCount: changed?.files.length ?? 0,
      inertCount: 0,
      unmatchedCount: 0,
      unmatchedFiles: [],
    };
    return {
      config,
      impact,
      from: changed?.from ?? '',
      known: knownTargets(config, []),
      computeError: reason,
    };
  }
}

/**
 * Every target the config can produce. Groups with a `*` member are expanded against it, so then it is
 * worked out from every tracked file; otherwise it feeds only the outputs' map.
 */
async function knownSet(
  config: TargetsConfig,
  impact: Impact,
  workspace: Workspace | undefined,
  cwd: string,
  timeoutMs: number,
): Promise<Set<string>> {
  const needsEveryFile = [...config.groups.values()].some((members) => members.some((m) => m.includes('*')));
  // Otherwise the targets made from the changed files are added once they are known.
  const paths = needsEveryFile && !impact.all ? await trackedFiles(cwd, timeoutMs) : [];
  return knownTargets(config, paths, workspace);
}

/** The user's own tool (nx, turbo, bazel query): the changed files on its stdin, one target a line back. */
async function addCommandTargets(config: TargetsConfig, impact: Impact, changed: ChangedFiles, cwd: string) {
  if (!config.command) return;
  const [program, ...args] = config.command.run.map((part) =>
    part.replace(/\{base\}/g, changed.base ?? '').replace(/\{head\}/g, changed.head ?? ''),
  ) as [string, ...string[]];
  const result = await runCommand(program, args, {
    cwd,
    timeoutMs: config.command.timeoutMs,
    maxOutputBytes: MAX_COMMAND_OUTPUT,
    stdin: commandInput(changed),
  });
  if (result.exitCode !== 0) {
    throw new CommandError(
      `the dependents command \`${config.command.run.join(' ')}\` exited with code ${result.exitCode}${result.stderr ? ` (${lastLine(result.stderr)})` : ''}`,
    );
  }
  const via = `command ${program}`;
  for (const line of result.stdout.toString('utf8').split(/\r?\n/)) {
    const target = line.trim();
    if (!target) continue;
    let explanation = impact.targets.get(target);
    if (!explanation) impact.targets.set(target, (explanation = { via: new Set(), files: [], fileCount: 0 }));
    explanation.via.add(via);
  }
}

/**
 * The changed files, one a line, for the dependents command's stdin. A name with a line break in it
 * would read as two files (`x\ninjected-line`): such a change is refused, and then ALL is impacted.
 */
function commandInput(changed: ChangedFiles): string {
  const broken = changed.files.find((file) => /[\r\n]/.test(file.path));
  if (broken) {
    throw new CommandError(
      `the changed file ${quoted(broken.path)} has a line break in its name, which the dependents command (one file a line on its stdin) cannot be told`,
    );
  }
  return changed.files.map((file) => file.path).join('\n') + '\n';
}

function capTargets(config: TargetsConfig, impact: Impact): void {
  if (impact.all || config.maxTargets === undefined || impact.targets.size <= config.maxTargets) return;
  impact.all = {
    reason: `${impact.targets.size} targets are impacted, more than max-targets (${config.maxTargets})`,
  };
}

async function attempt<T>(
  work: () => Promise<T>,
): Promise<{ value?: T } | { value?: undefined; error: unknown }> {
  try {
    return { value: await work() };
  } catch (error) {
    return { error };
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
