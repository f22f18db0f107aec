// Random scripts for the queue model: sequences of submit, cancel, restart, impacted-target uploads,
// head-sha changes, queue updates, CI outcomes and clock advances, played on an engine with the queue's
// invariants checked after every event. The model's own tests and the emulator's (the same scripts over
// HTTP) share them.
import fc from 'fast-check';
import type { Repo } from '../../src/wire/index.js';
import {
  ACTIVE_STATES,
  QueueModelError,
  MergeQueueEngine,
  VirtualClock,
  compareInLine,
  TargetUnion,
  bisectionConcurrencyOf,
  type HistoryEvent,
  type QueueRecord,
  type Submission,
} from '../../src/queue-model/index.js';

export const repo: Repo = { host: 'github.com', owner: 'prop', name: 'queue' };
export const BRANCH = 'main';
const PRS = [1, 2, 3, 4, 5, 6, 7, 8];
const TARGET_NAMES = ['//a', '//b', '//c', '//d'];

type Command =
  | { kind: 'submit'; pr: number; priority?: number | string; noBatch?: boolean }
  | { kind: 'cancel'; pr: number }
  | { kind: 'restart'; pr: number }
  | { kind: 'targets'; pr: number; fresh: boolean; targets: string[] | 'ALL' }
  | { kind: 'newSha'; pr: number }
  | { kind: 'update'; settings: Record<string, unknown> }
  | { kind: 'ci'; pr: number; outcome: 'pass' | 'fail' | 'flaky' | 'hang'; durationMinutes: number }
  | { kind: 'advance'; minutes: number };

const pr = fc.constantFrom(...PRS);

/** Queue settings; at creation all of them, in an update a few. */
export function queueSettings(all: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      concurrency: fc.integer({ min: 1, max: 4 }),
      batch: fc.boolean(),
      batchingMinSize: fc.integer({ min: 1, max: 4 }),
      batchingMaxWaitTimeMinutes: fc.integer({ min: 1, max: 20 }),
      pendingFailureDepth: fc.integer({ min: 1, max: 3 }),
      canOptimisticallyMerge: fc.boolean(),
      bisectionConcurrency: fc.integer({ min: 1, max: 3 }),
      optimizationMode: fc.constantFrom('off', 'bisection_skip_redundant_tests'),
      testingTimeoutMinutes: fc.integer({ min: 5, max: 60 }),
      mode: fc.constantFrom('single', 'parallel'),
      state: all ? fc.constant('running') : fc.constantFrom('running', 'running', 'paused', 'draining'),
    },
    { requiredKeys: all ? undefined : [] },
  );
}
export const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        kind: fc.constant('submit' as const),
        pr,
        priority: fc.oneof(
          fc.constantFrom('urgent', 'high', 'medium', 'low'),
          fc.integer({ min: 0, max: 255 }),
        ),
        noBatch: fc.boolean(),
      },
      { requiredKeys: ['kind', 'pr'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pr }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), pr }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('targets' as const),
      pr,
      fresh: fc.boolean(),
      targets: fc.oneof(fc.constant('ALL' as const), fc.subarray(TARGET_NAMES)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('newSha' as const), pr }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('update' as const), settings: queueSettings(false) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('ci' as const),
      pr,
      outcome: fc.constantFrom('pass', 'fail', 'flaky', 'flaky', 'hang'),
      durationMinutes: fc.integer({ min: 1, max: 20 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: 0, max: 30 }) }),
  },
);

export const script = fc.array(command, { minLength: 10, maxLength: 80 });

/** Applies a command to an engine; refusals the API would answer with 4xx are part of the game. */
function apply(engine: MergeQueueEngine, c: Command, shaCounter: { next: number }): void {
  try {
    switch (c.kind) {
      case 'submit':
        return engine.submitPullRequest(repo, BRANCH, c.pr, {
          ...(c.priority !== undefined ? { priority: c.priority } : {}),
          ...(c.noBatch !== undefined ? { noBatch: c.noBatch } : {}),
        });
      case 'cancel':
        return engine.cancelPullRequest(repo, BRANCH, c.pr);
      case 'restart':
        return engine.restartTestsOnPullRequest(repo, BRANCH, c.pr);
      case 'targets': {
        const info = engine.core.pullRequest(repo, c.pr);
        return engine.setImpactedTargets(
          repo,
          c.pr,
          c.fresh || info.headSha === undefined ? `sha-${shaCounter.next++}` : info.headSha,
          c.targets,
        );
      }
      case 'newSha':
        engine.setPullRequest(repo, c.pr, { headSha: `sha-${shaCounter.next++}` });
        return;
      case 'update':
        engine.updateQueue(repo, BRANCH, c.settings as Parameters<MergeQueueEngine['updateQueue']>[2]);
        return;
      case 'ci':
        return engine.ci.set(`${repo.host}/${repo.owner}/${repo.name}`, c.pr, {
          outcome: c.outcome,
          durationMs: c.durationMinutes * 60_000,
        });
      case 'advance':
        return engine.advance(c.minutes * 60_000);
    }
  } catch (error) {
    if (!(error instanceof QueueModelError) || error.status >= 500) throw error;
  }
}

/** Watches every event of an engine and records any broken invariant. */
class InvariantChecker {
  readonly violations: string[] = [];

