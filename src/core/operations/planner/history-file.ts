// The history file, format queue-history/1: JSON Lines (gzip allowed, told by its first bytes), one
// record a line, each with a `key` that names what it records, so that an export overlapping an earlier
// one adds nothing. Records: the format line, a settings snapshot per export whose settings differ from the
// file's latest, each concluded queue entry of a PR (its transitions) and each finished verification run.
// About 1 KB a PR.
// The file is read as untrusted: lines and records are bounded, and a record of a known type with a
// wrong shape stops the read with the file, the line and what is wrong.
import { createReadStream, existsSync } from 'node:fs';
import { appendFile, open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { gzipSync, createGunzip } from 'node:zlib';
import { InputError } from '../../errors.js';
import { SETTING_NAMES, type PlanSettings } from './settings.js';

export const HISTORY_FORMAT = 'queue-history/1';
const MAX_LINE_CHARS = 256 * 1024;
const MAX_RECORDS = 5_000_000;
/** A year of a busy queue is about 110 MB of text; four times that is refused. */
const MAX_TEXT_BYTES = 512 * 2 ** 20;
const MAX_TRANSITIONS = 2_000;
const MAX_PRS_IN_RUN = 1_000;

/** One step of an entry: state (v2 camelCase), when (ISO), reason, verification run id. */
export type Transition = [state: string, changedAt: string, reason: string | null, runId: string | null];

export interface SettingsRecord {
  type: 'settings';
  key: string;
  at: string;
  queue: string;
  settings: PlanSettings;
}
export interface EntryRecord {
  type: 'entry';
  key: string;
  number: number;
  transitions: Transition[];
}
export interface RunRecord {
  type: 'run';
  key: string;
  bisection: boolean;
  status: 'succeeded' | 'failed' | 'cancelled';
  createdAt: string;
  finishedAt: string;
  tested: number[];
  dependent: number[];
}
export type HistoryRecord = SettingsRecord | EntryRecord | RunRecord;

export interface QueueHistory {
  settings: SettingsRecord[];
  entries: EntryRecord[];
  runs: RunRecord[];
}

/** Reads every file, in order; a record whose key an earlier one had is the same record and is skipped. */
export async function readHistoryFiles(paths: readonly string[], input = 'history'): Promise<QueueHistory> {
  const collect = historyCollector();
  for (const path of paths) await eachRecord(path, input, collect.take);
  return collect.history;
}

/** Records gathered by kind, each key once. */
export function historyCollector() {
  const history: QueueHistory = { settings: [], entries: [], runs: [] };
  const keys = new Set<string>();
  const take = (record: HistoryRecord) => {
    if (keys.has(record.key)) return;
    keys.add(record.key);
    if (record.type === 'settings') history.settings.push(record);
    else if (record.type === 'entry') history.entries.push(record);
    else history.runs.push(record);
  };
  return { history, take };
}

/**
 * Appends the records the file does not have yet (a new file starts with the format line), and a settings
 * snapshot only when it differs from the file's latest of that queue; the count added.
 */
export async function appendHistory(path: string, records: readonly HistoryRecord[], input = 'history') {
  const known = new Set<string>();
  const latest = new Map<string, SettingsRecord>();
  const exists = existsSync(path);
  if (exists)
    await eachRecord(path, input, (record) => {
      known.add(record.key);
      if (record.type === 'settings') keepLatest(latest, record);
    });
  const fresh = records.filter(
    (r) => !known.has(r.key) && !repeatsLatest(latest, r) && (known.add(r.key), true),
  );
  const lines = [
    ...(exists ? [] : [JSON.stringify({ type: 'format', key: 'format', format: HISTORY_FORMAT })]),
    ...fresh.map((r) => JSON.stringify(r)),
  ];
  if (lines.length === 0) return 0;
  const text = `${lines.join('\n')}\n`;
  // A gzip file takes another gzip member: readers (ours, zcat) read the members one after another.
  const gzip = exists ? await isGzip(path) : path.endsWith('.gz');
  await appendFile(path, gzip ? gzipSync(text) : text, { mode: 0o600 });
  return fresh.length;
}

function keepLatest(latest: Map<string, SettingsRecord>, record: SettingsRecord): void {
  const held = latest.get(record.queue);
  if (!held || Date.parse(record.at) >= Date.parse(held.at)) latest.set(record.queue, record);
}

/** A snapshot later than the latest of its queue, with the same settings: it says nothing new. */
function repeatsLatest(latest: Map<string, SettingsRecord>, record: HistoryRecord): boolean {
  if (record.type !== 'settings') return false;
  const held = latest.get(record.queue);
  if (!held || Date.parse(record.at) < Date.parse(held.at)) return false;
  const given = record.settings as unknown as Record<string, unknown>;
  const kept = held.settings as unknown as Record<string, unknown>;
  return SETTING_NAMES.every((name) => given[name] === kept[name]);
}

/**
 * The file's lines, bounded before they are held in memory: a line longer than MAX_LINE_CHARS, or text
 * past MAX_TEXT_BYTES (a small gzip file can unpack to gigabytes), stops the read.
 */
async function* linesOf(path: string, input: string): AsyncGenerator<string> {
  const file = createReadStream(path);
  const text: AsyncIterable<Buffer> = (await isGzip(path))
    ? pipeline(file, createGunzip(), () => undefined)
    : file;
  let total = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of text) {
    total += chunk.length;
    if (total > MAX_TEXT_BYTES)
      throw unreadable(input, path, `it unpacks to more than ${MAX_TEXT_BYTES / 2 ** 20} MiB`);
    let from = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, from)) {
      pending.push(chunk.subarray(from, newline));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      pendingBytes = 0;
      from = newline + 1;
    }
    pending.push(chunk.subarray(from));
    pendingBytes += chunk.length - from;
    if (pendingBytes > MAX_LINE_CHARS)
      throw unreadable(input, path, `a line is longer than ${MAX_LINE_CHARS} bytes`);
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
}

