// Impacted targets in a terminal: how many and from how many changed files in one line, then each
// target with the rules and files that impacted it; for an upload, what was sent.
import {
  type Computed,
  type ComputedTargetsDetails,
  lintHeadline,
  plural,
  type TargetsConfigLintDetails,
  type UploadedTargetsDetails,
} from '../../core/index.js';
import type { Page } from './page.js';

const SHOWN_TARGETS = 50;
const SHOWN_FILES = 3;
const SHOWN_UNCLAIMED = 20;
const SHOWN_EXAMPLES = 2;

export function presentComputedTargets(page: Page, { computed }: ComputedTargetsDetails): void {
  page.outcome(computedOutcome(computed), computed.impact.all ? 'waiting' : 'good');
  computedFacts(page, computed);
  targetTable(page, computed);
}

export function presentUploadedTargets(page: Page, details: UploadedTargetsDetails): void {
  const pr = `PR #${details.prNumber}`;
  if (details.notUploaded !== undefined) {
    page.outcome(`Impacted targets not uploaded for ${pr}`, 'waiting');
    page.facts([['Why', details.notUploaded]]);
  } else {
    page.outcome(`Uploaded ${uploadedWhat(details)} for ${pr}`, 'good');
    if (details.fallbackReason) page.facts([['Why ALL', details.fallbackReason]]);
  }
  if (details.computed) {
    page.blank();
    page.note(computedOutcome(details.computed), 'plain');
    computedFacts(page, details.computed);
    targetTable(page, details.computed);
  } else if (details.targets !== 'ALL' && details.targets.length) {
    page.table(
      details.targets.length < details.targetCount
        ? `First ${details.targets.length} of ${details.targetCount} targets`
        : 'Targets',
      [{ title: 'Target', max: 80 }],
      details.targets.map((target) => [target]),
    );
  }
}

function uploadedWhat(details: UploadedTargetsDetails): string {
  if (details.targets === 'ALL' || details.sent === 'ALL') return 'ALL (every target is impacted)';
  return details.targetCount ? plural(details.targetCount, 'impacted target') : 'an empty list (no target)';
}

function computedOutcome(computed: Computed): string {
  const { impact } = computed;
  const changed = plural(impact.changedCount, 'changed file');
  if (impact.all) return `Every target is impacted (ALL): ${impact.all.reason}`;
  const count = impact.targets.size;
  return count ? `${plural(count, 'target')} impacted by ${changed}` : `No target impacted by ${changed}`;
}

function computedFacts(page: Page, computed: Computed): void {
  const { impact } = computed;
  page.facts([
    ['Changed files', `${impact.changedCount}${computed.from ? ` (${computed.from})` : ''}`],
    ['Config', computed.config.file],
    ['Claim nothing', impact.inertCount || undefined],
    ['No rule claims', impact.unmatchedCount ? unclaimed(computed) : undefined],
    ['Barrier file', impact.all?.barrierFile],
    ['Compute error', computed.computeError],
  ]);
}

function unclaimed(computed: Computed): string {
  const { impact } = computed;
  const more = impact.unmatchedCount - impact.unmatchedFiles.slice(0, SHOWN_FILES).length;
  return `${impact.unmatchedCount}: ${impact.unmatchedFiles.slice(0, SHOWN_FILES).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function targetTable(page: Page, computed: Computed): void {
  const { targets } = computed.impact;
  if (!targets.size) return;
  const names = [...targets.keys()].sort();
  page.table(
    computed.impact.all
      ? `Targets found before ALL was decided (${targets.size})`
      : `Targets and why (${targets.size})`,
    [
      { title: 'Target', max: 40 },
      { title: 'Why', max: 40 },
      { title: 'Files', max: 60 },
    ],
    names.slice(0, SHOWN_TARGETS).map((name) => {
      const why = targets.get(name)!;
      const files = why.files.slice(0, SHOWN_FILES);
      const more = why.fileCount - files.length;
      return [name, [...why.via].join('; '), `${files.join(', ')}${more > 0 ? ` and ${more} more` : ''}`];
    }),
    targets.size,
  );
}

/** The lint's page: which part of the config claims what, then what nothing claims and the unused globs. */
export function presentConfigLint(page: Page, { report }: TargetsConfigLintDetails): void {
  const clean = !report.unclaimed.length && !report.unused.length;
  page.outcome(lintHeadline(report), clean ? 'good' : 'waiting');
  page.facts([
    ['Tracked files', String(report.trackedCount)],
    ['Claimed by none', `${report.unclaimed.length}, each impacting ${report.unclaimedImpacts}`],
    ['Unused globs', String(report.unused.length)],
  ]);
  page.table(
    'What claims what',
    [
      { title: 'Claimed by', max: 40 },
      { title: 'Impacts', max: 40 },
      { title: 'Files', align: 'right' },
      { title: 'For example', max: 100 },
    ],
    report.claims.map((claim) => [
      claim.by,
      claim.impacts,
      String(claim.count),
      claim.examples.slice(0, SHOWN_EXAMPLES).join(', '),
    ]),
  );
  if (report.unclaimed.length) {
    page.table(
      `Claimed by nothing (${report.unclaimed.length})`,
      [{ title: 'File', max: 100 }],
      report.unclaimed.slice(0, SHOWN_UNCLAIMED).map((path) => [path]),
      report.unclaimed.length,
    );
  }
  if (report.unused.length) {
    page.table(
      `Globs that match no tracked file (${report.unused.length})`,
      [{ title: 'Glob', max: 100 }],
      report.unused.map((glob) => [glob]),
    );
  }
}
