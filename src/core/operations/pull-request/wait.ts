// wait-for: looks at the PR every poll-interval-seconds until it reaches the state waited for, ends, or
// wait-timeout-minutes runs out. It says what it sees: a line on every change and at least every
// progress-interval-seconds (state, place in line, queue state, time waited, an estimate of the time
// left), why the PR stepped back when it did, and on FAILED or CANCELLED the checks that failed.
import { TERMINAL_PR_STATES, enumValue, type PrState } from '../../../wire/index.js';
import { realClock } from '../../clock.js';
import { formatDuration } from '../../report/duration.js';
import { nameOf, say, words, type Words } from '../../words.js';
import { requirePrNumber, stateOutput } from '../common.js';
import type { OperationContext } from '../types.js';
import { readQueuePace, timeLeftMs, type QueuePace } from './estimate.js';
import { readTestRun } from './failing-checks.js';
import type { PullRequestSettings, WaitFor } from './inputs.js';
import { QUEUE_STATE_NOTES, readLine } from './line.js';
import type { LineView } from './line-view.js';
import type { TestRunReport } from './test-run-report.js';
import { lookUp, shortSha, type PullRequestEntry } from './lookup.js';
import { leftTheLine, stepBackReasons, steppedBack, type Observation } from './progress.js';
import { describeBlockers, notReadyBlockers } from './readiness.js';
import type { ApiResponse } from '../../api/client.js';
import { v2Of } from './v2/access.js';
import { dispatchWords } from './v2/dispatch.js';
import { historyStepBacks } from './v2/step-backs.js';
import type { Cancellation } from './v2/cancellation.js';
import { readHistoryStory, type Transition } from './v2/history-report.js';

export interface PrReport {
  outcome: 'merged' | 'tests_passed' | 'failed' | 'cancelled' | 'timed_out' | 'in_queue' | 'not_submitted';
  entry?: PullRequestEntry;
  response?: ApiResponse;
  line?: LineView;
  transitions: Transition[];
  /** Each step back, with its reasons. */
  stepBacks: string[];
  /** Time the queue was seen paused while waiting. */
  pausedMs: number;
  /** The first and the last look, on the service's clock (see serverTimeMs). */
  startedMs: number;
  endedMs: number;
  /** How long this step waited, on the runner's clock (what wait-timeout-minutes counts). */
  waitedMs: number;
  /** The last test run, read when the PR failed or was cancelled. */
  testRun?: TestRunReport;
  /** Who or what cancelled it, from the service's reason (v2's history); absent when it did not say. */
  cancellation?: Cancellation;
  /** The queue is testing another commit than this run's. */
  headShaMismatch?: string;
  waitFor?: WaitFor;
}

const LINE_STATES = new Set(['pending', 'testing', 'tests_passed', 'pending_failure']);

export async function waitForState(
  op: OperationContext<PullRequestSettings>,
  waitFor: WaitFor,
): Promise<PrReport> {
  const { waitTimeoutMs, pollIntervalMs } = op.settings;
  const clock = op.clock ?? realClock;
  const number = requirePrNumber(op.context);
  const pace = await readQueuePace(op);
  op.log.info(
    `Waiting up to ${formatDuration(waitTimeoutMs)} for PR #${number} to be ${stateOutput(waitFor)}; looking every ${formatDuration(pollIntervalMs)}${pace?.testP50Ms !== undefined ? "; times left are estimates from the queue's last-hour median wait and test times" : ''}.`,
  );
  const watch = new PullRequestWatch(op, number, clock.now(), pace, waitFor);
  for (;;) {
    const seenMs = await watch.look(clock.now);
    const outcome = await watch.outcome();
    if (outcome) return watch.end(outcome);
    if (seenMs + pollIntervalMs > watch.startedMs + waitTimeoutMs) return watch.end('timed_out');
    await clock.sleep(pollIntervalMs);
  }
}

