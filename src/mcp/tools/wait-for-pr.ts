// wait_for_pr: blocks in the server, not in the agent's context, until the PR is merged or leaves the
// queue (failed, cancelled) or timeoutSeconds passes. It looks with pr_status's look, waiting longer
// between looks while nothing changes and soon again after a change, and reports each look as a progress
// notification when the client asked for them (a progressToken). The answer is pr_status's.
import { formatDuration } from '../../core/report/duration.js';
import { knownState } from '../pr-words.js';
import type { PrStatus } from '../pr-view.js';
import type { PrArguments, ToolContext } from '../tool.js';
import { lookAtPr } from './pr-status.js';

export const MAX_WAIT_SECONDS = 600;
const MAX_POLL_MS = 60_000;
const BACKOFF = 1.5;

export const WAIT_FOR_PR_DESCRIPTION = `Blocks until the pull request is merged, fails or is cancelled, or timeoutSeconds (at most ${MAX_WAIT_SECONDS}) passes, looking with growing pauses and sending progress notifications; answers what pr_status answers, with waitedSeconds and timedOut. One call replaces a polling loop. Read-only.`;

/** Where each look is reported: a progress notification, when the client asked for them. */
export type ProgressReport = (progress: number, message: string) => Promise<void>;

export interface WaitArguments extends PrArguments {
  timeoutSeconds?: number;
}

export async function waitForPr(
  tools: ToolContext,
  args: WaitArguments,
  report: ProgressReport,
  signal: AbortSignal,
): Promise<PrStatus> {
  const timeoutMs = Math.min(args.timeoutSeconds ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS) * 1000;
  const started = Date.now();
  let pause = tools.options.pollIntervalMs;
  let lastKey = '';
  for (let look = 1; ; look++) {
    const { status } = await lookAtPr(tools, args);
    const waitedMs = Date.now() - started;
    const key = [status.state, status.position, status.queueState, status.headSha].join('|');
    if (key !== lastKey) pause = tools.options.pollIntervalMs;
    lastKey = key;
    await report(look, progressLine(status, waitedMs, timeoutMs));
    const waited = { waitedSeconds: Math.round(waitedMs / 1000) };
    if (status.situation !== 'in_queue') return { ...status, ...waited, timedOut: false };
    if (waitedMs + pause > timeoutMs || signal.aborted) return { ...status, ...waited, timedOut: true };
    await sleep(pause, signal);
    pause = Math.min(pause * BACKOFF, MAX_POLL_MS);
  }
}

/** One look in a line of our own words: the state and numbers, nothing from the PR. */
function progressLine(status: PrStatus, waitedMs: number, timeoutMs: number): string {
  const state = knownState(status.state) || status.situation;
  const place = status.position !== null ? `, position ${status.position} of ${status.lineLength}` : '';
  return `PR #${status.prNumber}: ${state}${place}; waited ${formatDuration(waitedMs)} of ${formatDuration(timeoutMs)}.`;
}

/** A pause that ends early when the client cancels the call. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
