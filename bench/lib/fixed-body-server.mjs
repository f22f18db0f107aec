// The throughput floor: a server that does nothing but read each request and answer a fixed JSON body
// for its path. `--fastify` serves the same bodies through fastify with no schema, auth or logging, to
// show what the framework alone costs.
// Usage: node bench/lib/fixed-body-server.mjs <bodies.json> [--fastify]
// where bodies.json maps a path to the body text, e.g. {"/v1/getSubmittedPullRequest": "{...}"}.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodiesFile, mode] = process.argv.slice(2);
const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(bodiesFile, 'utf8'))).map(([path, text]) => [
    path,
    Buffer.from(text),
  ]),
);

if (mode === '--fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  for (const [path, body] of bodies) {
    app.post(path, (_request, reply) => reply.type('application/json').send(body));
  }
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${address}\n`);
} else {
  const server = createServer((req, res) => {
    const body = bodies.get(req.url);
    req.resume();
    req.on('end', () => {
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
}
process.on('SIGTERM', () => process.exit(0));