/** One wait's looks at the PR: what each one saw, and the report and the log lines they add up to. */
class PullRequestWatch {
  readonly report: PrReport;
  private readonly warned = new Set<string>();
  // The report's times are the service's (its Date header), so that they agree with its timestamps even
  // when the runner's clock is off; waiting and the timeout go by the runner's clock.
  private serverOffsetMs = 0;
  private previous: Observation | undefined;
  private current: Observation | undefined;
  private lastLineAt = -Infinity;
  private lastKey = '';
  private lastAhead = '';
  /** The estimate has been said to run past the time this wait has left. */
  private toldOverBudget = false;
  /** Over v2, the newest step of the queue-entry history already read (each step back is told once). */
  private historyReadToMs?: number;

  constructor(
    private readonly op: OperationContext<PullRequestSettings>,
    private readonly number: number,
    readonly startedMs: number,
    private readonly pace: QueuePace | undefined,
    private readonly waitFor: WaitFor,
  ) {
    this.report = {
      outcome: 'in_queue',
      transitions: [],
      stepBacks: [],
      pausedMs: 0,
      startedMs,
      endedMs: startedMs,
      waitedMs: 0,
      waitFor,
    };
  }

  /** Looks at the PR once and says what changed; answers when it looked, on the runner's clock. */
  async look(now: () => number): Promise<number> {
    const { op, report, previous } = this;
    const { entry, response } = await lookUp(op);
    const state = enumValue(entry?.state);
    const seenMs = now();
    if (response?.serverTimeMs !== undefined) this.serverOffsetMs = response.serverTimeMs - seenMs;
    const atMs = seenMs + this.serverOffsetMs;
    if (!previous) report.startedMs = atMs;
    const inLine = state && !TERMINAL_PR_STATES.includes(state as PrState);
    const line = inLine ? await readLine(op, this.number, (m) => this.warnOnce(m)) : undefined;
    const current: Observation = { atMs, state, entry, line };
    this.current = current;
    Object.assign(report, { entry, response, line, endedMs: atMs, waitedMs: seenMs - this.startedMs });
    if (previous?.line?.queueState === 'paused') report.pausedMs += atMs - previous.atMs;
    const shaMismatch = headShaMismatch(op.context.headSha, entry);
    if (shaMismatch) {
      report.headShaMismatch = shaMismatch;
      this.warnOnce(shaMismatch);
    }
    const note = previous ? await this.stepBackNote(previous, current) : undefined;
    this.noteTransition(current, note);
    await this.logProgress(current, seenMs);
    this.previous = current;
    return seenMs;
  }

  /** How the wait ends after the last look, if it ends: merged, passed, failed or cancelled. */
  async outcome(): Promise<PrReport['outcome'] | undefined> {
    const { state, entry } = this.current ?? {};
    if (state === 'merged') return 'merged';
    if (this.waitFor === 'tests_passed' && state === 'tests_passed') return 'tests_passed';
    if (state === 'cancelled') {
      // A cancel stops the PR's run too: its checks say CANCELLED because of it, not why it left.
      const access = v2Of(this.op);
      const story = access ? await readHistoryStory(this.op, access) : undefined;
      if (story?.cancellation) this.report.cancellation = story.cancellation;
      return state;
    }
    if (state !== 'failed') return undefined;
    const testRunId = entry?.verifiedByTestRun;
    if (typeof testRunId === 'string' && testRunId) {
      this.report.testRun = await readTestRun(this.op, testRunId);
    }
    return state;
  }

  end(outcome: PrReport['outcome']): PrReport {
    this.report.outcome = outcome;
    return this.report;
  }

  private warnOnce(message: string | Words): void {
    const key = say(message);
    if (!this.warned.has(key)) this.op.log.warning(message);
    this.warned.add(key);
  }

