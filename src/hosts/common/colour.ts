// Whether text may be coloured, decided in one place for every host's log lines and the CLI's results:
// the --color flag first, then FORCE_COLOR, then NO_COLOR (https://no-color.org), then whether the
// stream is a terminal or a CI log viewer that shows colours. The order is Node's own.

export const COLOUR_CHOICES = ['auto', 'always', 'never'] as const;
export type ColourChoice = (typeof COLOUR_CHOICES)[number];

export interface ColourQuestion {
  /** --color as given; auto when not given. */
  choice?: ColourChoice;
  env: Readonly<Record<string, string | undefined>>;
  /** The stream the text goes to is a terminal (its isTTY). */
  isTerminal: boolean;
  /** The CI's log viewer shows ANSI colours although the stream is not a terminal (GitLab, Buildkite). */
  viewerShowsColour?: boolean;
}

/** True when colour is on for this stream. */
export function colourEnabled({
  choice = 'auto',
  env,
  isTerminal,
  viewerShowsColour,
}: ColourQuestion): boolean {
  if (choice !== 'auto') return choice === 'always';
  const force = env.FORCE_COLOR;
  // FORCE_COLOR='' or any level turns colour on; 0 and false turn it off (as Node and supports-color read it).
  if (force !== undefined) return !/^(0|false)$/i.test(force.trim());
  if (env.NO_COLOR) return false;
  if (env.TERM === 'dumb') return false;
  return isTerminal || viewerShowsColour === true;
}

/** The styles log lines and results use; each leaves the text as it is when colour is off. */
export interface Paint {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLOURED: Paint = {
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
  bold: sgr(1, 22),
  dim: sgr(2, 22),
};

const same = (text: string) => text;
const PLAIN: Paint = { red: same, yellow: same, green: same, bold: same, dim: same };

/** The styles for a stream whose colour is `enabled` (see colourEnabled). */
export function paint(enabled: boolean): Paint {
  return enabled ? COLOURED : PLAIN;
}
