// The control surface under /_emulator/ (not part of the public API): what a test or a rehearsal needs
// to steer the emulator. JSON in and out, the same token as the API. Documented in README.md beside.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  QUEUE_MODES,
  QueueSettings,
  UINT32_MAX,
  type CancellationReason,
  type QueueMode,
  type Repo,
} from '../src/wire/index.js';
import {
  BLOCK_REASON_CODES,
  CI_OUTCOMES,
  type CiBehaviour,
  repoKeyOf,
  QueueModelError,
  MERGE_REFUSALS,
  type MergeQueueEngine,
  type PullRequestInfo,
} from '../src/queue-model/index.js';
import type { WebhookDispatcher } from './webhooks.js';

export const CONTROL_PREFIX = '/_emulator';
const DEFAULT_HOST = 'github.com';
const MINUTE_MS = 60_000;
/** run-until-idle stops after this much virtual time unless told otherwise. */
const DEFAULT_IDLE_LIMIT_MINUTES = 7 * 24 * 60;

/** A repository as `{host?, owner, name}` or `"owner/name"` (host github.com). */
export const RepoInput = Type.Union([
  Type.String({ pattern: '^.+/[^/]+$' }),
  Type.Object({
    host: Type.Optional(Type.String({ minLength: 1 })),
    owner: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
  }),
]);
export type RepoInput = Static<typeof RepoInput>;

export function repoFrom(input: RepoInput): Repo {
  if (typeof input !== 'string')
    return { host: input.host ?? DEFAULT_HOST, owner: input.owner, name: input.name };
  const slash = input.lastIndexOf('/');
  return { host: DEFAULT_HOST, owner: input.slice(0, slash), name: input.slice(slash + 1) };
}

export const QueueControl = Type.Composite([
  Type.Object({
    repo: RepoInput,
    targetBranch: Type.String({ minLength: 1 }),
  }),
  Type.Omit(QueueSettings, ['mode']),
  Type.Object({
    mode: Type.Optional(Type.Union(QUEUE_MODES.map((m) => Type.Literal(m)))),
    /** The emulator's own: how many PRs a graph-mode line holds before ready PRs await admission. */
    admissionCap: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  }),
]);
export type QueueControl = Static<typeof QueueControl>;

/** The longest a simulated test run may take, and the longest one clock step. */
const MAX_RUN_MINUTES = 7 * 24 * 60;
export const MAX_STEP_MINUTES = 366 * 24 * 60;

const Duration = {
  durationMinutes: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_RUN_MINUTES })),
  durationSeconds: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_RUN_MINUTES * 60 })),
};

export const CiControl = Type.Object({
  repo: Type.Optional(RepoInput),
  prNumber: Type.Optional(Type.Integer({ minimum: 0, maximum: UINT32_MAX })),
  outcome: Type.Optional(Type.Union(CI_OUTCOMES.map((o) => Type.Literal(o)))),
  flakyFailures: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
  ...Duration,
});
export type CiControl = Static<typeof CiControl>;

export const PullRequestControl = Type.Object({
  repo: RepoInput,
  number: Type.Integer({ minimum: 0, maximum: UINT32_MAX }),
  title: Type.Optional(Type.String({ maxLength: 65_536 })),
  author: Type.Optional(Type.String({ maxLength: 256 })),
  headSha: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  branch: Type.Optional(Type.String({ minLength: 1, maxLength: 1_024 })),
  baseBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 1_024 })),
  mergeability: Type.Optional(
    Type.Union(['unspecified', 'in_progress', 'mergeable', 'not_mergeable'].map((m) => Type.Literal(m))),
  ),
  impactedTargets: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Literal('ALL')])),
  baseSha: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  draft: Type.Optional(Type.Boolean()),
  mergeConflict: Type.Optional(Type.Boolean()),
  blockedBy: Type.Optional(
    Type.Array(
      Type.Object({
        code: Type.Union(BLOCK_REASON_CODES.map((code) => Type.Literal(code))),
        check: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
      }),
      { maxItems: 100 },
    ),
  ),
  mergeRefusal: Type.Optional(
    Type.Union([...Object.keys(MERGE_REFUSALS).map((r) => Type.Literal(r)), Type.Null()]),
  ),
});
export type PullRequestControl = Static<typeof PullRequestControl>;

const ClockAdvance = Type.Object({
  minutes: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_STEP_MINUTES })),
  seconds: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_STEP_MINUTES * 60 })),
  ms: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_STEP_MINUTES * MINUTE_MS })),
});
/** A merge into a queue's target branch from outside the queue; `sha` is the new tip (made up if absent). */
export const TargetBranchMerge = Type.Object({
  repo: RepoInput,
  targetBranch: Type.String({ minLength: 1 }),
  sha: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
const RunUntilIdle = Type.Object({
  maxMinutes: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_STEP_MINUTES })),
});

export const WebhookControl = Type.Object({
  url: Type.String({ pattern: '^https?://' }),
  secret: Type.Optional(Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]+$' })),
  eventTypes: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
});
export type WebhookControl = Static<typeof WebhookControl>;