  /**
   * Whether the PR stepped back since the last look, and why: over v2 as the queue-entry history says
   * (even a step back between two looks), over v1 from the two looks (the fates of the PRs that left the
   * line before this one).
   */
  private async stepBackNote(previous: Observation, current: Observation): Promise<string | undefined> {
    const access = v2Of(this.op);
    if (access) {
      const sameRun = previous.entry?.verifiedByTestRun === current.entry?.verifiedByTestRun;
      if (previous.state === current.state && sameRun) return undefined;
      const said = await historyStepBacks(this.op, access, this.historyReadToMs ?? previous.atMs);
      this.historyReadToMs = said.newestMs ?? this.historyReadToMs;
      return said.reasons.length ? this.stepBack(previous, current, said.reasons.join('; ')) : undefined;
    }
    if (!steppedBack(previous, current)) return undefined;
    const fates = await fatesOf(this.op, leftTheLine(previous, current));
    return this.stepBack(previous, current, stepBackReasons(previous, current, fates).join('; '));
  }

  /** A step back, logged with its reasons. */
  private stepBack(previous: Observation, current: Observation, note: string): string {
    const change =
      previous.state === current.state
        ? `${stateOutput(current.state)} again`
        : `${stateOutput(previous.state)} → ${stateOutput(current.state)}`;
    this.report.stepBacks.push(note);
    this.op.log.info(
      `PR #${this.number} stepped back (${change}${positionChange(previous, current)}): ${note}.`,
    );
    return note;
  }

  /** A new state, or a new test run after a step back, starts a transition of the report's timeline. */
  private noteTransition(current: Observation, note: string | undefined): void {
    const { previous, report } = this;
    const { entry, state, atMs } = current;
    const testRunId = typeof entry?.verifiedByTestRun === 'string' ? entry.verifiedByTestRun : undefined;
    const newRun =
      state === 'testing' && testRunId !== undefined && testRunId !== previous?.entry?.verifiedByTestRun;
    if (state === previous?.state && !(note !== undefined && newRun)) return;
    report.transitions.push({
      state: state || 'not_in_queue',
      // The first state began when the service says, even before this wait's first look.
      atMs: changedAt(entry, atMs, previous?.atMs ?? -Infinity),
      note,
      testRunId,
    });
  }

  /**
   * A progress line when the state, the place in line or the estimate changes, and at least every
   * progress-interval-seconds; in a terminal the host redraws it in place. The PRs ahead in a group.
   */
  private async logProgress(current: Observation, seenMs: number): Promise<void> {
    const { op, number } = this;
    const { state, line, entry, atMs } = current;
    const dispatch = line?.dispatch ? dispatchWords(line.dispatch) : '';
    const waitedMs = seenMs - this.startedMs;
    const left =
      line?.queueState === 'paused'
        ? undefined
        : timeLeftMs(this.pace, state, atMs - changedAt(entry, atMs, atMs));
    // The estimate in the words the line shows it: a change of a second is not news.
    const leftWords = left === undefined ? '' : aboutDuration(left);
    const key = [
      state,
      line?.position,
      line?.length,
      line?.queueState,
      entry?.prSha,
      dispatch,
      leftWords,
    ].join('|');
    if (key === this.lastKey && seenMs - this.lastLineAt < op.settings.progressIntervalMs) return;
    const { waitTimeoutMs } = op.settings;
    const said = progressLine(
      number,
      current,
      { waitedMs, timeoutMs: waitTimeoutMs, leftWords },
      op.context.targetBranch,
    );
    (op.log.progress ?? op.log.info)(said);
    this.lastKey = key;
    this.lastLineAt = seenMs;
    this.warnIfOverBudget(left, op.settings.waitTimeoutMs - waitedMs);
    const ahead = (line?.ahead ?? []).map(
      (pr) => `#${pr.prNumber} ${stateOutput(pr.state)}${pr.urgent ? ' (urgent)' : ''}`,
    );
    if (ahead.length && ahead.join() !== this.lastAhead && op.log.group) {
      await op.log.group(`PRs ahead of #${number} (${ahead.length})`, async () => {
        for (const pr of ahead) op.log.info(pr);
      });
    }
    this.lastAhead = ahead.join();
  }

