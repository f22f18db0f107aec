// GitHub Actions logins (what trunk-io/login leaves a workflow run with): short-lived tokens, sent in
// `x-trunk-token`, that may only upload impacted targets, only for the run's own repository; a fork PR's
// login is also bound to that PR's number and head sha. The service's exchange endpoint (a GitHub OIDC
// token, or a fork PR's GITHUB_TOKEN, in; a login out) has no published path, body or answer, and GitHub's
// tokens cannot be checked offline, so the emulator does not serve it: `POST /_emulator/actions-logins`
// (behind the emulator's token) answers what the exchange would.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Repo } from '../../src/wire/index.js';
import type { V2BodyOf } from '../../src/wire/v2/index.js';
import { repoKeyOf } from '../../src/queue-model/index.js';
import { CONTROL_PREFIX, RepoInput, repoFrom } from '../control.js';
import { V2Error } from './errors.js';
import { repositoryIdOf } from './ids.js';

/** The longest a login lives, as documented ("at most 15 minutes"), in virtual time. */
export const ACTIONS_LOGIN_TTL_MS = 15 * 60_000;
/** Logins kept at once; past it the oldest is forgotten (and refused as unknown). */
const MAX_LOGINS = 10_000;
const TOKEN_PREFIX = 'trunk_actions_';

export interface ActionsLogin {
  repo: Repo;
  repositoryId: string;
  /** Set for a fork PR's login: the only PR and head sha it may upload for. */
  pullRequest?: { number: number; sha: string };
  expiresAt: number;
}

export const ActionsLoginRequest = Type.Object(
  {
    repo: RepoInput,
    pullRequest: Type.Optional(
      Type.Object(
        {
          number: Type.Integer({ minimum: 1, maximum: 4_294_967_295 }),
          sha: Type.String({ pattern: '^[A-Za-z0-9]{1,64}$' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
type ActionsLoginRequest = Static<typeof ActionsLoginRequest>;

export class ActionsLogins {
  private readonly byToken = new Map<string, ActionsLogin>();

  constructor(private readonly now: () => number) {}

  /** A new login for a run of `repo`; with `pullRequest`, a fork PR's, bound to it. */
  mint({ repo: input, pullRequest }: ActionsLoginRequest): { token: string; login: ActionsLogin } {
    const repo = repoFrom(input);
    // Random, not seeded: a login is a bearer credential, and nothing needs it reproducible.
    const token = `${TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
    const login: ActionsLogin = {
      repo,
      repositoryId: repositoryIdOf(repo),
      ...(pullRequest
        ? { pullRequest: { number: pullRequest.number, sha: pullRequest.sha.toLowerCase() } }
        : {}),
      expiresAt: this.now() + ACTIONS_LOGIN_TTL_MS,
    };
    this.byToken.set(token, login);
    if (this.byToken.size > MAX_LOGINS) this.byToken.delete(this.byToken.keys().next().value!);
    return { token, login };
  }

  /** The login a token names; an expired one is refused, so that a client logs in again. */
  find(token: string): ActionsLogin | undefined {
    const login = this.byToken.get(token);
    if (login && login.expiresAt <= this.now()) {
      throw new V2Error(
        401,
        'INVALID_TOKEN',
        'This GitHub Actions login has expired (a login lasts at most 15 minutes); log in again with trunk-io/login',
      );
    }
    return login;
  }
}

export function registerActionsLoginRoute(app: FastifyInstance, logins: ActionsLogins): void {
  app.post(`${CONTROL_PREFIX}/actions-logins`, { schema: { body: ActionsLoginRequest } }, async (request) => {
    const { token, login } = logins.mint(request.body as ActionsLoginRequest);
    return {
      token,
      repositoryId: login.repositoryId,
      ...(login.pullRequest ? { pullRequest: login.pullRequest } : {}),
      expiresAt: new Date(login.expiresAt).toISOString(),
    };
  });
}

/** What a login may call: the impacted-target upload, and nothing else. */
export function requireActionsOperation(operation: string): void {
  if (operation === 'impactedTargets.upload') return;
  throw new V2Error(
    403,
    'INSUFFICIENT_PERMISSIONS',
    'A GitHub Actions login may only upload impacted targets (PUT /v2/impacted-targets); send an API key for anything else',
  );
}

/** An upload a login may make: its run's repository, and for a fork PR that PR by number at that sha. */
export function requireActionsUpload(login: ActionsLogin, body: V2BodyOf<'impactedTargets.upload'>): void {
  const refuse = (why: string) => new V2Error(403, 'INSUFFICIENT_PERMISSIONS', why);
  const name = `${login.repo.owner}/${login.repo.name}`;
  if (body.repositoryId !== login.repositoryId) {
    throw refuse(`This GitHub Actions login uploads for ${name} only, the repository of its workflow run`);
  }
  const bound = login.pullRequest;
  if (!bound) return;
  if (body.number === undefined) {
    throw refuse(`A fork pull request's login uploads by number: send number ${bound.number}, not branch`);
  }
  if (body.number !== bound.number || body.sha.toLowerCase() !== bound.sha) {
    throw refuse(
      `This fork pull request's login uploads for #${bound.number} at ${bound.sha} only; a push needs a new login`,
    );
  }
}

/** The rate-limit bucket of a login's uploads: per repository, fork PRs' apart. */
export function actionsBucketName(login: ActionsLogin): string {
  return `${login.pullRequest ? 'fork-pr-uploads' : 'actions-uploads'}:${repoKeyOf(login.repo)}`;
}
