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
import { cloneOf, newRepo } from '../__tests__/helpers/git-repo.js';
import { example } from '../__tests__/helpers/webhook-examples.js';
import { startEmulator } from '../emulator/server.js';

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

export async function rehearseParallelQueue(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'mqa-demo-'));
  const emulator = await startEmulator({ token: TOKEN });
  try {
    const payload = example('pull_request', (p) => p.action === 'opened');
    const [owner, name] = payload.repository.full_name.split('/') as [string, string];
    const repo = { host: 'github.com', owner, name };
    const base = payload.pull_request.base.ref;
    const control = async (method: string, path: string, body?: unknown) => {
      // The API lives under the emulator's /v1 base; its control surface at the root.
      const url = path.startsWith('/_emulator')
        ? `${new URL(emulator.url).origin}${path}`
        : `${emulator.url}${path}`;
      const response = await fetch(url, {
        method,
        headers: { 'x-api-token': TOKEN, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };

    console.log('\n=== Parallel queue rehearsal: targets computed from the changed files ===\n');
    const origin = newRepo(join(dir, 'origin'), {
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

    await control('POST', '/createQueue', { repo, targetBranch: base, mode: 'parallel', concurrency: 3 });
    await control('POST', '/_emulator/ci', { repo, durationMinutes: 10, outcome: 'pass' });
    for (const pr of prs) {
      const clone = cloneOf(origin, join(dir, `pr-${pr.number}`));
      clone.git('checkout', '--quiet', pr.head as string);
      const event = structuredClone(payload);
      event.number = pr.number;
      event.pull_request.number = pr.number;
      event.pull_request.title = pr.title;
      event.pull_request.head.sha = pr.head as string;
      await control('POST', '/_emulator/pull-requests', {
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
        env: { GITHUB_REPOSITORY: `${owner}/${name}` },
        inputs: {
          operation: 'set-impacted-targets',
          'api-url': emulator.url,
          'api-token': TOKEN,
          'targets-config': '.github/impacted-targets.yml',
          'working-directory': clone.dir,
        },
      });
      if (upload.exitCode !== 0)
        throw new Error(`PR #${pr.number}: set-impacted-targets failed: ${upload.error}`);
      const why =
        upload.outputs['impacts-all'] === 'true' ? ` (${upload.outputs['impacts-all-reason']})` : '';
      console.log(
        `PR #${pr.number} "${pr.title}": impacted targets ${upload.outputs['impacted-targets']}${why}`,
      );
      await control('POST', '/submitPullRequest', { repo, pr: { number: pr.number }, targetBranch: base });
    }

    // Let the queue start its runs, then look at them while they test.
    await control('POST', '/_emulator/clock/advance', { minutes: 1 });
    console.log('\nOne minute later:');
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
      console.log(
        `  PR #${pr.number}: ${String(status.state)}, test run built on ${builtOn.length ? builtOn.map((n) => `#${n}`).join(' and ') : 'nothing ahead (a lane of its own)'}`,
      );
    }

    await control('POST', '/_emulator/clock/run-until-idle', {});
    const history = await control('GET', `/_emulator/history?repo=${owner}/${name}&targetBranch=${base}`);
    const merged = (history.events as { kind: string; to?: string; prNumber?: number }[])
      .filter((event) => event.kind === 'pr_state' && event.to === 'merged')
      .map((event) => event.prNumber);
    console.log(`\nMerged in this order: ${merged.map((n) => `#${n}`).join(', ')}`);

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
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
