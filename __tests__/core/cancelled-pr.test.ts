// A PR taken out of the queue reads as cancelled, by whom or what, everywhere a person reads it: the job
// summary, the annotation, the Slack message and the PR comment. Nothing in it reads as a failed check.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useEmulator } from '../helpers/emulator.js';
import { GitHubApi } from '../helpers/github-api.js';
import { overVersion, type Version } from '../helpers/over-versions.js';
import { startCheckingProxy, type CheckingProxy } from '../helpers/v2-requests.js';
import { cancellationWords } from '../../src/core/operations/pull-request/v2/cancellation.js';

const emulator = useEmulator({ timeScale: 600 });
let proxy: CheckingProxy;
const github = new GitHubApi('gh-app-token');

beforeAll(async () => {
  proxy = await startCheckingProxy(emulator.current.origin);
  await github.start();
});

afterAll(async () => {
  await proxy.close();
  await github.stop();
});

/** PR 17 testing in its own queue (its check never ends), then taken out by `cancel`. */
async function cancelledWhileTesting(version: Version, name: string, cancel: 'push' | 'person') {
  const { queue, act } = overVersion(emulator, () => proxy, version, `octo-org/${name}-${version}`, {
    'pr-number': '17',
  });
  await queue.create({ requiredStatuses: ['ci/test'] });
  await queue.ci(17, { outcome: 'hang' });
  await queue.setPr(17, { headSha: 'a'.repeat(40) });
  await queue.submit(17);
  expect(await queue.state(17)).toBe('testing');
  if (cancel === 'push') await queue.setPr(17, { headSha: 'b'.repeat(40) });
  else expect((await queue.cancel(17)).status).toBe(200);
  expect(await queue.state(17)).toBe('cancelled');
  return act(
    {
      operation: 'get-submitted-pull-request',
      'wait-for': 'merged',
      'notify-on': 'always',
      'notify-pr-comment': 'true',
      'github-token': 'gh-app-token',
    },
    undefined,
    { GITHUB_API_URL: github.url },
  );
}

/** Everything a person reads of one run, to check that none of it speaks of a failure. */
function everythingRead(run: Awaited<ReturnType<typeof cancelledWhileTesting>>): string {
  const comment = github.comments.at(-1)?.body ?? '';
  return [run.summary, run.log, run.outputs.notification, comment].join('\n');
}

describe('a cancelled PR', () => {
  it('over v2, a push that cancelled it is named as the cause, and nothing reads as failed', async () => {
    const run = await cancelledWhileTesting('v2', 'cancel-push', 'push');
    expect(run.failed).toBe(true);

    expect(run.summary).toMatch(/^## ⏹️ Cancelled in the merge queue: \[.*17\]/);
    expect(run.summary).toContain('> [!NOTE]\n> Cancelled: a push to the PR took it out of the queue.');
    expect(run.summary).toContain('**What now:** the PR changed while in the queue: submit it again');

    // The annotation is a warning titled with what happened, not an error.
    expect(run.log).toMatch(
      /^::warning title=⏹️ #17 was cancelled in the merge queue::PR #17 was cancelled in the merge queue while waiting for MERGED: a push to the PR took it out of the queue\./m,
    );
    expect(run.log).not.toMatch(/^::error/m);

    const slack = JSON.parse(run.outputs.notification!) as {
      text: string;
      attachments: [{ color: string; blocks: { type: string; text?: { text: string } }[] }];
    };
    expect(slack.attachments[0].color).toBe('#8c959f');
    expect(slack.text).toMatch(/^⏹️ #17 was cancelled in the merge queue · /);
    expect(slack.attachments[0].blocks[1]!.text!.text).toContain(
      'PR #17 was cancelled: a push to the PR took it out of the queue.',
    );
    expect(JSON.stringify(slack.attachments)).not.toMatch(/Failing checks|Open ci\/test/);

    const comment = github.comments.at(-1)!.body;
    expect(comment).toContain('was cancelled in the merge queue');
    expect(comment).toContain('a push to the PR took it out of the queue');

    const read = everythingRead(run);
    expect(read).not.toMatch(/❌|🚫|failed check|Failing checks|\[!CAUTION\]|concluded CANCELLED/);
  });

  it('over v2, a cancel someone asked for says so', async () => {
    const run = await cancelledWhileTesting('v2', 'cancel-person', 'person');
    expect(run.summary).toContain('> Cancelled: someone cancelled it.');
    expect(run.summary).toContain('**What now:** nothing if that was meant; otherwise submit it again');
    expect(everythingRead(run)).not.toMatch(/❌|🚫|failed check|Failing checks|\[!CAUTION\]/);
  });

  it('over v1, which gives no reason, says that it does not know rather than blaming a check', async () => {
    const run = await cancelledWhileTesting('v1', 'cancel-v1', 'person');
    expect(run.summary).toContain('> Cancelled: the service did not say by whom or why');
    expect(run.outputs['failing-checks']).toBe('[]');
    expect(everythingRead(run)).not.toMatch(/❌|🚫|failed check|Failing checks|\[!CAUTION\]/);
  });
});

describe('who cancelled it, in words', () => {
  it('names the person the service names, and the queue when it did it', () => {
    expect(cancellationWords({ reason: 'USER_REQUESTED', actor: { gitHubLogin: 'octocat' } })).toBe(
      '@octocat cancelled it',
    );
    expect(cancellationWords({ reason: 'TRUNK_ADMIN_REQUESTED', actor: {} })).toBe(
      'a Trunk admin cancelled it',
    );
    expect(cancellationWords({ reason: 'NOT_READY_TIMEOUT_EXPIRED', actor: undefined })).toBe(
      'the queue took it out: it stayed not ready too long',
    );
    expect(cancellationWords({ reason: 'SOMETHING_NEW', actor: undefined })).toBe('something new');
  });
});
