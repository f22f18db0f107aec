// Finds the engine's records by their v2 ids, and keeps what v2 has and the engine has not: when a
// repository, queue or pull request was first seen, the settings v1 has no field for, and the `direct`
// flag of queue entries. One directory per emulator, over the same engine as v1.
import type { Repo } from '../../src/wire/index.js';
import {
  type MergeQueueEngine,
  repoKeyOf,
  type QueueRecord,
  type Submission,
} from '../../src/queue-model/index.js';
import { V2Error } from './errors.js';
import { pullRequestIdOf, queueIdOf, repositoryIdOf } from './ids.js';

/** The v2 settings the engine does not act on: kept and answered as given. */
export interface QueueExtras {
  createdAt: number;
  updatedAt: number;
  notReadyTimeoutMinutes: number;
  isExtensionEnabled: boolean;
  areLabelCommandsEnabled: boolean;
  areStateLabelsEnabled: boolean;
  allowedBotSubmitters: string[];
  batchingRules: { targetPattern: string; policy: 'isolate' }[];
  testBranchConstructionMode: 'renameTempBranch' | 'pushNewBranchFromTemp';
  enqueueingLabel: string;
  managedState: 'manual' | 'terraform' | 'terraformWithDrift';
}

export interface PullRequestRef {
  id: string;
  repo: Repo;
  number: number;
}

export class V2Directory {
  private readonly repositories = new Map<string, { repo: Repo; firstSeenAt: number }>();
  private readonly pullRequests = new Map<string, PullRequestRef & { firstSeenAt: number }>();
  private readonly extras = new Map<string, QueueExtras>();

  constructor(
    readonly engine: MergeQueueEngine,
    private readonly flakyRepos: () => Repo[],
  ) {}

  private now(): number {
    return this.engine.clock.now();
  }

  /** The repository's id, remembering the repository. */
  repositoryId(repo: Repo): string {
    const id = repositoryIdOf(repo);
    if (!this.repositories.has(id)) this.repositories.set(id, { repo: { ...repo }, firstSeenAt: this.now() });
    return id;
  }

  repositoryById(id: string): { repo: Repo; firstSeenAt: number } {
    const found = this.findRepository(id);
    if (!found) throw new V2Error(404, 'REPOSITORY_NOT_FOUND', `No repository has the id ${id}`);
    return found;
  }

  findRepository(id: string): { repo: Repo; firstSeenAt: number } | undefined {
    if (!this.repositories.has(id)) {
      for (const queue of this.engine.queues()) this.repositoryId(queue.repo);
      for (const repo of this.flakyRepos()) this.repositoryId(repo);
    }
    return this.repositories.get(id);
  }

  queueId(queue: QueueRecord): string {
    return queueIdOf(queue.repo, queue.branch);
  }

  queueById(id: string): QueueRecord {
    const queue = this.engine.queues().find((q) => this.queueId(q) === id);
    if (!queue) throw new V2Error(404, 'MERGE_QUEUE_NOT_FOUND', `No merge queue has the id ${id}`);
    return queue;
  }

  queuesOf(repo: Repo): QueueRecord[] {
    const key = repoKeyOf(repo);
    return this.engine.queues().filter((q) => repoKeyOf(q.repo) === key);
  }

  extrasOf(queue: QueueRecord): QueueExtras {
    let extras = this.extras.get(queue.key);
    if (!extras) {
      const first = queue.submissions[0]?.submittedAt ?? this.now();
      extras = defaultExtras(Math.min(first, this.now()));
      this.extras.set(queue.key, extras);
    }
    return extras;
  }

  /** Forgets a deleted queue's extras, so that a queue made again for the branch starts afresh. */
  forgetQueue(queue: QueueRecord): void {
    this.extras.delete(queue.key);
  }

  pullRequest(repo: Repo, number: number): PullRequestRef & { firstSeenAt: number } {
    const id = pullRequestIdOf(repo, number);
    let known = this.pullRequests.get(id);
    if (!known) {
      const submitted = this.submissionsOf(repo, number).map((s) => s.submittedAt);
      known = { id, repo: { ...repo }, number, firstSeenAt: Math.min(this.now(), ...submitted) };
      this.pullRequests.set(id, known);
    }
    return known;
  }

  pullRequestById(id: string): PullRequestRef & { firstSeenAt: number } {
    if (!this.pullRequests.has(id)) {
      for (const queue of [...this.engine.queues(), ...this.engine.deletedQueues()]) {
        for (const number of queue.latestByPr.keys()) this.pullRequest(queue.repo, number);
      }
    }
    const found = this.pullRequests.get(id);
    if (!found) throw new V2Error(404, 'PR_NOT_FOUND', `No pull request has the id ${id}`);
    return found;
  }

  /** The PR's latest submission to any queue of its repository (its queue entry), if any. */
  latestSubmission(repo: Repo, number: number): Submission | undefined {
    let latest: Submission | undefined;
    for (const submission of this.submissionsOf(repo, number)) {
      if (!latest || submission.submittedAt >= latest.submittedAt) latest = submission;
    }
    return latest;
  }

  private submissionsOf(repo: Repo, number: number): Submission[] {
    return this.queuesOf(repo).flatMap((q) => {
      const submission = q.latestByPr.get(number);
      return submission ? [submission] : [];
    });
  }
}

function defaultExtras(at: number): QueueExtras {
  return {
    createdAt: at,
    updatedAt: at,
    notReadyTimeoutMinutes: 0,
    isExtensionEnabled: false,
    areLabelCommandsEnabled: false,
    areStateLabelsEnabled: false,
    allowedBotSubmitters: [],
    batchingRules: [],
    testBranchConstructionMode: 'pushNewBranchFromTemp',
    enqueueingLabel: '',
    managedState: 'manual',
  };
}
