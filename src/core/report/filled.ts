// What the service filled in. It answers "unknown" for a title, author or sha it does not know; a person
// is better served by a cell or a line left out than by the word.

/** The value as text, or '' when the service left it empty or answered its placeholder "unknown". */
export function filled(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  return /^unknown$/i.test(text) ? '' : text;
}
