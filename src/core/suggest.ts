/** The candidates closest to `word` by edit distance, best first; only plausible ones (distance <= 1/3). */
export function closestMatches(word: string, candidates: readonly string[], limit: number): string[] {
  const scored = candidates
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= Math.max(2, Math.ceil(candidate.length / 3)) || candidate.includes(word),
    )
    .sort((a, b) => a.distance - b.distance);
  return scored.slice(0, limit).map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
