// Changed files from the GitHub API, for a job without a checkout, against a local HTTP server that
// answers like GET /repos/{owner}/{repo}/pulls/{number}/files: 100 files a page, renames with
// previous_filename, removals, and at most 3,000 files in all. Past the cap, or on any error, the PR
// impacts everything with the reason.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { computeImpact } from '../../src/core/operations/impacted-targets/compute/compute.js';
import { tempDir } from '../helpers/git-repo.js';
import { contextOf } from '../helpers/prepare.js';
import { say } from '../../src/core/words.js';

const temp = tempDir('mqa-ghapi-');
const TOKEN = 'ghs_test_token_123';

interface FileEntry {
  filename: string;
  status: string;
  previous_filename?: string;
}

/** What the server holds per PR number, and how it misbehaves when asked to. */
let pulls = new Map<number, FileEntry[]>();
let answer: ((url: URL) => { status: number; body: string } | undefined) | undefined;
let requests: { url: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let apiUrl = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    const url = new URL(request.url ?? '/', 'http://localhost');
    const special = answer?.(url);
    if (special) {
      response.writeHead(special.status, { 'content-type': 'application/json' }).end(special.body);
      return;
    }
    const found = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/files$/.exec(url.pathname);
    const files = found && pulls.get(Number(found[3]));
    if (!files || request.headers.authorization !== `Bearer ${TOKEN}`) {
      response.writeHead(files ? 401 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: files ? 'Bad credentials' : 'Not Found' }));
      return;
    }
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
    const page = Number(url.searchParams.get('page') ?? 1);
    // Like the real endpoint: never more than 3,000 files, whatever the PR holds.
    const listed = files.slice(0, 3000).slice((page - 1) * perPage, page * perPage);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(listed.map((f) => ({ sha: 'abc', additions: 1, deletions: 0, changes: 1, ...f }))),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    join(temp.dir, 'targets.yml'),
    ['rules:', '  - match: "services/{name}/**"', '    targets: ["svc:{name}"]', 'unmatched: ignore'].join(
      '\n',
    ),
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  temp.cleanup();
});
beforeEach(() => {
  pulls = new Map();
  answer = undefined;
  requests = [];
});

async function impacted(prNumber: number, token = TOKEN, source: 'github-api' | 'auto' = 'github-api') {
  const warnings: string[] = [];
  const computed = await computeImpact({
    settings: {
      config: 'targets.yml',
      source,
      workingDirectory: temp.dir,
      deepenAttempts: 0,
      onComputeError: 'all',
      githubApiUrl: apiUrl,
    },
    context: contextOf({
      prNumber,
      targetBranch: 'main',
      repo: { host: 'github.com', owner: 'acme', name: 'mono' },
    }),
    githubToken: token,
    timeoutMs: 10_000,
    log: { info: () => undefined, warning: (l) => warnings.push(say(l)) },
  });
  const { impact } = computed;
  return {
    targets: impact.all ? 'ALL' : [...impact.targets.keys()].sort(),
    impact,
    warnings,
    from: computed.from,
  };
}

describe('changed files from the GitHub API', () => {
  it('reads every page, with both sides of a rename and removed files', async () => {
    const files: FileEntry[] = Array.from({ length: 250 }, (_, i) => ({
      filename: `services/svc-${i % 5}/file-${i}.ts`,
      status: 'modified',
    }));
    files.push({ filename: 'services/new/x.ts', status: 'renamed', previous_filename: 'services/old/x.ts' });
    files.push({ filename: 'services/gone/y.ts', status: 'removed' });
    pulls.set(12, files);
    const result = await impacted(12);
    expect(result.targets).toEqual([
      'svc:gone',
      'svc:new',
      'svc:old',
      'svc:svc-0',
      'svc:svc-1',
      'svc:svc-2',
      'svc:svc-3',
      'svc:svc-4',
    ]);
    expect(result.impact.changedCount).toBe(253);
    expect(requests.map((r) => r.url)).toEqual([
      '/repos/acme/mono/pulls/12/files?per_page=100&page=1',
      '/repos/acme/mono/pulls/12/files?per_page=100&page=2',
      '/repos/acme/mono/pulls/12/files?per_page=100&page=3',
    ]);
    expect(result.from).toBe('the GitHub API (PR #12 files)');
  });

  it('impacts everything past the API cap of 3,000 files, saying why', async () => {
    pulls.set(
      13,
      Array.from({ length: 3500 }, (_, i) => ({ filename: `services/a/${i}.ts`, status: 'added' })),
    );
    const result = await impacted(13);
    expect(result.targets).toBe('ALL');
    expect(result.impact.all?.reason).toContain('the GitHub API lists only the first 3000');
    expect(requests).toHaveLength(30);
  });

  it('reads exactly 2,999 files as a list', async () => {
    pulls.set(
      14,
      Array.from({ length: 2999 }, (_, i) => ({ filename: `services/b/${i}.ts`, status: 'added' })),
    );
    expect((await impacted(14)).targets).toEqual(['svc:b']);
  });

  it('impacts everything on an HTTP error, naming the fix, without showing the token', async () => {
    pulls.set(15, [{ filename: 'services/a/x.ts', status: 'modified' }]);
    const result = await impacted(15, 'wrong-token');
    expect(result.targets).toBe('ALL');
    expect(result.impact.all?.reason).toContain('answered HTTP 401');
    expect(result.impact.all?.reason).toContain('pull-requests: read');
    expect(result.warnings.join('\n')).not.toContain('wrong-token');
  });

  it('refuses answers of the wrong shape', async () => {
    answer = () => ({ status: 200, body: JSON.stringify([{ name: 'not a file entry' }]) });
    expect((await impacted(16)).impact.all?.reason).toContain('entry 0 has no filename or status');
    answer = () => ({ status: 200, body: '<html>proxy login</html>' });
    expect((await impacted(16)).impact.all?.reason).toContain('not JSON');
    answer = () => ({ status: 200, body: JSON.stringify({ message: 'rate limited' }) });
    expect((await impacted(16)).impact.all?.reason).toContain('JSON that is not a list');
  });

  it('is where auto looks when the working directory is no git checkout', async () => {
    pulls.set(17, [{ filename: 'services/api/x.ts', status: 'modified' }]);
    const result = await impacted(17, TOKEN, 'auto');
    expect(result.targets).toEqual(['svc:api']);
    expect(result.from).toBe('the GitHub API (PR #17 files)');
  });
});
