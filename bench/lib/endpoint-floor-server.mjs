// The floor of what answering getSubmittedPullRequest costs in Node: a server doing only the work the
// endpoint cannot skip. It reads the body, parses it as JSON, checks the token, looks the pull request up
// in a Map and writes the answer with JSON.stringify. No routing beyond one path, no schema, no hooks. Set
// beside the fixed-body floor, it shows what that unavoidable work costs. `--fastify` does the same work
// in a fastify route (fastify parses the body and writes the answer): the floor of any endpoint built on
// the framework the emulator is built on.
// Usage: node bench/lib/endpoint-floor-server.mjs <floor.json> [--fastify]
// where floor.json is {"path": "/v1/getSubmittedPullRequest", "token": "...", "pullRequests":
// [{"repo": {...}, "targetBranch": "main", "number": 1, "answer": {...}}]}.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [floorFile, mode] = process.argv.slice(2);
const { path, token, pullRequests } = JSON.parse(readFileSync(floorFile, 'utf8'));
const keyOf = (repo, targetBranch, number) =>
  `${repo.host}/${repo.owner}/${repo.name}#${targetBranch}#${number}`;
const answers = new Map(pullRequests.map((pr) => [keyOf(pr.repo, pr.targetBranch, pr.number), pr.answer]));
const lookUp = (body) => answers.get(keyOf(body?.repo ?? {}, body?.targetBranch, body?.pr?.number));

function answer(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}

function listenBare() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== path) return answer(res, 404, 'text/plain', 'Not Found');
      if (req.headers['x-api-token'] !== token) return answer(res, 401, 'text/plain', 'Unauthorized');
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(res, 400, 'text/plain', 'Bad Request');
      }
      const found = lookUp(body);
      if (!found) return answer(res, 404, 'text/plain', 'Not Found');
      answer(res, 200, 'application/json', JSON.stringify(found));
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
}

async function listenFastify() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.post(path, (request, reply) => {
    if (request.headers['x-api-token'] !== token) return reply.code(401).send('Unauthorized');
    const found = lookUp(request.body);
    if (!found) return reply.code(404).send('Not Found');
    return reply.type('application/json').send(JSON.stringify(found));
  });
  process.stdout.write(`${await app.listen({ host: '127.0.0.1', port: 0 })}\n`);
}

if (mode === '--fastify') await listenFastify();
else listenBare();
process.on('SIGTERM', () => process.exit(0));
