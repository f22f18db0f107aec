// The parallel-queue rehearsal of `npm run demo`: three PRs of a services monorepo (a real git repository
// made here), each with its impacted targets computed and uploaded by the built action
// (set-impacted-targets with targets-config, from the PR's checkout), then submitted to a parallel queue
// of the emulator. The PRs touching services/api and services/web have disjoint targets: they test side
// by side in lanes of their own. The third touches a barrier (the lockfile), so it impacts ALL: its test
// run is built on top of both, and it merges only after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuiltAction } from '../__tests__/helpers/action-runner.js';
import { cloneOf, newRepo, type GitRepo } from '../__tests__/helpers/git-repo.js';
import { example, type Example } from '../__tests__/helpers/webhook-examples.js';
import { CONTROL_PREFIX } from '../emulator/control.js';
import { startEmulator, type Emulator } from '../emulator/server.js';

const TOKEN = 'demo-token';
const CONFIG = [
  'barriers: [package-lock.json]',
  'inert: ["**/*.md"]',
  'rules:',
  '  - match: "services/{name}/**"',
  '    targets: ["svc:{name}"]',
].join('\n');

interface DemoPr {
  number: number;
  title: string;
  changes: Record<string, string>;
  head?: string;
}

type Control = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
type RepoRef = { host: string; owner: string; name: string };
type PullRequestEvent = Example<'pull_request'>;