/** The parts of a GitHub `pull_request` event payload the emulator reads. */
const GitHubPullRequestEvent = Type.Object({
  action: Type.String({ maxLength: 64 }),
  pull_request: Type.Object({
    number: Type.Integer({ minimum: 1, maximum: UINT32_MAX }),
    title: Type.String({ maxLength: 65_536 }),
    user: Type.Object({ login: Type.String({ minLength: 1, maxLength: 256 }) }),
    head: Type.Object({
      sha: Type.String({ minLength: 1, maxLength: 64 }),
      ref: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    }),
    base: Type.Object({
      ref: Type.String({ minLength: 1, maxLength: 1024 }),
      sha: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    draft: Type.Optional(Type.Boolean()),
    html_url: Type.Optional(Type.String()),
  }),
  repository: Type.Object({
    name: Type.String({ minLength: 1 }),
    owner: Type.Object({ login: Type.String({ minLength: 1 }) }),
    html_url: Type.Optional(Type.String()),
  }),
});
type GitHubPullRequestEvent = Static<typeof GitHubPullRequestEvent>;
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
const WITHDRAWN_BY: Partial<Record<string, CancellationReason>> = {
  closed: 'PR_CLOSED',
  converted_to_draft: 'PR_CONVERTED_TO_DRAFT',
};

/**
 * What a GitHub `pull_request` event tells about a PR: its head sha, title, author and base branch (a new
 * head sha on a queued PR cancels it, as a push does); closing it or turning it into a draft withdraws it.
 */
export function applyGitHubEvent(engine: MergeQueueEngine, event: GitHubPullRequestEvent): PullRequestInfo {
  const { pull_request: pr, repository } = event;
  const host = hostOf(repository.html_url) ?? DEFAULT_HOST;
  const repo: Repo = { host, owner: repository.owner.login, name: repository.name };
  const info = engine.setPullRequest(repo, pr.number, {
    title: pr.title,
    author: pr.user.login,
    headSha: pr.head.sha,
    baseBranch: pr.base.ref,
    ...(pr.head.ref !== undefined ? { branch: pr.head.ref } : {}),
    ...(pr.base.sha !== undefined ? { baseSha: pr.base.sha } : {}),
    ...(pr.draft !== undefined ? { draft: pr.draft } : {}),
  });
  const withdrawn = WITHDRAWN_BY[event.action];
  if (withdrawn) engine.withdrawPullRequest(repo, pr.number, withdrawn);
  return info;
}

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}

const HistoryQuery = Type.Object({
  repo: Type.Optional(Type.String({ pattern: '^.+/[^/]+$' })),
  repoHost: Type.Optional(Type.String({ minLength: 1 })),
  targetBranch: Type.Optional(Type.String({ minLength: 1 })),
});

/** Creates the queue when missing, then applies any settings given (what the scenario loader uses too). */
export function ensureQueue(engine: MergeQueueEngine, control: QueueControl) {
  const { repo: repoInput, targetBranch, admissionCap, ...settings } = control;
  const repo = repoFrom(repoInput);
  const queue =
    engine.findQueue(repo, targetBranch) ??
    engine.createQueue(repo, targetBranch, settings.mode as QueueMode);
  if (admissionCap !== undefined) queue.admissionCap = admissionCap;
  return engine.updateQueue(repo, targetBranch, settings);
}

export function applyCiControl(engine: MergeQueueEngine, control: CiControl): CiBehaviour {
  const change: Partial<CiBehaviour> = {};
  if (control.outcome !== undefined) change.outcome = control.outcome;
  if (control.flakyFailures !== undefined) change.flakyFailures = control.flakyFailures;
  if (control.durationMinutes !== undefined) change.durationMs = control.durationMinutes * MINUTE_MS;
  if (control.durationSeconds !== undefined) change.durationMs = control.durationSeconds * 1000;
  if (control.prNumber === undefined) {
    engine.ci.setDefault(change);
    return engine.ci.behaviour('', -1);
  }
  const repoKey = repoKeyOf(repoFrom(control.repo ?? ''));
  engine.ci.set(repoKey, control.prNumber, change);
  return engine.ci.behaviour(repoKey, control.prNumber);
}

export function applyPullRequestControl(
  engine: MergeQueueEngine,
  control: PullRequestControl,
): PullRequestInfo {
  const repo = repoFrom(control.repo);
  const { repo: _repo, number, impactedTargets, ...facts } = control;
  if (
    impactedTargets !== undefined &&
    facts.headSha === undefined &&
    !engine.core.pullRequest(repo, number).headSha
  ) {
    throw new QueueModelError(400, `pull-requests: impactedTargets need the PR's headSha; give headSha too`);
  }
  const info = engine.setPullRequest(
    repo,
    number,
    facts as Parameters<MergeQueueEngine['setPullRequest']>[2],
  );
  if (impactedTargets !== undefined) engine.setImpactedTargets(repo, number, info.headSha!, impactedTargets);
  return info;
}

/** A step the clock can take, or a 400 saying where it stops. */
function withinHorizon(engine: MergeQueueEngine, ms: number): number {
  if (ms <= engine.clock.room()) return ms;
  throw new QueueModelError(
    400,
    `clock/advance: the virtual clock stops at ${new Date(engine.clock.now() + engine.clock.room()).toISOString()} and is at ${engine.clock.iso()}; advance by at most ${Math.floor(engine.clock.room() / MINUTE_MS)} minutes`,
  );
}

function infoView(info: PullRequestInfo) {
  return {
    number: info.number,
    title: info.title ?? null,
    author: info.author ?? null,
    headSha: info.headSha ?? null,
    baseBranch: info.baseBranch ?? null,
    baseSha: info.baseSha ?? null,
    mergeability: info.mergeability,
    draft: info.draft,
    mergeConflict: info.mergeConflict,
    blockedBy: info.blockedBy,
    mergeRefusal: info.mergeRefusal,
    impactedTargets: Object.fromEntries(info.targetsBySha),
  };
}

function ciView(behaviour: CiBehaviour) {
  return {
    outcome: behaviour.outcome,
    durationSeconds: behaviour.durationMs / 1000,
    flakyFailures: behaviour.flakyFailures,
  };
}

export function registerControlRoutes(
  app: FastifyInstance,
  engine: MergeQueueEngine,
  webhooks: WebhookDispatcher,
): void {
  const now = () => ({ now: engine.clock.iso() });

  app.post(`${CONTROL_PREFIX}/queues`, { schema: { body: QueueControl } }, async (request) =>
    ensureQueue(engine, request.body as QueueControl),
  );

  app.post(`${CONTROL_PREFIX}/ci`, { schema: { body: CiControl } }, async (request) => {
    const control = request.body as CiControl;
    if (control.prNumber !== undefined && control.repo === undefined) {
      throw new QueueModelError(400, 'ci: prNumber needs repo (owner/name)');
    }
    return ciView(applyCiControl(engine, control));
  });

  app.post(`${CONTROL_PREFIX}/pull-requests`, { schema: { body: PullRequestControl } }, async (request) =>
    infoView(applyPullRequestControl(engine, request.body as PullRequestControl)),
  );

  app.post(
    `${CONTROL_PREFIX}/github/events`,
    { schema: { body: GitHubPullRequestEvent } },
    async (request) => {
      const name = request.headers['x-github-event'];
      if (typeof name !== 'string' || !PULL_REQUEST_EVENTS.has(name)) {
        throw new QueueModelError(
          400,
          'github/events: send a pull_request or pull_request_target event, named in x-github-event',
        );
      }
      return infoView(applyGitHubEvent(engine, request.body as GitHubPullRequestEvent));
    },
  );

  app.post(
    `${CONTROL_PREFIX}/target-branch/merge`,
    { schema: { body: TargetBranchMerge } },
    async (request) => {
      const { repo, targetBranch, sha } = request.body as Static<typeof TargetBranchMerge>;
      return { tipSha: engine.mergeFromOutside(repoFrom(repo), targetBranch, sha) };
    },
  );

  app.get(`${CONTROL_PREFIX}/clock`, async () => now());
  app.post(`${CONTROL_PREFIX}/clock/advance`, { schema: { body: ClockAdvance } }, async (request) => {
    const { minutes = 0, seconds = 0, ms = 0 } = request.body as Static<typeof ClockAdvance>;
    engine.advance(withinHorizon(engine, minutes * MINUTE_MS + seconds * 1000 + ms));
    return now();
  });
  app.post(`${CONTROL_PREFIX}/clock/run-until-idle`, { schema: { body: RunUntilIdle } }, async (request) => {
    const { maxMinutes = DEFAULT_IDLE_LIMIT_MINUTES } = (request.body ?? {}) as Static<typeof RunUntilIdle>;
    engine.runUntilIdle(Math.min(maxMinutes * MINUTE_MS, engine.clock.room()));
    return now();
  });

  app.post(`${CONTROL_PREFIX}/webhooks`, { schema: { body: WebhookControl } }, async (request) =>
    webhooks.register(request.body as WebhookControl),
  );
  app.get(`${CONTROL_PREFIX}/webhooks`, async () => ({ endpoints: webhooks.endpoints() }));

  app.get(`${CONTROL_PREFIX}/history`, { schema: { querystring: HistoryQuery } }, async (request) => {
    const query = request.query as Static<typeof HistoryQuery>;
    const queuePrefix = query.repo ? `${query.repoHost ?? DEFAULT_HOST}/${query.repo}@` : '';
    const events = engine.history.filter(
      (event) =>
        event.queueKey.startsWith(queuePrefix) &&
        (!query.targetBranch || event.queueKey.endsWith(`@${query.targetBranch}`)),
    );
    return {
      now: engine.clock.iso(),
      events: events.map((event) => ({ ...event, at: new Date(event.at).toISOString() })),
    };
  });
}
