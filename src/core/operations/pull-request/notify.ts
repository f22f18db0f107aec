// At the end of a wait: a Slack Block Kit payload (output `notification`), POSTed to notify-webhook-url
// (Slack and Teams incoming webhooks both read its `text`), and one PR comment kept up to date in place.
import { realClock } from '../../clock.js';
import { postWebhook } from '../../notify/post-webhook.js';
import { CELL_CHARS, HEADING_CHARS, clip, clipEscaped } from '../../report/clip.js';
import { filled } from '../../report/filled.js';
import { Markdown, codeSpan, escapeMarkdown, link } from '../../report/markdown.js';
import { pullRequestUrl, repoSlug, requirePrNumber } from '../common.js';
import type { OperationContext } from '../types.js';
import type { NotifyOn, PullRequestSettings } from './inputs.js';
import { formatDuration } from '../../report/duration.js';
import { wordsOf } from '../../failure.js';
import { nameOf, words } from '../../words.js';
import { atPlace, cancelledNextStep, outcomeIcon, outcomeWords, queueTime, reasonOf } from './summary.js';
import type { PrReport } from './wait.js';
import { plural } from '../../report/words.js';

/** The hidden marker that finds this step's comment again: one comment per PR and queue. */
export function commentMarker(targetBranch: string): string {
  return `<!-- merge-queue-action:status:${targetBranch.replace(/[^A-Za-z0-9._/-]/g, '_')} -->`;
}

export function shouldNotify(notifyOn: NotifyOn, report: PrReport): boolean {
  if (notifyOn === 'never') return false;
  if (notifyOn === 'always') return true;
  return report.outcome !== 'merged' && report.outcome !== 'tests_passed';
}

/** Sends what notify-on asks for; answers the payload for the `notification` output, or undefined. */
export async function notifyEnd(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
): Promise<string | undefined> {
  const { notifyOn, notifyWebhookUrl, notifyPrComment } = op.settings;
  if (!shouldNotify(notifyOn, report)) return undefined;
  const payload = slackPayload(op, report);
  if (notifyWebhookUrl) {
    const sent = await postWebhook(notifyWebhookUrl, payload, op.clock ?? realClock);
    if (sent.delivered) {
      op.log.info(words`Notification sent to ${nameOf('notify-webhook-url')} (attempt ${sent.attempts}).`);
    } else {
      op.log.warning(
        words`The notification was not delivered to ${nameOf('notify-webhook-url')} after ${plural(sent.attempts, 'attempt')}: ${sent.problem ?? ''}. Check that the secret holds an incoming-webhook URL.`,
      );
    }
  }
  if (notifyPrComment) await upsertComment(op, report);
  return JSON.stringify(payload);
}

async function upsertComment(op: OperationContext<PullRequestSettings>, report: PrReport): Promise<void> {
  const token = op.common.githubToken;
  if (!op.comments) {
    op.log.warning(
      words`${nameOf('notify-pr-comment')}: this CI host has no pull request comments; no comment was written.`,
    );
    return;
  }
  if (!token) {
    op.log.warning(
      words`${nameOf('notify-pr-comment')}: ${nameOf('github-token')} is empty, so no PR comment was written. Pass a token that can write pull requests.`,
    );
    return;
  }
  try {
    const marker = commentMarker(op.context.targetBranch ?? '');
    const written = await op.comments.upsert({
      repo: { owner: op.context.repo.owner, name: op.context.repo.name },
      prNumber: requirePrNumber(op.context),
      marker,
      body: commentBody(op, report, marker),
      token,
    });
    op.log.info(
      `PR comment ${written.created ? 'created' : 'updated'}${written.url ? `: ${written.url}` : ''}.`,
    );
    if (written.authorUnknown) {
      op.log.warning(
        words`${nameOf('notify-pr-comment')}: a new comment was added, as the GitHub API named no login for ${nameOf('github-token')} (GET /user and GraphQL viewer both refused), so an earlier comment of ours could not be told from anyone else's.`,
      );
    }
  } catch (error) {
    op.log.warning(words`The PR comment was not written: ${wordsOf(error)}`);
  }
}

