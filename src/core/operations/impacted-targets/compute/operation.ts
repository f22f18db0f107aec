// compute-impacted-targets: the PR's impacted targets as outputs (for a later upload, or for `if:` on
// later jobs), a file, and a summary that says which files and rules produced each target.
import { isAbsolute, relative, resolve } from 'node:path';
import { Markdown, escapeMarkdown } from '../../../report/markdown.js';
import { writeStepFile } from '../../step-file.js';
import type { Operation, OperationContext, OutputValue } from '../../types.js';
import { computeImpact, type Computed } from './compute.js';
import type { Explanation } from './impact.js';
import type { ComputeSettings } from './inputs.js';

const SHOWN_TARGETS = 200;
const MORE_TARGETS_NOTE = '(every target is in the impacted-targets output)';

export const computeImpactedTargets: Operation<ComputeSettings> = async (op) => {
  const computed = await computeFor(op, op.settings);
  const outputs = impactOutputs(computed);
  // In a directory of its own, made for this run: a shared temp folder (two jobs on one agent, a symlink
  // planted at a known name) can neither redirect the write nor mix two runs' targets.
  const file = await writeStepFile(op, 'impacted-targets.json', outputs['impacted-targets'] as string);
  return {
    outputs: { ...outputs, 'impacted-targets-file': file },
    summary: impactSummary(new Markdown(), computed, checkoutOf(op, op.settings)),
    details: { kind: 'computed-targets', computed },
  };
};

/** The directory the targets are computed in: the checkout the config and changed files belong to. */
export function checkoutOf(op: OperationContext<unknown>, settings: ComputeSettings): string {
  return resolve(op.workingDirectory, settings.workingDirectory);
}

export function computeFor(op: OperationContext<unknown>, settings: ComputeSettings): Promise<Computed> {
  return computeImpact({
    settings: { ...settings, workingDirectory: checkoutOf(op, settings) },
    context: op.context,
    githubToken: op.common.githubToken,
    timeoutMs: op.common.timeoutMs,
    log: op.log,
    stdin: op.stdin,
  });
}

const namesSorted = new WeakMap<Computed, string[]>();

/** The names of the targets found, sorted once (outputs and summary all want them in order). */
function foundTargets(computed: Computed): string[] {
  let names = namesSorted.get(computed);
  if (!names) namesSorted.set(computed, (names = [...computed.impact.targets.keys()].sort()));
  return names;
}

/** The targets sorted, or the word ALL (what the service and set-impacted-targets take for "everything"). */
export function sortedTargets(computed: Computed): string[] | 'ALL' {
  return computed.impact.all ? 'ALL' : foundTargets(computed);
}

export function impactOutputs(computed: Computed): Record<string, OutputValue> {
  const { impact } = computed;
  const targets = sortedTargets(computed);
  const map: Record<string, string> = {};
  for (const target of [...computed.known].sort()) {
    map[target] = targets === 'ALL' || impact.targets.has(target) ? 'true' : 'false';
  }
  return {
    'impacted-targets': targets === 'ALL' ? 'ALL' : JSON.stringify(targets),
    'impacted-targets-count': targets === 'ALL' ? '' : targets.length,
    'impacts-all': Boolean(impact.all),
    'impacts-all-reason': impact.all?.reason ?? '',
    'barrier-file': impact.all?.barrierFile ?? '',
    'impacted-targets-map': JSON.stringify(map),
    'changed-files-count': impact.changedCount,
  };
}

/**
 * The outcome in one line, the counts, then each target with the rules and files behind it (in the open:
 * they are what the step is for; collapsed only when ALL made them moot). Paths inside `checkout` are
 * shown relative to it, as people name them.
 */
export function impactSummary(summary: Markdown, computed: Computed, checkout?: string): Markdown {
  const { impact } = computed;
  const targets = sortedTargets(computed);
  summary.heading(
    targets === 'ALL'
      ? '🎯 Impacted targets: ALL'
      : `🎯 Impacted targets: ${targets.length === 0 ? 'none' : targets.length}`,
  );
  if (impact.all)
    summary.paragraph(`**Every target is impacted**, because ${escapeMarkdown(impact.all.reason)}.`);
  summary.facts([
    [
      'Changed files',
      `${impact.changedCount}${computed.from ? ` (from ${shownPath(computed.from, checkout)})` : ''}`,
    ],
    ['Inert files (claim nothing)', impact.inertCount],
    ['Files no rule claims', impact.unmatchedCount],
    ['Config', shownPath(computed.config.file, checkout)],
  ]);
  if (impact.unmatchedFiles.length > 0) {
    summary.details(
      `Files no rule claims (${impact.unmatchedCount}, unmatched: ${describeUnmatched(computed)})`,
      impact.unmatchedFiles.map((f) => `- ${escapeMarkdown(f)}`).join('\n') +
        (impact.unmatchedCount > impact.unmatchedFiles.length ? '\n- …' : ''),
    );
  }
  if (impact.targets.size > 0) {
    const rows = foundTargets(computed)
      .slice(0, SHOWN_TARGETS)
      .map((target) => [target, impact.targets.get(target) as Explanation] as const)
      .map(([target, why]) => [
        escapeMarkdown(target),
        [...why.via].map(escapeMarkdown).join('; '),
        why.fileCount === 0
          ? ''
          : why.files.map(escapeMarkdown).join(', ') +
            (why.fileCount > why.files.length ? ` and ${why.fileCount - why.files.length} more` : ''),
      ]);
    const headers = ['Target', 'Why', 'Files'];
    if (impact.all) {
      const table = new Markdown().table(headers, rows, MORE_TARGETS_NOTE, impact.targets.size).toString();
      summary.details(`Targets found before ALL was decided (${impact.targets.size})`, table);
    } else {
      summary
        .heading(`Targets and why (${impact.targets.size})`, 3)
        .table(headers, rows, MORE_TARGETS_NOTE, impact.targets.size);
    }
  }
  return summary;
}

/** A path inside the checkout relative to it; anything else (a phrase, a path outside) as it is. */
function shownPath(path: string, checkout: string | undefined): string {
  if (!checkout || !isAbsolute(path)) return path;
  const inside = relative(checkout, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

function describeUnmatched(computed: Computed): string {
  const policy = computed.config.unmatched;
  return policy.kind === 'target' ? `target ${policy.target}` : policy.kind;
}
