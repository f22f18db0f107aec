// Reads the impacted targets a user hands us (a file or the inline input) into an ordered list without
// duplicates. Files can be 20 MiB, so the file is read once into a Buffer (by readInputFile: a regular
// file, size-limited, within the deadline) and the targets are cut out of
// it directly: no whole-file string and no intermediate arrays. A JSON document that the fast path does
// not recognise is handed to JSON.parse, whose answer is then turned into one line the user can act on.
import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_BODY_BYTES } from '../../../wire/index.js';
import { InputError, unreachable } from '../../errors.js';
import { readInputFile } from '../../files.js';
import { readStandardInput, STANDARD_INPUT } from '../../stdin.js';
import type { OperationContext } from '../types.js';
import type { ImpactedTargetsSettings } from './inputs.js';
import { countByte } from './count-byte.js';
import { TargetList } from './target-list.js';

/** Every target is impacted (the bare string `"ALL"` on the wire), or exactly these, in order. */
export type ImpactedTargets = 'ALL' | TargetList;

const FILE_INPUT = 'impacted-targets-file';
const INLINE_INPUT = 'impacted-targets';

const FORMATS_HINT = 'Write a JSON array of strings, or one target per line';

/**
 * The most a targets file may hold: twice the service's body limit, since a file of one target per line
 * with blank lines and duplicates may still make a body under the limit; more could never be sent.
 */
export const MAX_TARGETS_FILE_BYTES = 2 * MAX_BODY_BYTES;

/** Where an input's file is found: relative to the working directory, or piped in for `-`. */
export type InputFiles = Pick<OperationContext<unknown>, 'workingDirectory' | 'stdin'>;

/** The targets named by whichever single source the settings hold; a file is read by `deadline`. */
export async function readImpactedTargets(
  settings: ImpactedTargetsSettings,
  from: InputFiles,
  deadline?: number,
): Promise<ImpactedTargets> {
  if (settings.impactsAll) return 'ALL';
  if (settings.file !== undefined)
    return parseTargetsFile(await readTargetsFile(settings.file, from, deadline));
  return parseInlineTargets(settings.inline ?? '');
}

/** A targets file read and checked to be UTF-8 text, not parsed yet. */
export interface TargetsFile {
  content: Buffer;
  /** How error lines name the file. */
  where: string;
  /** How many quotes it holds (counted while it was read), which sizes a JSON array's list. */
  quotes: number;
}

/** Reads the file of the impacted-targets-file input by `deadline`, and checks that it is UTF-8 text. */
export async function readTargetsFile(
  path: string,
  from: InputFiles,
  deadline?: number,
): Promise<TargetsFile> {
  if (path === STANDARD_INPUT) {
    const content = await readStandardInput(
      FILE_INPUT,
      MAX_TARGETS_FILE_BYTES,
      `${FORMATS_HINT}.`,
      from.stdin,
    );
    checkText(content, 'standard input');
    return { content, where: 'standard input', quotes: countByte(content, QUOTE, 0) };
  }
  let quotes = 0;
  const { content, where } = await readInputFile({
    input: FILE_INPUT,
    path,
    cwd: from.workingDirectory,
    maxBytes: MAX_TARGETS_FILE_BYTES,
    deadline,
    missingAdvice:
      'Check the path; in a job without checkout, download the artifact that holds the file first (actions/download-artifact) and give the path it was saved to.',
    onPiece: (piece) => (quotes += countByte(piece, QUOTE, 0)),
  });
  checkText(content, where);
  return { content, where, quotes };
}

export function parseTargetsFile(file: TargetsFile): ImpactedTargets {
  return toTheEnd(parseInStretches(file.content, fileOrigin(file), file.quotes));
}

function fileOrigin(file: TargetsFile): Origin {
  return { input: FILE_INPUT, where: file.where };
}

/**
 * As parseTargetsFile, with a turn of the event loop after each stretch of a JSON array (a MiB), so
 * that I/O goes on meanwhile: a request that sends the file while it is checked (early-upload.ts).
 */
export async function parseTargetsFileInTurns(file: TargetsFile): Promise<ImpactedTargets> {
  const stretches = parseInStretches(file.content, fileOrigin(file), file.quotes);
  for (;;) {
    const stretch = stretches.next();
    if (stretch.done) return stretch.value;
    await nextTurn();
  }
}

/**
 * Where the content's JSON array lies, `[` to `]` inclusive, judging by its first and last bytes only
 * (a BOM and JSON whitespace around it are allowed); undefined when the content is not that shape.
 */
export function jsonArraySpan(content: Buffer): { start: number; end: number } | undefined {
  const start = skipJsonSpace(content, bomLength(content));
  let end = content.length;
  while (end > start && isJsonSpace(content[end - 1] as number)) end--;
  return content[start] === OPEN_BRACKET && content[end - 1] === CLOSE_BRACKET && end - start >= 2
    ? { start, end }
    : undefined;
}

