// The history file is read as untrusted (it travels as an artifact or a cache a PR's workflow may have
// written): a malformed or oversized file stops with one line naming the file, the line and what is wrong,
// without holding it in memory; appending is keyed, so an overlapping export adds nothing, gzip or not.
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InputError } from '../../src/core/errors.js';
import {
  appendHistory,
  readHistoryFiles,
  type HistoryRecord,
} from '../../src/core/operations/planner/history-file.js';
import { newQueueSettings } from '../../src/core/operations/planner/settings.js';

const dir = mkdtempSync(join(tmpdir(), 'history-file-'));
const FORMAT = '{"type":"format","key":"format","format":"queue-history/1"}';
const run = (id: string): HistoryRecord => ({
  type: 'run',
  key: `run:${id}`,
  bisection: false,
  status: 'succeeded',
  createdAt: '2026-01-05T00:00:00.000Z',
  finishedAt: '2026-01-05T00:30:00.000Z',
  tested: [1],
  dependent: [],
});
const entry = (pr: number): HistoryRecord => ({
  type: 'entry',
  key: `entry:${pr}`,
  number: pr,
  transitions: [
    ['pending', '2026-01-05T00:00:00.000Z', 'MERGE_ITEM_NOW_READY', null],
    ['merged', '2026-01-05T00:30:00.000Z', 'MERGE_GRAPH_MERGE', 'r1'],
  ],
});

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const snapshot = (at: string, concurrency: number): HistoryRecord => ({
  type: 'settings',
  key: `settings:${at}`,
  at,
  queue: 'acme/app@main',
  settings: { ...newQueueSettings(), concurrency },
});

async function refusal(path: string): Promise<string> {
  const error = await readHistoryFiles([path]).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).message;
}

describe('history file', () => {
  it('adds a later settings snapshot only when the settings changed since the latest in the file', async () => {
    const path = join(dir, 'snapshots.jsonl');
    expect(await appendHistory(path, [snapshot('2026-01-05T03:17:00.000Z', 4), run('a')])).toBe(2);
    // The next night: the same settings, nothing new.
    expect(await appendHistory(path, [snapshot('2026-01-06T03:17:00.000Z', 4), run('a')])).toBe(0);
    expect(await appendHistory(path, [snapshot('2026-01-07T03:17:00.000Z', 6)])).toBe(1);
    // Back to 4: the latest says 6, so this one is news.
    expect(await appendHistory(path, [snapshot('2026-01-08T03:17:00.000Z', 4)])).toBe(1);
    const history = await readHistoryFiles([path]);
    expect(history.settings.map((s) => [s.at.slice(0, 10), s.settings.concurrency])).toEqual([
      ['2026-01-05', 4],
      ['2026-01-07', 6],
      ['2026-01-08', 4],
    ]);
  });

  it.each(['plan.jsonl', 'plan.jsonl.gz'])(
    'appends %s, and an overlapping append adds nothing',
    async (name) => {
      const path = join(dir, name);
      expect(await appendHistory(path, [run('a'), entry(1)])).toBe(2);
      expect(await appendHistory(path, [run('a'), entry(1), run('b')])).toBe(1);
      expect(await appendHistory(path, [run('b')])).toBe(0);
      const history = await readHistoryFiles([path, path]);
      expect(history.runs.map((r) => r.key)).toEqual(['run:a', 'run:b']);
      expect(history.entries).toHaveLength(1);
      const text = name.endsWith('.gz')
        ? gunzipSync(readFileSync(path)).toString()
        : readFileSync(path, 'utf8');
      expect(text.trim().split('\n')).toHaveLength(4);
    },
  );

  it.each([
    ['not JSON', `${FORMAT}\n{"type":"run",`, /line 2 is not JSON/],
    ['no format line', `${JSON.stringify(run('a'))}\n`, /line 1 does not say format queue-history\/1/],
    ['an array', `${FORMAT}\n[1,2]\n`, /line 2 is not a JSON object/],
    [
      'a run without times',
      `${FORMAT}\n{"type":"run","key":"run:x","status":"failed"}\n`,
      /line 2 is a run with/,
    ],
    [
      'a run that ends before it starts',
      `${FORMAT}\n${JSON.stringify({ ...run('a'), finishedAt: '2026-01-04T00:00:00.000Z' })}\n`,
      /line 2 is a run with/,
    ],
    [
      'an entry with a string PR',
      `${FORMAT}\n{"type":"entry","key":"e","number":"7","transitions":[]}\n`,
      /line 2 is an entry/,
    ],
    ['a huge line', `${FORMAT}\n{"type":"run","key":"${'x'.repeat(300_000)}"}\n`, /longer than/],
  ])('refuses %s with the file, the line and what is wrong', async (_what, text, message) => {
    const path = file(`bad-${Math.random().toString(16).slice(2)}.jsonl`, text);
    const line = await refusal(path);
    expect(line).toMatch(message);
    expect(line).toContain(path);
  });

  it('stops a gzip bomb before it is unpacked into memory', async () => {
    // 64 MiB of one endless line, 64 KiB packed: stopped at the line's bound, not after unpacking it.
    const bomb = gzipSync(Buffer.alloc(64 * 2 ** 20, 0x61), { level: 9 });
    const line = await refusal(file('bomb.jsonl.gz', bomb));
    expect(line).toMatch(/a line is longer than 262144 bytes/);
  });

  it('refuses a directory, and a record with __proto__ pollutes nothing', async () => {
    const folder = join(dir, 'folder.jsonl');
    mkdirSync(folder);
    expect(await refusal(folder)).toMatch(/not a regular file/);
    const path = file(
      'proto.jsonl',
      `${FORMAT}\n{"type":"settings","key":"s","at":"2026-01-05T00:00:00Z","queue":"a/b@main","settings":{"__proto__":{"polluted":true}}}\n`,
    );
    const history = await readHistoryFiles([path]);
    expect(history.settings).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('skips records of an unknown type (a later minor version)', async () => {
    const path = file(
      'later.jsonl',
      `${FORMAT}\n{"type":"comment","key":"c"}\n${JSON.stringify(run('z'))}\n`,
    );
    expect((await readHistoryFiles([path])).runs).toHaveLength(1);
  });
});
