// "Where is my PR, and why?": the stories of a wait-for step against the emulator, on its virtual clock
// (each poll moves it by poll-interval-seconds; nothing waits in real time). Each story checks the log
// lines, the outputs and the summary a person would read.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../helpers/action-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { launchChromium } from '../helpers/chromium.js';
import { itWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';
import { SummaryRenderer, type TimelineBar } from '../helpers/render-summary.js';
import { emulatorClock, type ScriptedEvent } from '../helpers/virtual-clock.js';

const emulator = useEmulator();

/** Every summary a story wrote, drawn at the end as GitHub would draw it. */
const written: { story: string; summary: string }[] = [];

async function setUp(name: string, settings: Record<string, unknown> = {}) {
  const queue = new QueueDriver(emulator, `octo-org/${name}`, 'main');
  await queue.create({ concurrency: 1, ...settings });
  await queue.ci(undefined, { outcome: 'pass', durationMinutes: 30 });
  const act = async (
    inputs: Record<string, string>,
    script: ScriptedEvent[] = [],
    env: Record<string, string> = {},
  ) =>
    runAction({
      eventName: 'workflow_dispatch',
      env: { GITHUB_REPOSITORY: `octo-org/${name}`, ...env },
      clock: await emulatorClock(emulator, script),
      inputs: {
        'api-url': emulator.current.url,
        'api-token': TEST_TOKEN,
        'target-branch': 'main',
        'poll-interval-seconds': '60',
        'wait-timeout-minutes': '240',
        ...inputs,
      },
    });
  const record = async (...args: Parameters<typeof act>) => {
    const result = await act(...args);
    written.push({ story: `${name}: ${args[0].operation}`, summary: result.summary });
    return result;
  };
  return { queue, act: record };
}

/** The log's plain lines (workflow commands for groups and annotations kept as they are). */
const lines = (log: string) => log.split('\n');

describe('a PR overtaken by an urgent PR, then held by a paused queue', () => {
  it('says why it stepped back and that the queue is paused, and leads the summary with the outcome', async () => {
    const { queue, act } = await setUp('story-urgent');
    await queue.setPr(50, { title: 'Add billing export' });
    await queue.setPr(51, { title: 'Hotfix login' });
    const inputs = {
      operation: 'submit-pull-request',
      'pr-number': '50',
      'wait-for': 'merged',
      'progress-interval-seconds': '1800',
    };
    const result = await act(inputs, [
      { atMinute: 10, run: () => queue.submit(51, { priority: 'urgent' }) },
      { atMinute: 50, run: async () => void (await queue.update({ state: 'paused' })) },
      { atMinute: 85, run: async () => void (await queue.update({ state: 'running' })) },
    ]);

    expect(result.failed).toBe(false);
    expect(result.outputs).toMatchObject({ state: 'MERGED', reason: '', 'failing-checks': '[]' });
    const log = lines(result.log);
    expect(log).toContain(
      // No PR was tested in the last hour: no time left can be estimated, so none is promised.
      'Waiting up to 4h for PR #50 to be MERGED; looking every 1m.',
    );
    expect(log).toContain(
      'PR #50 stepped back (TESTING → PENDING, position 1 → 2): urgent PR #51 jumped ahead.',
    );
    expect(log).toContain('PR #50: PENDING, 2 of 2 in line (1 ahead); waited 10m of 4h.');
    // The PRs ahead, in a group of the log.
    expect(result.log).toContain('::group::PRs ahead of #50 (1)\n#51 TESTING (urgent)\n::endgroup::');
    expect(log).toContain(
      'PR #50: TESTING, 1 of 1 in line (first); the queue is paused: nothing merges and no new testing starts until it is resumed; waited 50m of 4h.',
    );
    expect(log).toContain(
      'PR #50: TESTS_PASSED, 1 of 1 in line (first); the queue is paused: nothing merges and no new testing starts until it is resumed; waited 1h 10m of 4h.',
    );
    // Nothing changed between 1h 10m and 1h 25m, and progress-interval-seconds is 30 minutes: no line.
    expect(log.filter((l) => l.startsWith('PR #50: TESTS_PASSED'))).toHaveLength(1);
    expect(log).toContain('PR #50: MERGED; waited 1h 25m of 4h.');

    const summary = result.summary;
    expect(summary.split('\n')[0]).toBe(
      '## ✅ Merged after 1h 25m: [#<!-- -->50 Add billing export](https://github.com/octo-org/story-urgent/pull/50) → <code>main</code>',
    );
    expect(summary).toContain(
      'Tested twice, sent back once (urgent PR #<!-- -->51 jumped ahead), waited 35m while the queue was paused.',
    );
    expect(summary).toMatch(/```mermaid\n%%\{init: .*"critBorderColor":"#cf222e".*\}%%\ngantt\n/);
    expect(summary).toMatch(/ {2}Pending \(sent back by urgent 51\) :b1, \d+, \d+/);
    expect(summary).toContain('<details><summary>Everything the queue reported</summary>');
    // Durations, not timestamps; Priority once.
    expect(summary).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(summary.match(/Priority/g)).toHaveLength(1);
    expect(summary).not.toMatch(/^\|\s*\|\s*\|$/m);
  });
});

describe('a PR whose check fails', () => {
  it('names the failing check with its link in the log, the outputs and the summary', async () => {
    const { queue, act } = await setUp('story-failed', { requiredStatuses: ['ci/build'] });
    await queue.setPr(130, { title: 'Upgrade webpack to v6' });
    await queue.ci(130, { outcome: 'fail', durationMinutes: 15 });
    const result = await act({ operation: 'submit-pull-request', 'pr-number': '130', 'wait-for': 'merged' });

    expect(result.failed).toBe(true);
    const checks = JSON.parse(result.outputs['failing-checks']!) as {
      name: string;
      conclusion: string;
      url: string;
    }[];
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ name: 'ci/build', conclusion: 'FAILURE' });
    expect(checks[0]!.url).toMatch(
      /^https:\/\/github\.com\/octo-org\/story-failed\/actions\/runs\/\d+\/job\/1$/,
    );
    expect(result.outputs.state).toBe('FAILED');
    expect(result.outputs.reason).toBe(`PR #130 failed: ci/build concluded FAILURE (${checks[0]!.url}).`);
    // The annotation: a headline for its title, no raw address in its text (the summary links the check).
    expect(result.error).toBe(
      'PR #130 ended FAILED while waiting for MERGED: ci/build concluded FAILURE (the job summary links its logs). Fix what the check reports and submit the PR again.',
    );
    expect(result.log).toContain(
      '::error title=❌ #130 failed in the merge queue%3A ci/build::PR #130 ended FAILED',
    );

    const summary = result.summary;
    expect(summary.split('\n')[0]).toContain(
      '## ❌ Failed in the merge queue (ci/build failure): [#<!-- -->130 Upgrade webpack to v6]',
    );
    // The test branch as people quote it: its run id cut to the eight characters the timeline shows.
    expect(summary).toMatch(
      /> \[!CAUTION\]\n> The required check \*\*ci\/build\*\* concluded \*\*FAILURE\*\* on test branch <code>trunk-merge\/pr-130\/[0-9a-f]{8}…<\/code>\./,
    );
    expect(summary).toContain(`**[Open the failed check →](${checks[0]!.url})**`);
    expect(summary).toContain(`| ci/build | ❌ FAILURE | [logs](${checks[0]!.url}) |`);
    expect(summary).toContain('**What now:** fix what the failing check reports and submit the PR again');
  });
});

describe('a PR that is not ready', () => {
  it('says which readiness signal blocks it and what to do', async () => {
    const { queue, act } = await setUp('story-not-ready', { mode: 'parallel' });
    await queue.setPr(60, { title: 'Parallel change', headSha: 'a'.repeat(40) });
    await queue.submit(60);
    const looked = await act({ operation: 'get-submitted-pull-request', 'pr-number': '60' });
    expect(looked.failed).toBe(false);
    expect(looked.outputs.state).toBe('NOT_READY');
    expect(looked.outputs.reason).toBe(
      'PR #60 is not ready: impacted targets are missing for head sha aaaaaaa: run the job that uploads them (operation set-impacted-targets) for this head sha.',
    );
    expect(looked.summary.split('\n')[0]).toMatch(/^## 🕒 Not ready: \[#<!-- -->60 Parallel change\]/);
    expect(looked.summary).toContain(
      '**What now:** run the job that uploads them (operation set-impacted-targets) for this head sha.',
    );

    const waited = await act({
      operation: 'get-submitted-pull-request',
      'pr-number': '60',
      'wait-for': 'merged',
      'wait-timeout-minutes': '5',
    });
    expect(waited.failed).toBe(true);
    expect(lines(waited.log)).toContain(
      'PR #60: NOT_READY (impacted targets are missing for head sha aaaaaaa: run the job that uploads them (operation set-impacted-targets) for this head sha); waited 0s of 5m.',
    );
    expect(waited.error).toBe(
      'PR #60 is still NOT_READY after 5m: impacted targets are missing for head sha aaaaaaa: run the job that uploads them (operation set-impacted-targets) for this head sha. Raise wait-timeout-minutes to wait longer.',
    );
    expect(waited.summary.split('\n')[0]).toMatch(
      /^## ⏳ Still waiting \(NOT\\_READY\): \[#<!-- -->60 Parallel change\]/,
    );
  });
});

describe('a push to the PR while it is testing', () => {
  it('says the head sha changed, and warns that the queue tests another commit than this run', async () => {
    const { queue, act } = await setUp('story-push');
    await queue.setPr(70, { title: 'Refactor', headSha: 'b'.repeat(40) });
    const result = await act(
      { operation: 'submit-pull-request', 'pr-number': '70', 'wait-for': 'merged', 'pr-sha': 'b'.repeat(40) },
      [{ atMinute: 10, run: () => queue.setPr(70, { headSha: 'c'.repeat(40) }) }],
    );
    const warning =
      'The queue has head sha ccccccc for this PR, but this run is for bbbbbbb: the queue is testing another commit (the PR was pushed to, or this run is for an older push).';
    expect(result.log).toContain(`::warning title=submit-pull-request::${warning}`);
    expect(result.summary).toContain(`> [!WARNING]\n> ${warning}`);
    if (result.outputs.state === 'CANCELLED') {
      // A new head sha cancels the PR (as the service does).
      expect(result.summary).toContain('**What now:** the PR changed while in the queue');
    } else {
      expect(result.outputs.state).toBe('MERGED');
      expect(lines(result.log)).toContain(
        'PR #70 stepped back (TESTING again): its head sha changed (bbbbbbb → ccccccc), so it is tested again.',
      );
    }
  });
});

describe('a PR behind others', () => {
  it('gives its position, the PRs ahead and an estimate of the time left from the queue metrics', async () => {
    const { queue, act } = await setUp('story-position');
    // A past hour of merges gives the metrics' histograms something to say.
    await queue.submit(1);
    await queue.advance(31);
    await queue.submit(2);
    await queue.submit(3);
    await queue.submit(4);
    const looked = await act({ operation: 'get-submitted-pull-request', 'pr-number': '4' });
    expect(looked.outputs).toMatchObject({ state: 'PENDING', position: '3', 'prs-ahead': '2' });
    // The service knows no title for it: the heading leaves it out rather than saying "unknown".
    expect(looked.summary.split('\n')[0]).toMatch(/^## 🕒 PENDING at position 3 of 3: \[#<!-- -->4\]\(/);

    const waited = await act({
      operation: 'get-submitted-pull-request',
      'pr-number': '4',
      'wait-for': 'merged',
      'progress-interval-seconds': '600',
    });
    expect(waited.failed).toBe(false);
    const progress = lines(waited.log).filter((l) => l.startsWith('PR #4: '));
    // Short, and said once: what the estimate is made from is in the first line of the wait.
    expect(progress[0]).toMatch(
      /^PR #4: PENDING, 3 of 3 in line \(2 ahead\); about \d+m left; waited 0s of 4h\.$/,
    );
    expect(Math.max(...progress.map((l) => l.length))).toBeLessThan(100);
    // A line when the state, the place or the estimate changes: never the same news twice in a row.
    const news = progress.map((l) => l.replace(/; waited .*$/, ''));
    const minutes = progress.map((l) => {
      const [, h, m] = /waited (?:(\d+)h ?)?(?:(\d+)m)?/.exec(l)!;
      return Number(h ?? 0) * 60 + Number(m ?? 0);
    });
    news.forEach((line, i) => {
      // The same news again only as the heartbeat, progress-interval-seconds (10m) after the last line.
      if (i > 0 && line === news[i - 1]) expect(minutes[i]! - minutes[i - 1]!).toBeGreaterThanOrEqual(10);
    });
  });
});

describe('a wait shorter than the queue needs', () => {
  it('says so once, with what to do, when the estimate passes the time left', async () => {
    const { queue, act } = await setUp('story-budget');
    await queue.submit(1);
    await queue.advance(31);
    await queue.submit(2);
    await queue.submit(3);
    await queue.submit(4);
    const waited = await act({
      operation: 'get-submitted-pull-request',
      'pr-number': '4',
      'wait-for': 'merged',
      'wait-timeout-minutes': '5',
    });
    expect(waited.failed).toBe(true);
    const told = lines(waited.log).filter((l) => l.includes('more at the queue'));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /^::warning title=get-submitted-pull-request::PR #4 needs about \d+m more at the queue's recent pace, and this wait has 5m left: raise wait-timeout-minutes \(now 5m\), or stop waiting and look later with get-submitted-pull-request\.$/,
    );
  });
});

describe('notifications', () => {
  let received: { body: string }[] = [];
  let failFirst = 0;
  let server: import('node:http').Server;
  let hookUrl = '';
  beforeAll(async () => {
    const { createServer } = await import('node:http');
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (failFirst > 0) {
          failFirst--;
          res.writeHead(503).end('try later');
          return;
        }
        received.push({ body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/services/T000/B000/secretpart`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('once merged, a green bar and no step left to take', async () => {
    const { queue, act } = await setUp('story-notify-merged');
    await queue.setPr(81, { author: 'hubot' });
    const result = await act({
      operation: 'submit-pull-request',
      'pr-number': '81',
      'wait-for': 'merged',
      'notify-on': 'always',
    });
    expect(result.failed).toBe(false);
    const sent = JSON.parse(result.outputs.notification!) as {
      attachments: [{ color: string; blocks: { type: string; elements?: { text: string }[] }[] }];
    };
    expect(sent.attachments[0].color).toBe('#1a7f37');
    const context = sent.attachments[0].blocks.find((b) => b.type === 'context')!;
    expect(context.elements![0]!.text).toBe('Next step: nothing: it is merged.');
  });

  it('POSTs a Block Kit payload on failure, retrying a failing webhook, and sets output notification', async () => {
    received = [];
    failFirst = 1;
    const { queue, act } = await setUp('story-notify', { requiredStatuses: ['ci/build'] });
    await queue.ci(80, { outcome: 'fail', durationMinutes: 5 });
    await queue.setPr(80, { author: 'octocat' });
    const result = await act({
      operation: 'submit-pull-request',
      'pr-number': '80',
      'wait-for': 'merged',
      'notify-webhook-url': hookUrl,
    });
    expect(result.failed).toBe(true);
    expect(received).toHaveLength(1);
    const sent = JSON.parse(received[0]!.body) as {
      text: string;
      attachments: {
        color: string;
        blocks: {
          type: string;
          text?: { text: string };
          elements?: { text: { text: string } | string; url: string }[];
        }[];
      }[];
    };
    expect(JSON.parse(result.outputs.notification!)).toEqual(sent);
    // The phone's one line: what happened first, then where, and no address to read.
    expect(sent.text).toBe('❌ #80 failed in the merge queue: ci/build · octo-org/story-notify → main');
    // A red bar beside the message: the blocks sit in the attachment that carries it.
    expect(sent.attachments).toHaveLength(1);
    const [{ color, blocks }] = sent.attachments as [(typeof sent.attachments)[0]];
    expect(color).toBe('#cf222e');
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'actions', 'context']);
    expect(blocks[0]!.text!.text).toBe('❌ #80 failed in the merge queue');
    // Who opened it and how long it was in line.
    expect(blocks[1]!.text!.text).toMatch(/\nby @octocat · \d+m( \d+s)? in the queue$/);
    expect(blocks[2]!.text!.text).toMatch(/^\*Failing checks\*\n• <https:\/\/\S+\|ci\/build> FAILURE$/);
    // The failed check is named once in what Slack draws: in its list, with its link.
    expect(JSON.stringify(blocks).split('ci/build')).toHaveLength(2);
    const buttons = blocks[3]!.elements!.map((b) => [(b.text as { text: string }).text, b.url]);
    expect(buttons[0]).toEqual(['Open PR #80', 'https://github.com/octo-org/story-notify/pull/80']);
    expect(lines(result.log)).toContain('Notification sent to notify-webhook-url (attempt 2).');
    // The URL is a secret: only the runner's own mask command carries it.
    expect(
      lines(result.log)
        .filter((l) => !l.startsWith('::add-mask::'))
        .join('\n'),
    ).not.toContain('secretpart');
  });

  it('stays quiet on success with the default notify-on, and speaks with notify-on: always', async () => {
    received = [];
    const { queue, act } = await setUp('story-notify-ok');
    await queue.ci(81, { outcome: 'pass', durationMinutes: 5 });
    const quiet = await act({
      operation: 'submit-pull-request',
      'pr-number': '81',
      'wait-for': 'merged',
      'notify-webhook-url': hookUrl,
    });
    expect(quiet.failed).toBe(false);
    expect(quiet.outputs.notification).toBeUndefined();
    expect(received).toHaveLength(0);
    const told = await act({
      operation: 'get-submitted-pull-request',
      'pr-number': '81',
      'wait-for': 'merged',
      'notify-on': 'always',
    });
    expect(JSON.parse(told.outputs.notification!).text).toMatch(
      /^✅ #81 merged · octo-org\/story-notify-ok → /,
    );
  });

  it('keeps one PR comment, created and then updated in place', async () => {
    const { GitHubApi } = await import('../helpers/github-api.js');
    const github = new GitHubApi('gh-test-token');
    await github.start();
    try {
      const { queue, act } = await setUp('story-comment', { requiredStatuses: ['ci/build'] });
      await queue.ci(90, { outcome: 'fail', durationMinutes: 5 });
      const inputs = {
        operation: 'submit-pull-request',
        'pr-number': '90',
        'wait-for': 'merged',
        'notify-pr-comment': 'true',
        'github-token': 'gh-test-token',
      };
      const first = await act(inputs, [], { GITHUB_API_URL: github.url });
      expect(lines(first.log).some((l) => l.startsWith('PR comment created: https://github.com/'))).toBe(
        true,
      );
      const second = await act({ ...inputs, operation: 'get-submitted-pull-request' }, [], {
        GITHUB_API_URL: github.url,
      });
      expect(lines(second.log).some((l) => l.startsWith('PR comment updated: '))).toBe(true);
      expect(github.comments).toHaveLength(1);
      const body = github.comments[0]!.body;
      expect(body.split('\n')[0]).toBe('<!-- merge-queue-action:status:main -->');
      expect(body.split('\n')[1]).toBe(
        '### ❌ #<!-- -->90 failed in the merge queue: ci/build → <code>main</code>',
      );
      // The check is named in the heading and its table, with its address as the table's link; no reason
      // line names it a third time.
      expect(body).not.toContain('concluded FAILURE');
      expect(body).toMatch(
        /\| ci\/build \| FAILURE \| \[logs\]\(https:\/\/github\.com\/octo-org\/story-comment\/actions\/runs\/\d+\/job\/1\) \|/,
      );
      expect(body).toContain('**Next step:** fix what the failing check reports, then submit the PR again.');
    } finally {
      await github.stop();
    }
  });
});

describe('every summary above, rendered as GitHub renders it', () => {
  itWithTools(
    [TOOLS.chromium()],
    'has no broken or empty-headed table, and every mermaid chart draws',
    async () => {
      expect(written.length).toBeGreaterThanOrEqual(10);
      const browser = await launchChromium();
      try {
        const renderer = await SummaryRenderer.open(browser);
        const results = [];
        const failedRunBars: TimelineBar[] = [];
        for (const { story, summary } of written) {
          const rendered = await renderer.render(summary);
          if (story === 'story-failed: submit-pull-request')
            failedRunBars.push(...rendered.timeline.filter((bar) => bar.label.startsWith('Testing')));
          results.push({
            story,
            problems: [...rendered.problems, ...rendered.reading],
            failedCharts: rendered.charts.filter(Boolean),
          });
        }
        expect(results.filter((r) => r.problems.length || r.failedCharts.length)).toEqual([]);
        // The failed PR's test run is drawn red (a light red fill), not blue as a run still going.
        expect(failedRunBars.map((bar) => bar.fill)).toEqual(['rgb(255, 235, 233)']);
        // The stories that waited drew a timeline.
        expect(written.filter((w) => w.summary.includes('```mermaid')).length).toBeGreaterThanOrEqual(4);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
