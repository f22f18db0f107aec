// A small stand-in for GitHub's REST API (node:http on 127.0.0.1, a free port): the issue-comment routes
// the PR comment uses, kept in memory, the pull requests a test gives (`pulls`), with the token checked, and who the token is: `GET /user` and
// GraphQL's `viewer`. By default the token is an app installation's, as the Actions GITHUB_TOKEN is:
// `GET /user` refuses it (403) and GraphQL names it `github-actions[bot]`; `{ user }` makes it a user's,
// `{ nameless: true }` a token that neither names (both refuse it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredComment {
  id: number;
  body: string;
  issue: number;
  /** The author's login (`github-actions[bot]` for the app). */
  author: string;
}

const APP_LOGIN = 'github-actions[bot]';

export class GitHubApi {
  readonly comments: StoredComment[] = [];
  readonly requests: string[] = [];
  /** Pull requests `GET /repos/{owner}/{repo}/pulls/{number}` answers, by number. */
  readonly pulls = new Map<number, { head: { sha: string }; base: { ref: string } }>();
  private server: Server | undefined;
  private nextId = 1000;
  url = '';

  constructor(
    private readonly token: string,
    private readonly identity: { user?: string; nameless?: boolean } = {},
  ) {}

  /** The login the token writes as. */
  get login(): string {
    return this.identity.user ?? APP_LOGIN;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        this.requests.push(`${req.method} ${path}`);
        const send = (status: number, body: unknown) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        if (req.headers.authorization !== `token ${this.token}`)
          return send(401, { message: 'Bad credentials' });
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        if (path === '/user' && req.method === 'GET') {
          if (!this.identity.user) return send(403, { message: 'Resource not accessible by integration' });
          return send(200, { login: this.identity.user, type: 'User' });
        }
        if (path === '/graphql' && req.method === 'POST') {
          if (this.identity.nameless) return send(403, { message: 'Resource not accessible by integration' });
          if (!/^\s*(query\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(String(body.query)))
            return send(400, { message: 'Only the viewer query is served here' });
          return send(200, { data: { viewer: { login: this.login } } });
        }
        const pull = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(path);
        if (pull && req.method === 'GET') {
          const found = this.pulls.get(Number(pull[1]));
          return found ? send(200, { number: Number(pull[1]), state: 'open', ...found }) : send(404, {});
        }
        const list = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
        const one = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path);
        if (list && req.method === 'GET') {
          return send(
            200,
            this.comments.filter((c) => c.issue === Number(list[1])).map((c) => this.view(c)),
          );
        }
        if (list && req.method === 'POST') {
          const comment = {
            id: this.nextId++,
            body: String(body.body),
            issue: Number(list[1]),
            author: this.login,
          };
          this.comments.push(comment);
          return send(201, this.view(comment));
        }
        if (one && req.method === 'PATCH') {
          const comment = this.comments.find((c) => c.id === Number(one[1]));
          if (!comment) return send(404, { message: 'Not Found' });
          comment.body = String(body.body);
          return send(200, this.view(comment));
        }
        return send(404, { message: 'Not Found' });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** A comment written by someone else, as a test sets the scene. */
  addComment(issue: number, author: string, body: string): StoredComment {
    const comment = { id: this.nextId++, body, issue, author };
    this.comments.push(comment);
    return comment;
  }

  private view(comment: StoredComment) {
    const bot = comment.author.endsWith('[bot]');
    return {
      id: comment.id,
      body: comment.body,
      user: { login: comment.author, type: bot ? 'Bot' : 'User' },
      ...(bot ? { performed_via_github_app: { slug: comment.author.replace(/\[bot\]$/, '') } } : {}),
      html_url: `https://github.com/octo-org/repo/pull/${comment.issue}#issuecomment-${comment.id}`,
    };
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