export function commentBody(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
  marker: string,
): string {
  const number = requirePrNumber(op.context);
  const summary = new Markdown().headingMarkdown(
    `${escapeMarkdown(clip(notificationHeadline(report, number), HEADING_CHARS))} → ${codeSpan(op.context.targetBranch ?? '')}`,
    3,
  );
  const checks = report.testRun?.failing ?? [];
  // The checks' table names each check; the reason would name them again.
  const reason = checks.length ? '' : reasonOf(report, op.context.targetBranch, false);
  if (reason) summary.paragraph(escapeMarkdown(reason));
  const story = storyWords(report);
  if (story) summary.paragraph(escapeMarkdown(story));
  if (checks.length) {
    summary.table(
      ['Check', 'Conclusion', 'Link'],
      checks.map((c) => [
        escapeMarkdown(clip(c.name, CELL_CHARS)),
        escapeMarkdown(clip(c.conclusion, CELL_CHARS)),
        c.url ? link('logs', c.url) : '-',
      ]),
    );
  }
  summary.paragraph(`**Next step:** ${escapeMarkdown(nextStepText(report))}`);
  const run = op.context.runUrl ? ` from ${link('this run', op.context.runUrl)}` : '';
  summary.paragraph(`<sub>PR #${number}, updated by merge-queue-action${run}.</sub>`);
  return `${marker}\n${summary.toString()}`;
}

/** What happened, first, in the words a phone's notification shows: "❌ #123 failed in the merge queue: ci/build". */
export function notificationHeadline(report: PrReport, number: number, withCheck = true): string {
  const icon = outcomeIcon(report);
  const place = atPlace(report);
  switch (report.outcome) {
    case 'failed': {
      const check = withCheck ? report.testRun?.failing[0] : undefined;
      return `${icon} #${number} failed in the merge queue${check ? `: ${check.name}` : ''}`;
    }
    case 'cancelled':
      return `${icon} #${number} was cancelled in the merge queue`;
    case 'merged':
      return `${icon} #${number} merged`;
    case 'tests_passed':
      return `${icon} #${number} passed the merge queue's tests`;
    case 'timed_out':
      return `${icon} #${number} is still waiting in the merge queue${place}`;
    default:
      return `${icon} #${number}: ${outcomeWords(report)}`;
  }
}

function nextStepText(report: PrReport): string {
  switch (report.outcome) {
    case 'failed':
      return 'fix what the failing check reports, then submit the PR again.';
    case 'cancelled':
      return cancelledNextStep(report);
    case 'timed_out':
      return report.line?.queueState === 'paused'
        ? 'the queue is paused; it resumes when its admins resume it.'
        : 'the PR is still in the queue; nothing to do unless it stays there.';
    case 'merged':
      return 'nothing: it is merged.';
    case 'tests_passed':
      return 'nothing: the queue merges it once the PRs ahead of it merge.';
    default:
      return 'nothing: the queue takes it from here.';
  }
}

/** Who opened the PR and how long it was in the queue: "by @octocat · 19m in the queue"; '' when unknown. */
function storyWords(report: PrReport): string {
  const author = filled(report.entry?.prAuthor);
  const queuedMs = report.transitions.length ? queueTime(report) : 0;
  const time = queuedMs > 0 ? `${formatDuration(queuedMs)} in the queue` : '';
  return [author && `by @${clip(author, 60)}`, time].filter(Boolean).join(' · ');
}

/** The colour bar beside the message, by outcome: green merged, red failed, grey cancelled, amber waiting. */
const OUTCOME_COLOURS: Record<PrReport['outcome'], string> = {
  merged: '#1a7f37',
  tests_passed: '#1a7f37',
  failed: '#cf222e',
  cancelled: '#8c959f',
  timed_out: '#d4a72c',
  in_queue: '#d4a72c',
  not_submitted: '#8c959f',
};

