// The start-up floor: the least a Node script can do to send the action's one POST. Plain JavaScript,
// node:http only, run with the same Node binary as the action.
// Usage: node bench/lib/post-once.mjs <url> <token> <json-body>
import { request } from 'node:http';

const [url, token, body] = process.argv.slice(2);
const req = request(url, {
  method: 'POST',
  headers: {
    'x-api-token': token,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  },
});
req.on('response', (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => {
    process.stdout.write(`${res.statusCode} ${Buffer.concat(chunks).length}\n`);
    process.exitCode = res.statusCode === 200 ? 0 : 1;
  });
});
req.on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
req.end(body);
