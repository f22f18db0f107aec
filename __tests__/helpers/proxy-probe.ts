// Run by client-proxy.test.ts under a given Node: one call of the ApiClient to `target` with the proxy
// settings given as JSON, printing the answer's text (the servers say who answered).
import { ApiClient } from '../../src/core/api/client.js';

const [target, proxyJson] = process.argv.slice(2);
const client = new ApiClient({
  baseUrl: target!,
  token: 'tok_proxy_probe',
  deadlineMs: 5000,
  proxy: JSON.parse(proxyJson!),
});
const response = await client.call('submitPullRequest', {
  repo: { host: 'github.com', owner: 'proxy', name: 'probe' },
  targetBranch: 'main',
  pr: { number: 1 },
});
process.stdout.write(response.text);
