// Text we do not control (answers from the service, users' test names, inputs) on its way to a CI log. A
// log line is read by the CI itself: GitHub runs `::command::` lines, GitLab folds `section_start:`
// markers, Buildkite groups on `---`/`+++`/`~~~` and expands `^^^ +++`. One function per host's syntax,
// all here, so that every host (GitHub Actions, GitLab CI, Buildkite, the CLI's others) neutralises its
// own syntax the same way, and core makes each value one visible line before any of them sees it.

const ZERO_WIDTH_SPACE = '\u200b';

/** C0 and C1 controls but tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Characters that change how text reads without being seen: bidi overrides, embeddings, isolates and marks
 * (which can make `exe.gnp` read as `png.exe`), zero-width spaces and joiners, word joiners, the byte-order
 * mark. Summaries and log lines alike show each as its code point.
 */
export const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');

/** `⟨U+202E⟩` for an invisible character. */
export function codePointOf(char: string): string {
  return `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Invisible characters shown as their code points, for a host's own log lines (see `oneLine`). */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, codePointOf);
}

/**
 * A value as one line: line breaks (every kind a reader or a runner may split on) shown as `\n`/`\r`,
 * the terminal's escape and the other C0/C1 controls as `\xNN`, invisible characters as their code
 * points. Tabs stay.
 */
export function oneLine(text: string): string {
  return escapeControls(text.replace(/\r\n|\r|\n|\u2028|\u2029|\u0085/g, (brk) => LINE_BREAKS[brk] ?? '\\n'));
}

const LINE_BREAKS: Record<string, string> = { '\r\n': '\\r\\n', '\r': '\\r', '\n': '\\n' };

function hexEscape(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * A summary as it is written: controls but tab and line breaks shown as `\xNN`, whichever value brought
 * them (a PR's package name, an answer's text) and however the operation built its markdown. Invisible
 * characters are left to escapeMarkdown, which adds zero-width joiners of its own after `@` and `#`.
 */
export function showControls(markdown: string): string {
  return markdown.replace(CONTROLS, hexEscape);
}

/**
 * Controls but line breaks: ANSI escapes from a value cannot recolour, move or hide log text, nor bidi
 * controls reorder it.
 */
function escapeControls(text: string): string {
  return showInvisible(text.replace(CONTROLS, hexEscape));
}

/**
 * GitHub Actions: a line that starts with `::` (after blanks) is a workflow command and one that starts
 * with `##[` the older form; a zero-width space after the first character makes either plain text.
 */
export function neutraliseGitHubCommands(text: string): string {
  return escapeControls(text).replace(/^([ \t]*)(:(?=:)|#(?=#\[))/gm, `$1$2${ZERO_WIDTH_SPACE}`);
}

/** GitLab CI: `section_start:`/`section_end:` markers open and close folded sections. */
export function neutraliseGitLabSections(text: string): string {
  return escapeControls(text).replace(/section_(start|end):/gi, `section${ZERO_WIDTH_SPACE}_$1:`);
}

/** Buildkite: a line starting with `---`, `+++`, `~~~` (a group) or `^^^` (expand the previous group). */
export function neutraliseBuildkiteMarkers(text: string): string {
  return escapeControls(text).replace(/^([ \t]*)(---|\+\+\+|~~~|\^\^\^)/gm, `$1${ZERO_WIDTH_SPACE}$2`);
}

/** The hosts without log syntax of their own (CircleCI, Jenkins, a terminal): controls only. */
export function neutralisePlainLog(text: string): string {
  return escapeControls(text);
}