  constructor(private readonly engine: MergeQueueEngine) {
    engine.core.onEvent((event) => this.onEvent(event));
  }

  private get queue(): QueueRecord {
    return this.engine.findQueue(repo, BRANCH)!;
  }

  private fail(message: string): void {
    this.violations.push(`${new Date(this.engine.clock.now()).toISOString()}: ${message}`);
  }

  private onEvent(event: HistoryEvent): void {
    const queue = this.queue;
    if (event.kind === 'run' && event.status === 'in_progress') {
      const running = this.engine.scheduler.runsInProgress(queue, event.runKind);
      const slots = event.runKind === 'main' ? queue.settings.concurrency : bisectionConcurrencyOf(queue);
      if (running > slots) this.fail(`${running} ${event.runKind} runs in progress with ${slots} slots`);
      if (event.runKind === 'main') this.checkStartsInOrder(queue, event.prNumbers);
    }
    if (event.kind === 'pr_state' && event.to === 'merged') this.checkMerge(queue, event.submissionId);
  }

  /** A run starts only when no PR ahead of its PRs in line is still waiting for a slot. */
  private checkStartsInOrder(queue: QueueRecord, prNumbers: number[]): void {
    const order = this.engine.scheduler.order(queue);
    const first = order.findIndex((s) => prNumbers.includes(s.prNumber));
    for (const ahead of order.slice(0, Math.max(first, 0))) {
      if (ahead.state === 'pending' && !ahead.bisection) {
        this.fail(`#${prNumbers.join(',')} started while #${ahead.prNumber} waited ahead of it`);
      }
    }
  }

  /** Nothing merges unless a passing run included it, and not before a PR ahead of it in its lane. */
  private checkMerge(queue: QueueRecord, submissionId: string): void {
    const submission = queue.submissions.findLast((s) => s.id === submissionId)!;
    const vouched = [...queue.runs.values()].some(
      (run) =>
        run.status === 'succeeded' && (run.tested.includes(submission) || run.includes.has(submission)),
    );
    if (!vouched) this.fail(`#${submission.prNumber} merged without a passing run that included it`);
    const order = this.engine.scheduler.order(queue);
    const targets = (s: Submission) => this.engine.core.targetsOf(s);
    const lane = TargetUnion.of(targets(submission));
    for (const ahead of order) {
      if (compareInLine(ahead, submission) >= 0) break;
      if (lane.overlaps(targets(ahead)))
        this.fail(`#${submission.prNumber} merged before #${ahead.prNumber} ahead of it`);
    }
  }

  /** Each PR in exactly one state; none lost or duplicated. */
  checkStore(submittedPrs: Set<number>): void {
    const queue = this.queue;
    if (new Set(queue.submissions).size !== queue.submissions.length)
      this.fail('a submission is listed twice');
    const entryIds = new Set([...queue.latestByPr.values()].map((s) => s.id));
    if (entryIds.size !== queue.latestByPr.size) this.fail('two PRs share an entry');
    for (const prNumber of submittedPrs) {
      const latest = queue.latestByPr.get(prNumber);
      if (!latest) this.fail(`#${prNumber} was submitted but is not in the queue's records`);
      const live = queue.submissions.filter((s) => s.prNumber === prNumber && queue.live.has(s));
      if (live.length > 1) this.fail(`#${prNumber} is in the queue ${live.length} times`);
    }
    for (const submission of queue.submissions) {
      const terminal = ['merged', 'failed', 'cancelled'].includes(submission.state);
      if (terminal === queue.live.has(submission))
        this.fail(`#${submission.prNumber} is ${submission.state} but live=${!terminal}`);
    }
    const order = this.engine.scheduler.order(queue);
    if (new Set(order).size !== order.length) this.fail('a PR appears twice in line');
    const submittedEvents = this.engine.history.filter((e) => e.kind === 'pr_state' && e.from === null);
    if (submittedEvents.length !== queue.submissions.length)
      this.fail('submissions and submitted events differ');
  }

  /** Once running with time to spare, every PR in line concludes. */
  checkSettled(): void {
    for (const submission of this.queue.live) {
      if (ACTIVE_STATES.has(submission.state))
        this.fail(`#${submission.prNumber} is stuck in ${submission.state}`);
    }
  }
}

export function runScript(
  commands: Command[],
  seed: number,
  settings: Record<string, unknown> = {},
  startTime?: number,
): { engine: MergeQueueEngine; checker: InvariantChecker } {
  const engine = new MergeQueueEngine({ seed, clock: new VirtualClock(startTime) });
  const checker = new InvariantChecker(engine);
  engine.createQueue(repo, BRANCH);
  engine.updateQueue(repo, BRANCH, settings);
  const submitted = new Set<number>();
  const shas = { next: 1 };
  for (const c of commands) {
    apply(engine, c, shas);
    if (c.kind === 'submit' && engine.findQueue(repo, BRANCH)!.latestByPr.has(c.pr)) submitted.add(c.pr);
    checker.checkStore(submitted);
  }
  engine.updateQueue(repo, BRANCH, { state: 'running' });
  engine.runUntilIdle(30 * 24 * 60 * 60_000);
  checker.checkStore(submitted);
  checker.checkSettled();
  return { engine, checker };
}
