// Log lines for the hosts that write plain text to a stream (every CI but GitHub Actions). Text may come
// from the service or from users' code, so every line is cleaned before it is written: terminal control
// sequences dropped, secrets hidden, and the host's own control syntax (its dialect) neutralised.
import type { Annotation, HostLog } from '../../core/host.js';
import { showInvisible } from '../../core/report/control-syntax.js';
import { redactor } from '../../core/report/redact.js';
import { paint, type Paint } from './colour.js';

export interface LogStream {
  write(text: string): unknown;
  /** The stream is a terminal (process.stdout.isTTY). */
  isTTY?: boolean;
}

/** How one CI marks groups in its log, shows colour, and how its control syntax is neutralised. */
export interface LogDialect {
  /** Makes text that came from outside unable to act as the CI's control syntax. */
  neutralise(text: string): string;
  /** The line(s) that open and close a collapsible group, if the CI has groups. */
  groupStart(title: string, id: string): string;
  groupEnd(title: string, id: string): string;
  /** A line written before an error's (Buildkite's, to open the group the error happened in). */
  beforeError?: string;
  /** The CI's log viewer shows ANSI colours although its stream is not a terminal. */
  viewerShowsColour: boolean;
}

/** The program's name, which starts every error and warning line. */
export const PROGRAM = 'merge-queue-action';

/** Every error line on every host but GitHub Actions: `merge-queue-action: <what is wrong>. <what to do>`. */
export function errorLine(message: string, style: Paint = paint(false)): string {
  return `${style.bold(style.red(`${PROGRAM}:`))} ${message}`;
}

/** A warning: `merge-queue-action: warning: <message>`. */
export function warningLine(message: string, style: Paint = paint(false)): string {
  return `${style.bold(`${PROGRAM}:`)} ${style.yellow('warning:')} ${message}`;
}

/** Secrets registered by Host.mask, hidden from everything the host writes afterwards. */
export class Secrets {
  private readonly secrets: string[] = [];
  private redact = redactor([]);

  add(secret: string): void {
    if (!secret || this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    this.redact = redactor(this.secrets);
  }

  hide(text: string): string {
    return this.redact(text);
  }
}

// ESC sequences (CSI, OSC and single-character ones), then any other control character but tab/newline.
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])?/g;
// eslint-disable-next-line no-control-regex
const OTHER_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g;

/** Text as it may reach a terminal or a CI's log viewer: no escape sequences, no carriage returns. */
export function withoutControlCharacters(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROL, '').replace(OTHER_CONTROL, '');
}

/** A HostLog writing the dialect's lines to a stream. */
export function streamLog(
  stream: LogStream,
  dialect: LogDialect,
  secrets: Secrets,
  colour: boolean = false,
): HostLog & { endProgress(): void } {
  const style = paint(colour);
  const clean = (text: string) =>
    dialect.neutralise(showInvisible(withoutControlCharacters(secrets.hide(text))));
  // A terminal shows the wait's status as one line redrawn in place; any other line ends it first.
  let statusShown = false;
  const endStatus = () => {
    if (statusShown) stream.write('\n');
    statusShown = false;
  };
  const write = (text: string) => {
    endStatus();
    stream.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  const title = (annotation?: Annotation) => {
    if (!annotation?.title && !annotation?.file) return undefined;
    const where = annotation.file ? `${annotation.file}${annotation.line ? `:${annotation.line}` : ''}` : '';
    return clean([annotation.title, where].filter(Boolean).join(' ')).replace(/\n/g, ' ');
  };
  // A title names what the line is about; the message says it already unless the line points at a file
  // (a failed test's source), so only that kind of title is kept.
  const located = (message: string, annotation?: Annotation) => {
    const heading = annotation?.file ? title(annotation) : undefined;
    return heading ? `${heading}: ${clean(message)}` : clean(message);
  };
  let groups = 0;
  return {
    info: (message) => write(clean(message)),
    progress: (message) => {
      if (stream.isTTY !== true) return write(clean(message));
      stream.write(`\r\u001b[2K${clean(message).replace(/\n/g, ' ')}`);
      statusShown = true;
    },
    endProgress: endStatus,
    warning: (message, annotation) => write(warningLine(located(message, annotation), style)),
    error: (message, annotation) => {
      if (dialect.beforeError) write(dialect.beforeError);
      write(errorLine(located(message, annotation), style));
    },
    notice: (message, annotation) => {
      const heading = title(annotation);
      write(heading ? `${heading}: ${clean(message)}` : clean(message));
    },
    async group<T>(groupTitle: string, work: () => Promise<T>): Promise<T> {
      const id = `merge_queue_${++groups}`;
      const shown = clean(groupTitle).replace(/\n/g, ' ');
      write(dialect.groupStart(shown, id));
      try {
        return await work();
      } finally {
        const end = dialect.groupEnd(shown, id);
        if (end) write(end);
      }
    },
  };
}

/** The plain dialect: CIs without log syntax of their own (CircleCI, Jenkins, a terminal). */
export const PLAIN_DIALECT: LogDialect = {
  neutralise: (text) => text,
  groupStart: (title) => `== ${title}`,
  groupEnd: () => '',
  viewerShowsColour: false,
};
