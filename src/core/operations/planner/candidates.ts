// The candidates a plan replays: the current settings first, then each setting varied alone around them,
// with the values given (--vary) or, without any, a default grid of the values worth trying.
import type { Grid, Variation } from './inputs.js';
import { ordered, withSetting, type PlanSettings, type SettingName } from './settings.js';

export function candidateSettings(
  current: PlanSettings,
  vary: readonly Variation[],
  grid: Grid = 'one-at-a-time',
): PlanSettings[] {
  const variations = vary.length > 0 ? vary : defaultGrid(current);
  if (grid === 'full')
    return [ordered(current), ...product(current, variations).filter((s) => !same(s, current))];
  const seen = new Set<string>();
  const candidates: PlanSettings[] = [];
  const add = (settings: PlanSettings) => {
    const key = JSON.stringify(ordered(settings));
    if (seen.has(key)) return;
    seen.add(key);
    candidates.push(ordered(settings));
  };
  add(current);
  for (const { name, values } of variations)
    for (const value of values) add(withSetting(current, name, value));
  // Batch sizes mean nothing to a queue that does not batch: the default grid tries them with batching on.
  if (vary.length === 0) batchingCandidates(current).forEach(add);
  return candidates;
}

/** About two dozen candidates: the values a team would try next for each setting. */
export function defaultGrid(current: PlanSettings): Variation[] {
  const c = current.concurrency;
  const grid: [SettingName, PlanSettings[SettingName][]][] = [
    ['concurrency', [c - 1, c + 1, 2 * c, 4 * c].filter((v) => v >= 1 && v <= 1000)],
    ['allowBatching', [!current.allowBatching]],
    ['pendingFailureDepth', [0, 1, 2, 3]],
    ['canOptimisticallyMerge', [!current.canOptimisticallyMerge]],
    ['bisectionConcurrency', [1, 2 * current.bisectionConcurrency, 4 * current.bisectionConcurrency]],
    ['optimizationMode', [current.optimizationMode === 'off' ? 'bisectionSkipRedundantTests' : 'off']],
  ];
  if (current.allowBatching) {
    grid.push(['batchingMinSize', [2, 4, 8, 16]], ['batchingMaxWaitTimeMinutes', [0, 5, 15, 30]]);
  }
  return grid.map(([name, values]) => ({ name, values }));
}

/** A queue that does not batch yet: batching on, at other sizes than the default. */
function batchingCandidates(current: PlanSettings): PlanSettings[] {
  if (current.allowBatching) return [];
  return [2, 8, 16].map((size) => ordered({ ...current, allowBatching: true, batchingMinSize: size }));
}

/** Every combination of the values (the product), each applied on top of the current settings. */
function product(current: PlanSettings, variations: readonly Variation[]): PlanSettings[] {
  let combos: PlanSettings[] = [current];
  for (const { name, values } of variations) {
    combos = combos.flatMap((settings) => values.map((value) => withSetting(settings, name, value)));
  }
  const seen = new Set<string>();
  return combos.map(ordered).filter((s) => {
    const key = JSON.stringify(s);
    return !seen.has(key) && (seen.add(key), true);
  });
}

function same(a: PlanSettings, b: PlanSettings): boolean {
  return JSON.stringify(ordered(a)) === JSON.stringify(ordered(b));
}
