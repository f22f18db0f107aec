// A queue's dependency graph: the PRs in line, and an edge from a PR to a PR behind it whose impacted
// targets it shares, unless a path through other PRs already joins them (transitively reduced: in queue
// mode, where every PR shares everything, a chain). Not a dispatch order.
import type { V2 } from '../../../src/wire/v2/index.js';
import {
  TargetUnion,
  UNKNOWN,
  type QueueRecord,
  type Submission,
  type Targets,
} from '../../../src/queue-model/index.js';
import type { V2Directory } from '../directory.js';
import { ENTRY_STATE } from '../enums.js';

const MAX_EDGES = 10_000;

function common(a: Targets, b: Targets): string[] {
  if (a === 'ALL') return b === 'ALL' ? [] : [...b];
  if (b === 'ALL') return [...a];
  const other = new Set(b);
  return a.filter((t) => other.has(t));
}

function nodeView(submission: Submission, targets: Targets, withTargets: boolean): V2<'MergeGraphNode'> {
  const node: V2<'MergeGraphNode'> = {
    pullRequestNumber: submission.prNumber,
    title: submission.info.title ?? UNKNOWN,
    author: submission.info.author ?? UNKNOWN,
    state: ENTRY_STATE[submission.state],
    priorityValue: submission.priorityValue,
    priorityName: submission.priorityName,
    skipsTheLine: submission.skipTheLine,
    allowsBatching: !submission.noBatch,
    isBisection: submission.run?.kind === 'bisection',
    totalImpactedTargets: targets === 'ALL' ? 0 : targets.length,
  };
  if (submission.run) node.verificationRunId = submission.run.id;
  if (withTargets) node.impactedTargets = targets === 'ALL' ? [] : [...targets];
  return node;
}

export function graphView(
  directory: V2Directory,
  queue: QueueRecord,
  withTargets: boolean,
): V2<'MergeGraph'> {
  const line = directory.engine.scheduler.order(queue);
  const targets = line.map((s) => directory.engine.core.targetsOf(s));
  const edges: V2<'MergeGraphEdge'>[] = [];
  directPredecessors(targets).forEach((ahead, behind) => {
    for (const from of ahead) {
      if (edges.length >= MAX_EDGES) return;
      const shared = common(targets[from]!, targets[behind]!);
      edges.push({
        fromPullRequestNumber: line[from]!.prNumber,
        toPullRequestNumber: line[behind]!.prNumber,
        totalCommonImpactedTargets: shared.length,
        ...(withTargets ? { commonImpactedTargets: shared } : {}),
      });
    }
  });
  return { nodes: line.map((s, i) => nodeView(s, targets[i]!, withTargets)), edges };
}

/**
 * For each PR in line, the PRs ahead it depends on directly (indices, nearest first): those sharing
 * targets with it, less any another of them already depends on (the graph transitively reduced).
 */
export function directPredecessors(targets: Targets[]): number[][] {
  const ancestors: Set<number>[] = [];
  return targets.map((own, behind) => {
    const direct: number[] = [];
    const covered = new Set<number>();
    for (let ahead = behind - 1; ahead >= 0; ahead--) {
      if (covered.has(ahead) || !TargetUnion.of(targets[ahead]!).holdsBack(own)) continue;
      direct.push(ahead);
      for (const index of ancestors[ahead]!) covered.add(index);
    }
    const mine = new Set(covered);
    for (const index of direct) mine.add(index);
    ancestors.push(mine);
    return direct.reverse();
  });
}
