// Scenario files: queues, pull requests (with their CI outcomes and when they are submitted) and flaky
// tests, loaded at start so that a user can rehearse a day of their queue. Format in README.md beside.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readFileSync } from 'node:fs';
import { PRIORITY_NAMES } from '../src/wire/index.js';
import {
  applyCiControl,
  applyPullRequestControl,
  CiControl,
  ensureQueue,
  MAX_STEP_MINUTES,
  PullRequestControl,
  QueueControl,
  repoFrom,
  TargetBranchMerge,
} from './control.js';
import type { MergeQueueEngine } from '../src/queue-model/index.js';
import { parseFlakyFixture } from './flaky-tests/fixture.js';
import type { FlakyTestStore } from './flaky-tests/routes.js';

const MINUTE_MS = 60_000;

/** Virtual minutes after the start; 0 (the default) is at once. */
const AtMinute = Type.Optional(Type.Number({ minimum: 0, maximum: MAX_STEP_MINUTES }));

const ScenarioPullRequest = Type.Composite([
  PullRequestControl,
  Type.Object({
    ci: Type.Optional(Type.Omit(CiControl, ['repo', 'prNumber'])),
    submit: Type.Optional(
      Type.Object({
        targetBranch: Type.String({ minLength: 1 }),
        priority: Type.Optional(
          Type.Union([
            Type.Integer({ minimum: 0, maximum: 255 }),
            Type.Union(Object.keys(PRIORITY_NAMES).map((name) => Type.Literal(name))),
          ]),
        ),
        noBatch: Type.Optional(Type.Boolean()),
        /** Minutes after the start; 0 (the default) submits at once. */
        atMinute: AtMinute,
      }),
    ),
  }),
]);

/** Merges into a target branch from outside the queue (the tip moves; what is testing restarts). */
const ScenarioTargetBranchMerge = Type.Composite([TargetBranchMerge, Type.Object({ atMinute: AtMinute })]);

export const Scenario = Type.Object({
  ci: Type.Optional(Type.Omit(CiControl, ['repo', 'prNumber'])),
  queues: Type.Optional(Type.Array(QueueControl, { maxItems: 100 })),
  pullRequests: Type.Optional(Type.Array(ScenarioPullRequest, { maxItems: 5_000 })),
  targetBranchMerges: Type.Optional(Type.Array(ScenarioTargetBranchMerge, { maxItems: 5_000 })),
  /** A flaky-tests fixture, as the flaky-tests store takes it. */
  flakyTests: Type.Optional(Type.Unknown()),
});
export type Scenario = Static<typeof Scenario>;

/** Reads and checks a scenario; throws one line naming the file, the place and what is wrong. */
export function readScenario(path: string): Scenario {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`scenario ${path}: cannot read it as JSON (${(error as Error).message})`);
  }
  return checkScenario(parsed, `scenario ${path}`);
}

export function checkScenario(value: unknown, source: string): Scenario {
  const error = Value.Errors(Scenario, value).First();
  if (error) throw new Error(`${source}: ${error.path || '(top level)'} ${error.message}`);
  return value as Scenario;
}

export function loadScenario(
  engine: MergeQueueEngine,
  scenario: string | Scenario,
  flakyTests?: FlakyTestStore,
): void {
  const source = typeof scenario === 'string' ? `scenario ${scenario}` : 'scenario';
  const checked = typeof scenario === 'string' ? readScenario(scenario) : checkScenario(scenario, source);
  engine.scheduler.deferring(() => applyScenario(engine, checked));
  if (checked.flakyTests !== undefined) {
    if (!flakyTests)
      throw new Error(`${source}: flakyTests given but no flaky-tests store to load them into`);
    flakyTests.seed(parseFlakyFixture(checked.flakyTests, `${source} flakyTests`));
  }
}

function applyScenario(engine: MergeQueueEngine, checked: Scenario): void {
  if (checked.ci) applyCiControl(engine, checked.ci);
  for (const queue of checked.queues ?? []) ensureQueue(engine, queue);
  for (const pr of checked.pullRequests ?? []) {
    const { ci, submit, ...facts } = pr;
    applyPullRequestControl(engine, facts);
    if (ci) applyCiControl(engine, { ...ci, repo: pr.repo, prNumber: pr.number });
    if (!submit) continue;
    const repo = repoFrom(pr.repo);
    engine.requireQueue(repo, submit.targetBranch);
    const doSubmit = () =>
      engine.submitPullRequest(repo, submit.targetBranch, pr.number, {
        ...(submit.priority !== undefined ? { priority: submit.priority } : {}),
        ...(submit.noBatch !== undefined ? { noBatch: submit.noBatch } : {}),
      });
    if (submit.atMinute) engine.clock.after(submit.atMinute * MINUTE_MS, doSubmit);
    else doSubmit();
  }
  for (const merge of checked.targetBranchMerges ?? []) {
    const repo = repoFrom(merge.repo);
    engine.requireQueue(repo, merge.targetBranch);
    const doMerge = () => engine.mergeFromOutside(repo, merge.targetBranch, merge.sha);
    if (merge.atMinute) engine.clock.after(merge.atMinute * MINUTE_MS, doMerge);
    else doMerge();
  }
}
