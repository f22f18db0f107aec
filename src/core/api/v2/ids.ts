// v2 addresses a repository, a queue and a pull request by id; the pipeline knows coordinates. Each id is
// looked up once per run (repository by its provider URL, queue by repository and target branch, pull
// request by repository and number) and kept: lookups count against the rate limits. The queue-id and
// pull-request-id inputs, when given, stand for the run's own queue and PR without a lookup.
import type { Repo } from '../../../wire/index.js';
import type { V2 } from '../../../wire/v2/index.js';
import { ApiError } from '../errors.js';
import type { V2Transport } from './transport.js';

export interface KnownIds {
  /** The run's own queue (its target branch) and PR (its number), given as inputs. */
  queueId?: string;
  pullRequestId?: string;
  targetBranch?: string;
  prNumber?: number;
}

export class IdResolver {
  private readonly repositories = new Map<string, Promise<string>>();
  private readonly queues = new Map<string, Promise<V2<'MergeQueue'> | string>>();
  private readonly pullRequests = new Map<string, Promise<string>>();

  constructor(
    private readonly v2: V2Transport,
    private readonly known: KnownIds = {},
  ) {}

  /** The repository's id, from its provider URL (`https://github.com/owner/name`). */
  repositoryId(repo: Repo): Promise<string> {
    const url = providerUrl(repo);
    return this.once(this.repositories, url, async () => {
      const { data } = await this.v2.call('repositories.resolveByProviderUrl', {
        query: { providerUrl: url, limit: 1 },
      });
      const found = data.data[0];
      if (!found) throw notFound('repositories.resolveByProviderUrl', `no repository at ${url}`);
      return found.id;
    });
  }

  /** The queue of a repository's target branch: its id (and the queue itself when it was looked up). */
  async queueId(repo: Repo, targetBranch: string): Promise<string> {
    const queue = await this.queue(repo, targetBranch);
    return typeof queue === 'string' ? queue : queue.id;
  }

  queue(repo: Repo, targetBranch: string): Promise<V2<'MergeQueue'> | string> {
    if (this.known.queueId && targetBranch === this.known.targetBranch) {
      return Promise.resolve(this.known.queueId);
    }
    return this.once(this.queues, `${providerUrl(repo)}\n${targetBranch}`, async () => {
      const repositoryId = await this.repositoryId(repo);
      const { data } = await this.v2.call('mergeQueues.list', {
        query: { repositoryId, targetBranch, limit: 1 },
      });
      const found = data.data[0];
      if (!found) {
        throw notFound(
          'mergeQueues.list',
          `no merge queue for ${repo.owner}/${repo.name} on ${targetBranch}`,
        );
      }
      return found;
    });
  }

  /** Forgets a queue (after it was deleted or created). */
  forgetQueue(repo: Repo, targetBranch: string): void {
    this.queues.delete(`${providerUrl(repo)}\n${targetBranch}`);
  }

  /** The pull request's id, from its repository and number. */
  pullRequestId(repo: Repo, number: number): Promise<string> {
    if (this.known.pullRequestId && number === this.known.prNumber) {
      return Promise.resolve(this.known.pullRequestId);
    }
    return this.once(this.pullRequests, `${providerUrl(repo)}\n${number}`, async () => {
      const pr = await this.findPullRequest(repo, number);
      if (!pr) throw notFound('pullRequests.resolveByCoordinates', `no pull request #${number}`);
      return pr.id;
    });
  }

  /** The pull request as the service has it now, found by number (never cached: it is a read-back). */
  async findPullRequest(repo: Repo, number: number): Promise<V2<'PullRequest'> | undefined> {
    const repositoryId = await this.repositoryId(repo);
    const { data } = await this.v2.call('pullRequests.resolveByCoordinates', {
      query: { repositoryId, number: String(number), limit: 1 },
    });
    return data.data.find((pr) => pr.number === number);
  }

  private once<T>(cache: Map<string, Promise<T>>, key: string, look: () => Promise<T>): Promise<T> {
    let found = cache.get(key);
    if (!found) {
      found = look();
      cache.set(key, found);
      // A failed lookup is not kept: the next call asks again.
      found.catch(() => cache.delete(key));
    }
    return found;
  }
}

export function providerUrl(repo: Repo): string {
  return `https://${repo.host}/${repo.owner}/${repo.name}`;
}

/** A lookup that found nothing, as the 404 v1 would have answered. */
export function notFound(operation: string, what: string): ApiError {
  return new ApiError(operation, `the API has ${what}.`, { kind: 'http', status: 404 });
}