async function isGzip(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await file.close();
  }
}

async function eachRecord(path: string, input: string, take: (record: HistoryRecord) => void): Promise<void> {
  const where = (line: number) => `${path} line ${line}`;
  let number = 0;
  try {
    if (!(await stat(path)).isFile()) throw unreadable(input, path, 'it is not a regular file');
    for await (const line of linesOf(path, input)) {
      number++;
      if (number > MAX_RECORDS) throw bad(input, where(number), `has more than ${MAX_RECORDS} records`);
      if (!line.trim()) continue;
      if (line.length > MAX_LINE_CHARS)
        throw bad(input, where(number), `is longer than ${MAX_LINE_CHARS} characters`);
      const record = parseRecord(line, input, where(number), number === 1);
      if (record) take(record);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw unreadable(input, path, (error as Error).message);
  }
}

function unreadable(input: string, path: string, why: string): InputError {
  return new InputError(
    input,
    `${path} cannot be read (${why})`,
    'Give the path of a history file written by export-queue-history (.jsonl or .jsonl.gz).',
  );
}

function parseRecord(line: string, input: string, where: string, first: boolean): HistoryRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw bad(input, where, 'is not JSON');
  }
  if (!isObject(value)) throw bad(input, where, 'is not a JSON object');
  if (first) {
    if (value.type !== 'format' || value.format !== HISTORY_FORMAT) {
      throw bad(input, where, `does not say format ${HISTORY_FORMAT}`);
    }
    return undefined;
  }
  if (typeof value.key !== 'string' || value.key.length > 200) throw bad(input, where, 'has no key');
  if (value.type === 'entry') return checkEntry(value, input, where);
  if (value.type === 'run') return checkRun(value, input, where);
  if (value.type === 'settings') return checkSettings(value, input, where);
  return undefined; // a record of a later minor version: skipped
}

function checkEntry(value: Record<string, unknown>, input: string, where: string): EntryRecord {
  const transitions = value.transitions;
  const ok =
    isPrNumber(value.number) &&
    Array.isArray(transitions) &&
    transitions.length > 0 &&
    transitions.length <= MAX_TRANSITIONS &&
    transitions.every(
      (t) =>
        Array.isArray(t) &&
        t.length === 4 &&
        typeof t[0] === 'string' &&
        isTime(t[1]) &&
        (t[2] === null || typeof t[2] === 'string') &&
        (t[3] === null || typeof t[3] === 'string'),
    );
  if (!ok) throw bad(input, where, 'is an entry without a PR number or with malformed transitions');
  return {
    type: 'entry',
    key: value.key as string,
    number: value.number as number,
    transitions: transitions as Transition[],
  };
}

function checkRun(value: Record<string, unknown>, input: string, where: string): RunRecord {
  const ok =
    typeof value.bisection === 'boolean' &&
    (value.status === 'succeeded' || value.status === 'failed' || value.status === 'cancelled') &&
    isTime(value.createdAt) &&
    isTime(value.finishedAt) &&
    Date.parse(value.finishedAt as string) >= Date.parse(value.createdAt as string) &&
    isPrList(value.tested) &&
    isPrList(value.dependent);
  if (!ok) throw bad(input, where, 'is a run with a missing or malformed field');
  const { key, bisection, status, createdAt, finishedAt, tested, dependent } = value as unknown as RunRecord;
  return { type: 'run', key, bisection, status, createdAt, finishedAt, tested, dependent };
}

function checkSettings(value: Record<string, unknown>, input: string, where: string): SettingsRecord {
  if (!isTime(value.at) || typeof value.queue !== 'string' || !isObject(value.settings)) {
    throw bad(input, where, 'is a settings snapshot without its time, queue or settings');
  }
  return {
    type: 'settings',
    key: value.key as string,
    at: value.at,
    queue: value.queue,
    settings: value.settings as unknown as PlanSettings,
  };
}

function bad(input: string, where: string, what: string): InputError {
  return new InputError(
    input,
    `${where} ${what}`,
    `Give a history file written by export-queue-history (format ${HISTORY_FORMAT}), unedited.`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrNumber(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function isPrList(value: unknown): value is number[] {
  return Array.isArray(value) && value.length <= MAX_PRS_IN_RUN && value.every(isPrNumber);
}

function isTime(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
}
