// Runs of n PRs where a run's outcome is all of its PRs' at once: a run is done by a time when each of
// its PRs is (it lasts as long as its slowest), and passes when each of its PRs passes (a flake of any
// one fails it). Given how many PR-slots were in runs where all held and how many runs of each size did
// not, the likeliest chance p that one PR holds, independently of the others.

const SOLVER_STEPS = 50;

/**
 * The p in [0, 1] that maximises held·log p + Σ count·log(1 - p^size), `held` counting PRs (each run of
 * n where all held gives n) and `notAll` runs by size.
 */
export function likeliestShare(held: number, notAll: ReadonlyMap<number, number>): number {
  const still = [...notAll].filter(([, count]) => count > 0);
  if (still.length === 0) return 1;
  if (held === 0) return 0;
  let lo = 0;
  let hi = 1;
  for (let step = 0; step < SOLVER_STEPS; step++) {
    const p = (lo + hi) / 2;
    let slope = held / p;
    for (const [size, count] of still) slope -= (count * size * p ** (size - 1)) / (1 - p ** size);
    if (slope > 0) lo = p;
    else hi = p;
  }
  return (lo + hi) / 2;
}
