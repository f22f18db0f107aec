// Counts as a person writes them: "1 test", "3 tests", "1,200 tests".

export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${grouped(count)} ${count === 1 ? noun : nouns}`;
}

/**
 * The digits of a whole number in groups of three, as en-US writes them. Not toLocaleString: its first
 * call loads ICU's number-formatting data, about 7 MiB of memory for a run that writes one count.
 */
function grouped(count: number): string {
  return String(count).replace(/^-?\d+/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ','));
}