/**
 * A Slack Block Kit message; `text` is the fallback Slack shows in notifications (a phone's one line) and
 * Teams shows, so it says what happened first. Every value from outside is escaped as mrkdwn in `text`
 * and in the blocks alike (no `<!channel>`, no `<@U…>`, no link of someone else's making), and a link is
 * built only from an https URL that cannot close or relabel it.
 */
export function slackPayload(
  op: OperationContext<PullRequestSettings>,
  report: PrReport,
): Record<string, unknown> {
  const number = requirePrNumber(op.context);
  const title = clip(filled(report.entry?.prTitle), HEADING_CHARS);
  const url = pullRequestUrl(op.context.repo, number);
  const branch = op.context.targetBranch ?? '';
  const headline = notificationHeadline(report, number);
  const checks = report.testRun?.failing ?? [];
  // The checks are named once, in their list; the header and the reason leave them out.
  const reason = checks.length ? '' : reasonOf(report, branch, false);
  const story = storyWords(report);
  const where = `${repoSlug(op.context.repo)} → ${branch}${title ? ` · ${title}` : ''}`;
  const blocks: Record<string, unknown>[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: clip(notificationHeadline(report, number, false), 150) },
    },
    mrkdwnSection(
      [
        `*${slackLink(url, `${repoSlug(op.context.repo)}#${number}${title ? ` ${title}` : ''}`)}* → \`${slackText(branch)}\``,
        story && slackText(story),
        reason && slackText(reason),
      ]
        .filter(Boolean)
        .join('\n'),
    ),
  ];
  if (checks.length) {
    const lines = checks.map((c) => `• ${slackLink(c.url, c.name)} ${slackText(c.conclusion)}`);
    blocks.push(mrkdwnSection(`*Failing checks*\n${lines.join('\n')}`));
  }
  const buttons = [
    linkButton('open-pr', `Open PR #${number}`, url),
    linkButton('open-run', 'Open this run', op.context.runUrl),
  ].filter((button) => button !== undefined);
  blocks.push({ type: 'actions', elements: buttons });
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: clipEscaped(`Next step: ${slackText(nextStepText(report))}`, SLACK_TEXT_CHARS),
      },
    ],
  });
  // The line a phone shows: what happened first, then where; no address to read on a lock screen. The
  // blocks sit in an attachment, which is what carries Slack's colour bar.
  return {
    text: clipEscaped(slackText(`${headline} · ${where}`), SLACK_TEXT_CHARS),
    attachments: [{ color: OUTCOME_COLOURS[report.outcome], blocks }],
  };
}

/** A Block Kit button that opens `url`, only for an https address Slack will take; else undefined. */
function linkButton(id: string, label: string, url: unknown): Record<string, unknown> | undefined {
  if (typeof url !== 'string' || !/^https:\/\/[^\s|<>]+$/i.test(url) || url.length > 3000) return undefined;
  return { type: 'button', action_id: id, text: { type: 'plain_text', text: clip(label, 75) }, url };
}

/** Slack's limit on a section's text. */
const SLACK_TEXT_CHARS = 3000;

function mrkdwnSection(mrkdwn: string): Record<string, unknown> {
  return { type: 'section', text: { type: 'mrkdwn', text: clipEscaped(mrkdwn, SLACK_TEXT_CHARS) } };
}

/** Slack's mrkdwn escapes only these three. */
export function slackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * `<url|label>` when `url` is https and holds nothing that would end the link or start its label early
 * (`|`, `>`, `<`, blanks); otherwise the label alone, as text.
 */
export function slackLink(url: unknown, label: string): string {
  const shown = slackText(clip(label, HEADING_CHARS));
  if (typeof url !== 'string' || !/^https:\/\/[^\s|<>]+$/i.test(url)) return shown;
  return `<${url.replace(/&/g, '&amp;')}|${shown}>`;
}