/** The targets of the inline input. */
export function parseInlineTargets(text: string): ImpactedTargets {
  return toTheEnd(parseInStretches(Buffer.from(text, 'utf8'), { input: INLINE_INPUT }));
}

/** Targets computed by us (already strings), in the same compact form as the ones read from a file. */
export function targetsFromList(targets: readonly string[]): TargetList {
  return toTheEnd(
    parseInStretches(Buffer.from(JSON.stringify(targets), 'utf8'), { input: 'targets-config' }),
  ) as TargetList;
}

/** The input a problem is reported against, and the file it named. */
interface Origin {
  input: string;
  where?: string;
}

/** Refuses content that is not UTF-8 text, pointing at the first byte that shows it. */
function checkText(content: Buffer, where: string): void {
  const fix = 'Write the targets as UTF-8 text: a JSON array of strings, or one target per line.';
  if ((content[0] === 0xff && content[1] === 0xfe) || (content[0] === 0xfe && content[1] === 0xff)) {
    throw new InputError(
      FILE_INPUT,
      `${where} is UTF-16 text`,
      'Save it as UTF-8 instead (in PowerShell: Out-File -Encoding utf8).',
    );
  }
  const nul = content.indexOf(0);
  if (nul >= 0) {
    throw new InputError(FILE_INPUT, `${where} is binary, not text (a NUL byte at offset ${nul})`, fix);
  }
  if (!isUtf8(content)) {
    throw new InputError(
      FILE_INPUT,
      `${where} is not UTF-8 text (an invalid byte sequence at offset ${firstInvalidUtf8Offset(content)})`,
      fix,
    );
  }
}

