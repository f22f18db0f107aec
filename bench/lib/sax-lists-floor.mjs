// The check-test-results benchmark's second floor: the same job as the gate done the cheapest way in one
// process, the reports parsed by sax alone (lib/sax-parse.mjs, with a turn of the event loop before each
// chunk) while a bare client (node:http, kept-alive connections) reads every page of the four listings
// the gate asks for, each page JSON.parse'd and its next_page_token followed, and nothing else: no
// start-up of an action, no check, no verdict.
// Usage: node bench/lib/sax-lists-floor.mjs <reports directory> <api url> <token> <request base as JSON>
import { Agent, request } from 'node:http';
import { parseReports } from './sax-parse.mjs';

const [dir, apiUrl, token, baseJson] = process.argv.slice(2);
const base = JSON.parse(baseJson);
const agent = new Agent({ keepAlive: true });
// The gate's default window: the last 7 days.
const endTime = new Date();
const window = {
  start_time: new Date(endTime.getTime() - 7 * 24 * 3600 * 1000).toISOString(),
  end_time: endTime.toISOString(),
};
const LISTINGS = [
  ['/flaky-tests/list-quarantined-tests', 'quarantined_tests', {}],
  ['/flaky-tests/list-unhealthy-tests', 'tests', { status: 'FLAKY' }],
  ['/flaky-tests/list-unhealthy-tests', 'tests', { status: 'BROKEN' }],
  ['/flaky-tests/list-failing-tests', 'tests', window],
];

function post(path, body) {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(`${apiUrl}${path}`, {
      method: 'POST',
      agent,
      headers: {
        'x-api-token': token,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      },
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200)
          reject(
            new Error(
              `${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`,
            ),
          );
        else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** Every page of one listing; the number of items read. */
async function readListing([path, field, extra]) {
  let items = 0;
  let token = '';
  do {
    const page = await post(path, { ...base, ...extra, page_query: { page_size: 100, page_token: token } });
    items += page[field].length;
    token = page.page?.next_page_token ?? '';
  } while (token);
  return items;
}

const [counts] = await Promise.all([
  Promise.all(LISTINGS.map(readListing)),
  parseReports(dir, { turns: true }),
]);
agent.destroy();
process.stdout.write(`${counts.join(' ')}\n`);
