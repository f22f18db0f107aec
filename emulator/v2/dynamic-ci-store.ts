// Dynamic CI, simply: a plan runs every job it is asked about (the emulator has no signals to skip
// one), the workflows and jobs plans were asked about are listed per repository, and force overrides
// are kept per pull request as set.
import type { V2 } from '../../src/wire/v2/index.js';
import { SeededRandom } from '../../src/queue-model/index.js';

interface PlanRepo {
  host?: string;
  owner: string;
  name: string;
}

const keyOf = (repo: PlanRepo) => `${repo.host ?? 'github.com'}/${repo.owner}/${repo.name}`;

export class DynamicCiStore {
  private readonly workflows = new Map<string, Map<string, V2<'CiWorkflow'>>>();
  private readonly overrides = new Map<string, V2<'ForceOverride'>[]>();
  private readonly random: SeededRandom;

  constructor(
    seed: number,
    private readonly now: () => number,
  ) {
    this.random = new SeededRandom(seed ^ 0x0dc1_0dc1);
  }

  /** Every job asked about runs; the workflow and its jobs are remembered for listPrJobs. */
  plan(repo: PlanRepo, workflowName: string, jobKeys: readonly string[]): V2<'CiPlan'> {
    const byName = this.workflows.get(keyOf(repo)) ?? new Map<string, V2<'CiWorkflow'>>();
    this.workflows.set(keyOf(repo), byName);
    const workflow = byName.get(workflowName) ?? {
      workflowId: this.random.uuid(),
      name: workflowName,
      path: workflowName,
      jobs: [],
    };
    byName.set(workflowName, workflow);
    for (const jobKey of jobKeys) {
      if (!workflow.jobs.some((job) => job.jobKey === jobKey)) {
        workflow.jobs.push({ jobId: this.random.uuid(), jobKey, name: jobKey });
      }
    }
    return {
      jobs: jobKeys.map((jobKey) => ({
        jobKey,
        run: true,
        summary: 'Runs: the emulator has no signal that would skip it',
        signals: [],
      })),
    };
  }

  workflowsOf(repo: PlanRepo): V2<'CiWorkflow'>[] {
    return [...(this.workflows.get(keyOf(repo))?.values() ?? [])];
  }

  overridesOf(repo: PlanRepo, prNumber: number): V2<'ForceOverride'>[] {
    return this.overrides.get(`${keyOf(repo)}#${prNumber}`) ?? [];
  }

  /** Replaces the PR's overrides; the same list again changes nothing (ids and times are kept). */
  setOverrides(request: V2<'SetForceOverridesRequest'>): void {
    const key = `${keyOf(request.repo)}#${request.prNumber}`;
    const previous = this.overrides.get(key) ?? [];
    const next = request.overrides.map((wanted) => {
      const same = previous.find(
        (o) =>
          o.scope === wanted.scope &&
          o.workflowId === wanted.workflowId &&
          o.jobId === wanted.jobId &&
          o.headShaAtSave === request.headSha,
      );
      return (
        same ?? {
          id: this.random.uuid(),
          scope: wanted.scope,
          ...(wanted.workflowId !== undefined ? { workflowId: wanted.workflowId } : {}),
          ...(wanted.jobId !== undefined ? { jobId: wanted.jobId } : {}),
          headShaAtSave: request.headSha,
          createdAt: new Date(this.now()).toISOString(),
        }
      );
    });
    this.overrides.set(key, next);
  }
}