export async function rehearseParallelQueue(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'mqa-demo-'));
  const emulator = await startEmulator({ token: TOKEN });
  try {
    const payload = example('pull_request', (p) => p.action === 'opened');
    const [owner, name] = payload.repository.full_name.split('/') as [string, string];
    const repo = { host: 'github.com', owner, name };
    const base = payload.pull_request.base.ref;
    const control = controlOf(emulator);

    console.log('\n=== Parallel queue rehearsal: targets computed from the changed files ===\n');
    const { origin, prs } = monorepoWithPullRequests(join(dir, 'origin'), base);
    await control('POST', '/createQueue', { repo, targetBranch: base, mode: 'parallel', concurrency: 3 });
    await control('POST', `${CONTROL_PREFIX}/ci`, { repo, durationMinutes: 10, outcome: 'pass' });
    for (const pr of prs) {
      const clone = cloneOf(origin, join(dir, `pr-${pr.number}`));
      clone.git('checkout', '--quiet', pr.head as string);
      await uploadAndSubmit({ control, emulator, repo, base, payload }, pr, clone.dir);
    }

    // Let the queue start its runs, then look at them while they test.
    await control('POST', `${CONTROL_PREFIX}/clock/advance`, { minutes: 1 });
    console.log('\nOne minute later:');
    const runs = await testRunsBuiltOn(control, repo, base, prs);
    await control('POST', `${CONTROL_PREFIX}/clock/run-until-idle`, {});
    const history = await control(
      'GET',
      `${CONTROL_PREFIX}/history?repo=${owner}/${name}&targetBranch=${base}`,
    );
    const merged = (history.events as { kind: string; to?: string; prNumber?: number }[])
      .filter((event) => event.kind === 'pr_state' && event.to === 'merged')
      .map((event) => event.prNumber as number);
    console.log(`\nMerged in this order: ${merged.map((n) => `#${n}`).join(', ')}`);
    return wentAsPlanned(runs, merged);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Requests to the emulator: the API under its /v1 base, the control surface at the root. */
function controlOf(emulator: Emulator): Control {
  return async (method, path, body) => {
    const url = path.startsWith(CONTROL_PREFIX) ? `${emulator.origin}${path}` : `${emulator.url}${path}`;
    const response = await fetch(url, {
      method,
      headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
}

/** The services monorepo on branch `base`, and a branch with a commit for each of the three PRs. */
function monorepoWithPullRequests(dir: string, base: string): { origin: GitRepo; prs: DemoPr[] } {
  const origin = newRepo(dir, {
    '.github/impacted-targets.yml': CONFIG,
    'services/api/main.ts': 'api',
    'services/web/main.ts': 'web',
    'package-lock.json': '{}',
    'README.md': 'monorepo',
  });
  origin.git('branch', '-M', base);
  const prs: DemoPr[] = [
    { number: 101, title: 'api: faster handler', changes: { 'services/api/main.ts': 'api v2' } },
    {
      number: 102,
      title: 'web: new page',
      changes: { 'services/web/main.ts': 'web v2', 'README.md': 'docs' },
    },
    { number: 103, title: 'bump the lockfile', changes: { 'package-lock.json': '{"lockfileVersion":3}' } },
  ];
  for (const pr of prs) {
    origin.git('checkout', '--quiet', '-b', `pr-${pr.number}`, base);
    pr.head = origin.commit(pr.title, pr.changes);
  }
  origin.git('checkout', '--quiet', base);
  return { origin, prs };
}

interface Rehearsal {
  control: Control;
  emulator: Emulator;
  repo: RepoRef;
  base: string;
  payload: PullRequestEvent;
}

/** The PR made known to the emulator, its targets computed and uploaded by the built action, then submitted. */
async function uploadAndSubmit(rehearsal: Rehearsal, pr: DemoPr, checkout: string): Promise<void> {
  const { control, emulator, repo, base, payload } = rehearsal;
  const event = structuredClone(payload);
  event.number = pr.number;
  event.pull_request.number = pr.number;
  event.pull_request.title = pr.title;
  event.pull_request.head.sha = pr.head as string;
  await control('POST', `${CONTROL_PREFIX}/pull-requests`, {
    repo,
    number: pr.number,
    title: pr.title,
    headSha: pr.head,
    baseBranch: base,
    mergeability: 'mergeable',
  });
  const upload = await runBuiltAction({
    eventName: 'pull_request',
    payload: event,
    env: { GITHUB_REPOSITORY: `${repo.owner}/${repo.name}` },
    inputs: {
      operation: 'set-impacted-targets',
      'api-url': emulator.url,
      'api-token': TOKEN,
      'targets-config': '.github/impacted-targets.yml',
      'working-directory': checkout,
    },
  });
  if (upload.exitCode !== 0)
    throw new Error(`PR #${pr.number}: set-impacted-targets failed: ${upload.error}`);
  const why = upload.outputs['impacts-all'] === 'true' ? ` (${upload.outputs['impacts-all-reason']})` : '';
  console.log(`PR #${pr.number} "${pr.title}": impacted targets ${upload.outputs['impacted-targets']}${why}`);
  await control('POST', '/submitPullRequest', { repo, pr: { number: pr.number }, targetBranch: base });
}

/** For each PR, the PRs its test run is built on (none: a lane of its own), as the queue says. */
async function testRunsBuiltOn(
  control: Control,
  repo: RepoRef,
  base: string,
  prs: DemoPr[],
): Promise<Map<number, number[]>> {
  const runs = new Map<number, number[]>();
  for (const pr of prs) {
    const status = await control('POST', '/getSubmittedPullRequest', {
      repo,
      pr: { number: pr.number },
      targetBranch: base,
    });
    const testRunId = status.verifiedByTestRun as string | null;
    const details = testRunId
      ? await control('POST', '/getMergeQueueTestingDetails', { repo, targetBranch: base, testRunId })
      : undefined;
    const builtOn = (details?.dependentPrs as number[] | undefined) ?? [];
    runs.set(pr.number, builtOn);
    const on = builtOn.length
      ? builtOn.map((n) => `#${n}`).join(' and ')
      : 'nothing ahead (a lane of its own)';
    console.log(`  PR #${pr.number}: ${String(status.state)}, test run built on ${on}`);
  }
  return runs;
}

/** #101 and #102 side by side; #103 (ALL) built on both and merged after them. */
function wentAsPlanned(runs: Map<number, number[]>, merged: number[]): boolean {
  const sideBySide = (runs.get(101)?.length ?? -1) === 0 && (runs.get(102)?.length ?? -1) === 0;
  const third = runs.get(103) ?? [];
  const waited =
    third.includes(101) &&
    third.includes(102) &&
    merged.indexOf(103) > Math.max(merged.indexOf(101), merged.indexOf(102));
  const ok = sideBySide && waited && merged.length === 3;
  console.log(
    ok
      ? 'PRs #101 and #102 tested side by side in separate lanes; #103 (a barrier: ALL) was tested on top of both and merged after them.'
      : 'The rehearsal did not go as expected (see above).',
  );
  return ok;
}