/** Called only for content that is known not to be UTF-8. */
function firstInvalidUtf8Offset(content: Buffer): number {
  const decoded = content.toString('utf8');
  let bytes = 0;
  for (const char of decoded) {
    // A replacement character is either one that the file really holds (EF BF BD) or an invalid byte.
    if (
      char === '\ufffd' &&
      !(content[bytes] === 0xef && content[bytes + 1] === 0xbf && content[bytes + 2] === 0xbd)
    ) {
      return bytes;
    }
    bytes += Buffer.byteLength(char);
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------
// Formats

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;

function isJsonSpace(byte: number): boolean {
  return byte === SPACE || byte === LF || byte === CR || byte === TAB;
}

function bomLength(content: Buffer): number {
  return content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
}

/** Runs a parse to its end, going straight on after each stretch. */
function toTheEnd(stretches: Generator<void, ImpactedTargets>): ImpactedTargets {
  for (;;) {
    const stretch = stretches.next();
    if (stretch.done) return stretch.value;
  }
}

/**
 * Parses text already known to be UTF-8: `ALL`, a JSON array of strings, or one target per line. Stops
 * (yields) after each stretch of a JSON array, for a caller that lets I/O go on in between. `quotes`:
 * how many the content holds, when they were counted already.
 */
function* parseInStretches(
  content: Buffer,
  origin: Origin,
  quotes?: number,
): Generator<void, ImpactedTargets> {
  const bom = bomLength(content);
  const start = skipJsonSpace(content, bom);
  const first = content[start];
  if (first === OPEN_BRACKET) {
    // Only a BOM and whitespace come before the array: its quotes are all the content's.
    return yield* parseJsonArray(
      content,
      { bom, open: start, quotes: quotes ?? countByte(content, QUOTE, start) },
      origin,
    );
  }
  if (first === OPEN_BRACE) {
    throw new InputError(origin.input, `${subjectOf(origin)}holds a JSON object`, `${FORMATS_HINT}, or ALL.`);
  }
  const whole = content.length - start < 64 ? content.toString('utf8', start).trim() : '';
  if (whole === 'ALL' || whole === '"ALL"') return 'ALL';
  return parseLines(content, start);
}

function parseLines(content: Buffer, start: number): TargetList {
  const targets = new TargetList(content, countByte(content, LF, start) + 1, 'lines');
  for (let lineStart = start; lineStart < content.length;) {
    let lineEnd = content.indexOf(LF, lineStart);
    if (lineEnd < 0) lineEnd = content.length;
    targets.add(lineStart, lineEnd, 'text');
    lineStart = lineEnd + 1;
  }
  return targets;
}

/**
 * The fast path: the strings of the array are taken straight from the buffer. Anything else in the
 * document (another kind of value, a syntax error) sends it to JSON.parse for a precise diagnosis.
 */
function* parseJsonArray(
  content: Buffer,
  array: { bom: number; open: number; quotes: number },
  origin: Origin,
): Generator<void, ImpactedTargets> {
  const { bom, open } = array;
  let targets: TargetList | undefined;
  try {
    const strings = new JsonArrayStrings(content, open, array.quotes);
    for (let until = open + STRETCH_BYTES; strings.readUntil(until); until += STRETCH_BYTES) yield;
    targets = strings.list;
  } catch {
    // A string that TargetList refused: an invalid escape or a control character.
  }
  return targets ?? diagnoseJson(content, bom, origin);
}

/** How much of a JSON array is read between two stops of parseInStretches. */
const STRETCH_BYTES = 1024 * 1024;

const FINISHED = -1;

/** Reads the strings of the JSON array that opens at `open`, a stretch at a time. */
class JsonArrayStrings {
  /** The opening quote of the next string to read; FINISHED once the array has been read. */
  private at: number;
  private readonly targets: TargetList;
  /** Set once the document turned out not to be just a JSON array of strings. */
  private refused = false;

  /** `quotes`: how many the array holds, at most; a string takes two. */
  constructor(
    private readonly content: Buffer,
    open: number,
    quotes: number,
  ) {
    this.targets = new TargetList(content, Math.ceil(quotes / 2), 'json-array');
    this.at = skipJsonSpace(content, open + 1);
    if (content[this.at] === CLOSE_BRACKET) this.finish(this.at);
  }

  /** The list, once the whole array was read; undefined when the document is not just that. */
  get list(): TargetList | undefined {
    return this.refused ? undefined : this.targets;
  }

  /** Reads strings until the next one starts at or past `until`; says whether any are left to read. */
  readUntil(until: number): boolean {
    const { content, targets } = this;
    const length = content.length;
    let i = this.at;
    while (i !== FINISHED && i < until) {
      if (i >= length || content[i] !== QUOTE) return this.refuse();
      let end = targets.addJsonString(i);
      if (end < 0) {
        const string = jsonStringAt(content, i);
        if (!string) return this.refuse();
        end = string.end;
        targets.add(i + 1, end, string.escaped ? 'json-escaped' : 'json');
      }
      i = skipJsonSpace(content, end + 1);
      if (i >= length) return this.refuse();
      if (content[i] === COMMA) i = skipJsonSpace(content, i + 1);
      else if (content[i] === CLOSE_BRACKET) i = this.finish(i);
      else return this.refuse();
    }
    this.at = i;
    return i !== FINISHED;
  }

  /** The array closed at `close`: nothing but whitespace may follow. */
  private finish(close: number): number {
    if (skipJsonSpace(this.content, close + 1) !== this.content.length) this.refused = true;
    this.at = FINISHED;
    return FINISHED;
  }

  private refuse(): false {
    this.refused = true;
    this.at = FINISHED;
    return false;
  }
}

/** Where the JSON string opened at `open` ends (its closing quote), or undefined when it does not. */
function jsonStringAt(content: Buffer, open: number): { end: number; escaped: boolean } | undefined {
  let escaped = false;
  for (let at = open + 1; at < content.length; at++) {
    const byte = content[at];
    if (byte === QUOTE) return { end: at, escaped };
    if (byte === BACKSLASH) {
      escaped = true;
      at++;
    }
  }
  return undefined;
}

function skipJsonSpace(content: Buffer, at: number): number {
  while (at < content.length && isJsonSpace(content[at] as number)) at++;
  return at;
}

/** The slow path: says in one line what is wrong with a JSON document that the fast path refused. */
function diagnoseJson(content: Buffer, bom: number, origin: Origin): never {
  const { input, where } = origin;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.toString('utf8', bom));
  } catch (error) {
    const reason = (error as Error).message.replace(/\s+/g, ' ');
    throw new InputError(input, `${subjectOf(origin)}is not valid JSON (${reason})`, `${FORMATS_HINT}.`);
  }
  const entries = Array.isArray(parsed) ? parsed : [];
  const index = entries.findIndex((entry) => typeof entry !== 'string');
  if (index < 0) {
    // JSON.parse accepted what the fast path did not: a case the fast path must learn.
    unreachable(`${input}: ${subjectOf(origin)}could not be read as a JSON array by the fast path`);
  }
  throw new InputError(
    input,
    `${where ? `in ${where}, ` : ''}entry ${index + 1} of the JSON array is ${describeJsonValue(entries[index])}, not a string`,
    'Give every target as a string, e.g. ["//app:server", "//lib:util"].',
  );
}

/** `"path" ` for a file, nothing for the inline input: the start of a sentence about the content. */
function subjectOf(origin: Origin): string {
  return origin.where ? `${origin.where} ` : '';
}

function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value);
  return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${shown.length > 40 ? `${shown.slice(0, 40)}...` : shown}`;
}
