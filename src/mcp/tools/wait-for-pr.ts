// wait_for_pr: blocks in the server, not in the agent's context, until the PR is merged or leaves the
// queue (failed, cancelled) or timeoutSeconds passes. It looks with pr_status's look, waiting longer
// between looks while nothing changes and soon again after a change, and reports each look as a progress
// notification when the client asked for them (a progressToken). The answer is pr_status's.
// The wait keeps to its time: a pause ends at the deadline (so a wait shorter than a pause still waits
// its whole time), and a look still under way at the deadline is called off; the answer is then the last
// look's, with timedOut.
import { formatDuration } from '../../core/index.js';
import { knownState } from '../pr-words.js';
import type { PrStatus } from '../pr-view.js';
import { ToolFailure, type PrArguments, type ToolContext } from '../tool.js';
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

/** How long a wait lasts: the seconds asked for, at most MAX_WAIT_SECONDS. */
export function waitSeconds(asked: number | undefined): number {
  return Math.min(asked ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS);
}

export async function waitForPr(
  tools: ToolContext,
  args: WaitArguments,
  report: ProgressReport,
): Promise<PrStatus> {
  const timeoutMs = waitSeconds(args.timeoutSeconds) * 1000;
  const started = Date.now();
  const timeUp = AbortSignal.any([tools.signal, AbortSignal.timeout(timeoutMs)]);
  const looking = { ...tools, runner: tools.runner.calledOffBy(timeUp), signal: timeUp };
  let pause = tools.options.pollIntervalMs;
  let last: { status: PrStatus; key: string } | undefined;
  for (let look = 1; ; look++) {
    let status: PrStatus;
    try {
      status = (await lookAtPr(looking, args)).status;
    } catch (error) {
      if (!timeUp.aborted) throw error;
      if (!last)
        throw new ToolFailure(
          `PR #${args.prNumber}: no answer from the service within ${formatDuration(timeoutMs)}, the wait's timeoutSeconds.`,
        );
      return timedOut(last.status, started);
    }
    const waitedMs = Date.now() - started;
    const key = [status.state, status.position, status.queueState, status.headSha].join('|');
    if (key !== last?.key) pause = tools.options.pollIntervalMs;
    last = { status, key };
    await report(look, progressLine(status, waitedMs, timeoutMs));
    if (status.situation !== 'in_queue') return { ...status, ...waited(started), timedOut: false };
    await sleep(Math.min(pause, timeoutMs - waitedMs), timeUp);
    if (timeUp.aborted || Date.now() - started >= timeoutMs) return timedOut(status, started);
    pause = Math.min(pause * BACKOFF, MAX_POLL_MS);
  }
}

function waited(started: number): { waitedSeconds: number } {
  return { waitedSeconds: Math.round((Date.now() - started) / 1000) };
}

function timedOut(status: PrStatus, started: number): PrStatus {
  return { ...status, ...waited(started), timedOut: true };
}

/** One look in a line of our own words: the state and numbers, nothing from the PR. */
function progressLine(status: PrStatus, waitedMs: number, timeoutMs: number): string {
  const state = knownState(status.state) || status.situation;
  const place = status.position !== null ? `, position ${status.position} of ${status.lineLength}` : '';
  return `PR #${status.prNumber}: ${state}${place}; waited ${formatDuration(waitedMs)} of ${formatDuration(timeoutMs)}.`;
}

/** A pause that ends early when the call is cancelled or its time is up. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
