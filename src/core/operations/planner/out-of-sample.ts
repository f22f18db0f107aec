// What the backtest is judged on. With 30 days of history or more it is out of sample: CI durations and
// flakes are fitted on the runs of the first two thirds, and the replay of the recorded settings is
// compared with what happened to the PRs of the last third only (those that became ready after the cut,
// and the runs made after it). With less, the whole history both fits and checks.
import type { ReplayMetrics } from '../../../queue-model/replay-metrics.js';
import { fitQueue, recordedMetrics, storiesOf, type FittedQueue } from './fit.js';
import type { QueueHistory } from './history-file.js';

const DAY_MS = 86_400_000;
export const OUT_OF_SAMPLE_DAYS = 30;

/** Where the history was cut: fitted before, checked from; null when the backtest is in sample. */
export interface SampleWindow {
  fittedUntil: string;
  checkedFrom: string;
  /** PRs of the checked third. */
  checkedPrs: number;
}

export interface BacktestSample {
  /** The model the backtest replays: fitted on the first two thirds, over the last third's arrivals. */
  fitted: FittedQueue;
  /** What happened in the checked part. */
  recorded: ReplayMetrics;
  outOfSample: SampleWindow | null;
}

export function backtestSample(history: QueueHistory, fitted: FittedQueue): BacktestSample {
  if (fitted.lastAt - fitted.firstAt < OUT_OF_SAMPLE_DAYS * DAY_MS) {
    return { fitted, recorded: recordedMetrics(history), outOfSample: null };
  }
  const cut = Math.floor(fitted.firstAt + ((fitted.lastAt - fitted.firstAt) * 2) / 3);
  const late = new Set(
    storiesOf(history.entries, history.runs)
      .filter((story) => story.readyAt >= cut)
      .map((story) => story.number),
  );
  const checked: QueueHistory = {
    settings: history.settings,
    entries: history.entries.filter((entry) => late.has(entry.number)),
    runs: history.runs.filter((run) => Date.parse(run.createdAt) >= cut),
  };
  const early = fitQueue(
    history,
    history.runs.filter((run) => Date.parse(run.createdAt) < cut),
  );
  const at = new Date(cut).toISOString();
  return {
    fitted: {
      ...early,
      scenario: {
        arrivals: fitted.scenario.arrivals.filter((arrival) => late.has(arrival.prNumber)),
        culprits: fitted.scenario.culprits,
      },
    },
    recorded: recordedMetrics(checked),
    outOfSample: { fittedUntil: at, checkedFrom: at, checkedPrs: late.size },
  };
}