  /** Once: the estimate runs past the time this wait has left, and what to do about it. */
  private warnIfOverBudget(leftMs: number | undefined, budgetMs: number): void {
    if (this.toldOverBudget || leftMs === undefined || leftMs <= budgetMs) return;
    this.toldOverBudget = true;
    const { waitTimeoutMs } = this.op.settings;
    this.op.log.warning(
      words`PR #${this.number} needs ${aboutDuration(leftMs)} more at the queue's recent pace, and this wait has ${formatDuration(Math.max(0, budgetMs))} left: raise ${nameOf('wait-timeout-minutes')} (now ${formatDuration(waitTimeoutMs)}), or stop waiting and look later with get-submitted-pull-request.`,
    );
  }
}

/** An estimate as it is worth saying: whole minutes from a minute up ("about 8m"), else "under a minute". */
function aboutDuration(ms: number): string {
  return ms < 60_000 ? 'under a minute' : `about ${formatDuration(Math.round(ms / 60_000) * 60_000)}`;
}

/** One progress line: "PR #920: TESTING, 2 of 2 in line (1 ahead); about 8m left; waited 11s of 12m." */
function progressLine(
  number: number,
  { state, entry, line }: Observation,
  { waitedMs, timeoutMs, leftWords }: { waitedMs: number; timeoutMs: number; leftWords: string },
  targetBranch: string | undefined,
): string {
  const parts = [`PR #${number}: ${state ? stateOutput(state) : 'not in the queue'}`];
  if (state === 'not_ready') {
    const blockers = notReadyBlockers(entry, targetBranch);
    if (blockers.length) parts[0] += ` (${describeBlockers(blockers)})`;
  }
  if (line?.dispatch && LINE_STATES.has(state)) {
    parts[0] += `, ${dispatchWords(line.dispatch)}`;
  } else if (line?.position !== undefined && LINE_STATES.has(state)) {
    const ahead = line.ahead.length;
    parts[0] += `, ${line.position} of ${line.length} in line (${ahead ? `${ahead} ahead` : 'first'})`;
  }
  if (line?.queueState && line.queueState !== 'running') {
    parts.push(QUEUE_STATE_NOTES[line.queueState] ?? `queue ${line.queueState}`);
  }
  if (leftWords) parts.push(`${leftWords} left`);
  parts.push(`waited ${formatDuration(waitedMs)} of ${formatDuration(timeoutMs)}`);
  return `${parts.join('; ')}.`;
}

function positionChange(previous: Observation, current: Observation): string {
  const before = previous.line?.position;
  const now = current.line?.position;
  return before !== undefined && now !== undefined && before !== now ? `, position ${before} → ${now}` : '';
}

/** When the PR entered its state: the service's stateChangedAt when it is believable, else when seen. */
function changedAt(entry: PullRequestEntry | undefined, seenMs: number, notBeforeMs: number): number {
  const said = typeof entry?.stateChangedAt === 'string' ? Date.parse(entry.stateChangedAt) : NaN;
  if (Number.isNaN(said) || said > seenMs) return seenMs;
  return Math.max(said, Math.min(notBeforeMs, seenMs));
}

function headShaMismatch(
  eventSha: string | undefined,
  entry: PullRequestEntry | undefined,
): string | undefined {
  const queueSha = entry?.prSha;
  if (!eventSha || typeof queueSha !== 'string' || !/^[0-9a-f]{7,64}$/i.test(queueSha)) return undefined;
  if (queueSha.toLowerCase() === eventSha.toLowerCase()) return undefined;
  return `The queue has head sha ${shortSha(queueSha)} for this PR, but this run is for ${shortSha(eventSha)}: the queue is testing another commit (the PR was pushed to, or this run is for an older push).`;
}

/** The states of PRs that left the line, to tell a failure ahead from a merge ahead (at most three). */
async function fatesOf(op: OperationContext<unknown>, prNumbers: number[]): Promise<Map<number, string>> {
  const fates = new Map<number, string>();
  for (const prNumber of prNumbers.slice(0, 3)) {
    try {
      const { entry } = await lookUp(op, prNumber);
      fates.set(prNumber, enumValue(entry?.state));
    } catch {
      // Only a detail of the explanation: without it the step back is still reported.
    }
  }
  return fates;
}
