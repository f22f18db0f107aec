// A small stand-in for GitHub's REST API (node:http on 127.0.0.1, a free port): the issue-comment routes
// the PR comment uses, kept in memory, with the token checked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredComment {
  id: number;
  body: string;
  issue: number;
}

export class GitHubApi {
  readonly comments: StoredComment[] = [];
  readonly requests: string[] = [];
  private server: Server | undefined;
  private nextId = 1000;
  url = '';

  constructor(private readonly token: string) {}

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
        const list = /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/.exec(path);
        const one = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path);
        if (list && req.method === 'GET') {
          return send(
            200,
            this.comments.filter((c) => c.issue === Number(list[1])).map((c) => this.view(c)),
          );
        }
        if (list && req.method === 'POST') {
          const comment = { id: this.nextId++, body: String(body.body), issue: Number(list[1]) };
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

  private view(comment: StoredComment) {
    return {
      id: comment.id,
      body: comment.body,
      html_url: `https://github.com/octo-org/repo/pull/${comment.issue}#issuecomment-${comment.id}`,
    };
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
