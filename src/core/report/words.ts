// Counts as a person writes them: "1 test", "3 tests", "1,200 tests".

export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}
