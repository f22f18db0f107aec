// The floor of what answering getSubmittedPullRequest costs in Node: a bare node:http server doing only the
// work the endpoint cannot skip. It reads the body, parses it as JSON, checks the token, looks the pull
// request up in a Map and writes the answer with JSON.stringify. No routing beyond one path, no schema,
// no hooks. Set beside the fixed-body floor, it shows what that unavoidable work costs.
// Usage: node bench/lib/endpoint-floor-server.mjs <floor.json>
// where floor.json is {"path": "/v1/getSubmittedPullRequest", "token": "...", "pullRequests":
// [{"repo": {...}, "targetBranch": "main", "number": 1, "answer": {...}}]}.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const { path, token, pullRequests } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const keyOf = (repo, targetBranch, number) =>
  `${repo.host}/${repo.owner}/${repo.name}#${targetBranch}#${number}`;
const answers = new Map(pullRequests.map((pr) => [keyOf(pr.repo, pr.targetBranch, pr.number), pr.answer]));

function answer(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}

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
    const found = answers.get(keyOf(body.repo ?? {}, body.targetBranch, body.pr?.number));
    if (!found) return answer(res, 404, 'text/plain', 'Not Found');
    answer(res, 200, 'application/json', JSON.stringify(found));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
