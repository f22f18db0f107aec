// What goes out to other people, tried as an attacker would (issue 25, rows 10-13, 18, 19): the PR
// comment we update, the Slack payload, the webhook URL in every spelling, invisible characters in log
// lines, and values long enough to drown a summary. Each story runs the action against the emulator,
// the fake GitHub API and a webhook receiver over loopback.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUILDKITE_DIALECT as buildkiteDialect } from '../../src/hosts/buildkite.js';
import { PLAIN_DIALECT, Secrets, streamLog } from '../../src/hosts/common/log.js';
import { GITLAB_DIALECT as gitLabDialect } from '../../src/hosts/gitlab-ci.js';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { GitHubApi } from '../helpers/github-api.js';
import { emulatorClock } from '../helpers/virtual-clock.js';

const emulator = useEmulator();

/** A Slack-like incoming webhook: keeps what it receives, answers what the test asks. */
class Webhook {
  readonly bodies: string[] = [];
  answer: { status: number; body: string } = { status: 200, body: 'ok' };
  url = '';
  private server: Server | undefined;

  async start(path: string): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(this.answer.status, { 'content-type': 'text/plain' }).end(this.answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  payload(): {
    text: string;
    blocks: { type: string; text?: { text: string }; elements?: { text: string }[] }[];
  } {
    // The blocks sit in the attachment that carries the colour bar.
    const sent = JSON.parse(this.bodies.at(-1)!) as { text: string; attachments: { blocks: unknown[] }[] };
    return { text: sent.text, blocks: sent.attachments[0]!.blocks } as ReturnType<Webhook['payload']>;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const webhook = new Webhook();
beforeAll(() => webhook.start('/services/T0ABCDEF1/B0ABCDEF2/Xq7hooksecret9ZkP2'));
afterAll(() => webhook.stop());

/** A queue whose PR `pr` fails its check `ci/build`, and an action run on it (wait-for merged). */
async function failedPr(name: string, pr: number, facts: Record<string, unknown> = {}) {
  const queue = new QueueDriver(emulator, `octo-org/${name}`, 'main');
  await queue.create({ concurrency: 1, requiredStatuses: ['ci/build'] });
  await queue.ci(undefined, { outcome: 'pass', durationMinutes: 30 });
  await queue.ci(pr, { outcome: 'fail', durationMinutes: 5 });
  if (Object.keys(facts).length) await queue.setPr(pr, facts);
  const act = async (inputs: Record<string, string>, env: Record<string, string> = {}) =>
    runAction({
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: `octo-org/${name}`, ...env },
      clock: await emulatorClock(emulator, []),
      inputs: {
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
        'poll-interval-seconds': '60',
        'wait-timeout-minutes': '240',
        operation: 'submit-pull-request',
        'pr-number': String(pr),
        'wait-for': 'merged',
        ...inputs,
      },
    });
  return { queue, act };
}

const MARKER = '<!-- merge-queue-action:status:main -->';

describe('row 10: the PR comment we update is found by marker and author', () => {
  it('leaves alone a comment of someone else that starts with our marker, with the Actions token', async () => {
    const github = new GitHubApi('gh-app-token');
    await github.start();
    try {
      const { act } = await failedPr('out-comment-app', 10);
      const planted = github.addComment(10, 'mallory', `${MARKER}\nApproved by the merge queue, merge away`);
      const inputs = { 'notify-pr-comment': 'true', 'github-token': 'gh-app-token' };
      const first = await act(inputs, { GITHUB_API_URL: github.url });
      expect(first.log).toMatch(/^PR comment created: https:\/\/github\.com\//m);
      const second = await act(
        { ...inputs, operation: 'get-submitted-pull-request' },
        { GITHUB_API_URL: github.url },
      );
      expect(second.log).toMatch(/^PR comment updated: /m);

      expect(planted.body).toBe(`${MARKER}\nApproved by the merge queue, merge away`);
      const ours = github.comments.filter((c) => c.author === 'github-actions[bot]');
      expect(ours).toHaveLength(1);
      expect(ours[0]!.body).toMatch(/### ❌ #<!-- -->\d+ failed in the merge queue/);
      expect(github.requests.filter((r) => r.startsWith('PATCH '))).toEqual([
        `PATCH /repos/octo-org/out-comment-app/issues/comments/${ours[0]!.id}`,
      ]);
    } finally {
      await github.stop();
    }
  });

  it("with a user's token, takes only that user's comment for ours, not the Actions bot's", async () => {
    const github = new GitHubApi('gh-user-token', { user: 'octo-maintainer' });
    await github.start();
    try {
      const { act } = await failedPr('out-comment-user', 11);
      const bots = github.addComment(11, 'github-actions[bot]', `${MARKER}\nan older step's comment`);
      const mine = github.addComment(11, 'octo-maintainer', `${MARKER}\nstale`);
      await act(
        { 'notify-pr-comment': 'true', 'github-token': 'gh-user-token' },
        { GITHUB_API_URL: github.url },
      );
      expect(bots.body).toBe(`${MARKER}\nan older step's comment`);
      expect(mine.body).toMatch(/### ❌ #<!-- -->\d+ failed in the merge queue/);
      expect(github.comments).toHaveLength(2);
    } finally {
      await github.stop();
    }
  });

  it('with a token GitHub names no login for, edits no comment and says why it added one', async () => {
    const github = new GitHubApi('gh-nameless-token', { nameless: true });
    await github.start();
    try {
      const { act } = await failedPr('out-comment-nameless', 12);
      const earlier = github.addComment(12, 'github-actions[bot]', `${MARKER}\nan earlier step's comment`);
      const run = await act(
        { 'notify-pr-comment': 'true', 'github-token': 'gh-nameless-token' },
        { GITHUB_API_URL: github.url },
      );
      expect(earlier.body).toBe(`${MARKER}\nan earlier step's comment`);
      expect(github.comments).toHaveLength(2);
      expect(run.log).toMatch(
        /^::warning title=submit-pull-request::notify-pr-comment: a new comment was added, as the GitHub API named no login for github-token/m,
      );
    } finally {
      await github.stop();
    }
  });
});

describe('rows 11 and 12: the Slack payload', () => {
  it('escapes a PR title of mentions and links in the top-level text as in the blocks', async () => {
    const title = '<!channel> <@U012ABC> <http://evil.example|click to approve> & more';
    const { act } = await failedPr('out-slack-title', 20, { title });
    const result = await act({ 'notify-webhook-url': webhook.url });
    expect(result.failed).toBe(true);
    const payload = webhook.payload();
    // What happened comes first: it is the line a phone's notification shows.
    expect(payload.text).toMatch(
      /^❌ #20 failed in the merge queue: ci\/build · octo-org\/out-slack-title → \S+ · /,
    );
    expect(payload.text).toContain(
      '&lt;!channel&gt; &lt;@U012ABC&gt; &lt;http://evil.example|click to approve&gt; &amp; more',
    );
    for (const text of mrkdwnTexts(payload)) {
      expect(text).not.toMatch(/<[!@#]/);
      expect(text).not.toContain('<http://evil.example');
      // Every link is ours: https, to GitHub.
      for (const link of text.match(/<[^>]*>/g) ?? [])
        expect(link).toMatch(/^<https:\/\/github\.com\/[^|<>\s]+\|/);
    }
  });

  it("shows a check's url that would close or relabel the link as text, never as a link", async () => {
    const { queue, act } = await failedPr('out-slack-link', 21);
    await act({});
    const pr = await queue.pr(21);
    const details = await queue.testingDetails(String(pr.verifiedByTestRun));
    expect(details.status).toBe(200);
    const spoofed = JSON.stringify(details.json).replace(
      /"url":"https:\/\/github\.com\/[^"]*\/job\/1"/g,
      '"url":"https://ci.example.com/1|Approve here>"',
    );
    expect(spoofed).toContain('Approve here>');
    await emulator.control('POST', '/faults', {
      path: '/getMergeQueueTestingDetails',
      faults: Array.from({ length: 5 }, () => ({
        kind: 'status',
        status: 200,
        body: spoofed,
        contentType: 'application/json',
      })),
    });
    try {
      await act({ operation: 'get-submitted-pull-request', 'notify-webhook-url': webhook.url });
    } finally {
      await emulator.control('DELETE', '/faults');
    }
    const checks = webhook.payload().blocks.find((b) => b.text?.text.startsWith('*Failing checks*'))!.text!
      .text;
    expect(checks).toBe('*Failing checks*\n• ci/build FAILURE');
    for (const text of mrkdwnTexts(webhook.payload())) expect(text).not.toMatch(/<[^>]*Approve/);
    // No button for it either: the PR's is the only one with an address of the service's making.
    const buttons = webhook.payload().blocks.flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []));
    expect(JSON.stringify(buttons)).not.toContain('Approve');
  });
});

describe('row 13: the webhook URL is a secret in every spelling', () => {
  it('hides the URL that a failing webhook echoes percent-encoded, lower-case hex, or JSON-escaped', async () => {
    const { act } = await failedPr('out-webhook-echo', 30);
    const spellings = [
      encodeURIComponent(webhook.url),
      encodeURIComponent(webhook.url).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
      JSON.stringify(webhook.url).slice(1, -1).replace(/\//g, '\\/'),
    ];
    for (const spelling of spellings) {
      webhook.answer = { status: 400, body: `invalid_token for ${spelling}` };
      try {
        const result = await act({ 'notify-webhook-url': webhook.url });
        const warning = result.log.split('\n').find((l) => l.includes('was not delivered'));
        expect(warning).toMatch(/the webhook answered 400 \(invalid_token for \*\*\*\)/);
        const shown = [
          result.log.replace(/^::add-mask::.*$/gm, ''),
          result.summary,
          JSON.stringify(result.outputs),
        ].join('\n');
        expect(shown).not.toContain('Xq7hooksecret9ZkP2');
        expect(shown).not.toContain('hooksecret');
        expect(shown).not.toContain('T0ABCDEF1%2FB0ABCDEF2');
      } finally {
        webhook.answer = { status: 200, body: 'ok' };
      }
    }
  });
});

describe('row 18: invisible characters in an answer reach no log line', () => {
  it('shows bidi and zero-width controls of an error body as code points in the ::error line', async () => {
    const queue = new QueueDriver(emulator, 'octo-org/out-bidi', 'main');
    await queue.create({});
    const said =
      'PR \u202Eexe.gnp\u202C is \u2066blocked\u2069 by\u200B a\u200D rule\u200E\u200F\u061C\u2060\uFEFF';
    await emulator.control('POST', '/faults', {
      path: '/submitPullRequest',
      faults: [{ kind: 'status', status: 400, body: said }],
    });
    const result = await runAction({
      env: { GITHUB_REPOSITORY: 'octo-org/out-bidi' },
      inputs: {
        operation: 'submit-pull-request',
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
        'pr-number': '40',
      },
    });
    expect(result.failed).toBe(true);
    expect(result.log).not.toMatch(/[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/);
    expect(result.error).toContain(
      'PR ⟨U+202E⟩exe.gnp⟨U+202C⟩ is ⟨U+2066⟩blocked⟨U+2069⟩ by⟨U+200B⟩ a⟨U+200D⟩ rule',
    );
  });
});

describe('row 18, the other hosts: a line the host writes itself', () => {
  it('shows bidi and zero-width controls as code points in plain, GitLab and Buildkite logs', () => {
    const written: string[] = [];
    const stream = { write: (text: string) => written.push(text) };
    const dialects = [PLAIN_DIALECT, gitLabDialect, buildkiteDialect];
    for (const dialect of dialects) {
      const log = streamLog(stream, dialect, new Secrets());
      log.error('answer: \u202Efdp.exe\u202C \u2067x\u2069\u200B\uFEFF', { title: 'title \u202E' });
      log.info('info \u2066y\u2069');
    }
    // Buildkite's own marker that opens the log group of an error is not a line of text.
    const lines = written.filter((line) => line !== '^^^ +++\n');
    expect(lines).toHaveLength(dialects.length * 2);
    for (const line of lines) {
      expect(line).not.toMatch(/[\u061c\u200c-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/);
      expect(line).toMatch(/⟨U\+20(2E|66)⟩/);
    }
  });
});

describe('row 19: values are cut to a length a person reads', () => {
  it('a PR title of 64 KiB makes a heading of a few hundred characters, and short log lines', async () => {
    // The emulator takes titles up to 64 KiB; the service took 512 KiB.
    const title = `Refactor ${'everything '.repeat(6 * 1024)}`.slice(0, 64 * 1024);
    const { act } = await failedPr('out-long-title', 50, { title });
    const result = await act({});
    const heading = result.summary.split('\n')[0]!;
    expect(heading).toMatch(
      /^## ❌ Failed in the merge queue \(ci\/build failure\): \[#<!-- -->50 Refactor everything/,
    );
    expect(heading).toContain('…](https://github.com/octo-org/out-long-title/pull/50)');
    expect(heading.length).toBeLessThan(400);
    const titleRow = result.summary.split('\n').find((line) => line.startsWith('| Title |'))!;
    expect(titleRow.length).toBeLessThan(400);
    expect(titleRow).toMatch(/…/);
    expect(Buffer.byteLength(result.summary)).toBeLessThan(64 * 1024);
    expect(Math.max(...result.log.split('\n').map((line) => line.length))).toBeLessThanOrEqual(2000);
  });
});

function mrkdwnTexts(payload: ReturnType<Webhook['payload']>): string[] {
  return [
    payload.text,
    ...payload.blocks.flatMap((b) => [
      ...(b.type === 'section' && b.text ? [b.text.text] : []),
      ...(b.type === 'context' ? (b.elements ?? []).map((e) => e.text) : []),
    ]),
  ];
}
