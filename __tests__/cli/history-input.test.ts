// `history` means a number of commits to lint-impacted-targets-config and a file to export-queue-history
// and plan-queue-settings. Given the one where the other is meant, each says so in one line naming the
// input, with exit 2 and nothing sent.
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CODES } from '../../src/core/failure.js';
import { runCli } from '../helpers/cli-runner.js';

const CWD = mkdtempSync(join(tmpdir(), 'history-input-'));
// A service nobody listens on: a run that got as far as a request would fail otherwise (exit 4).
const SERVICE = ['--api-url', 'http://127.0.0.1:9/v1', '--repo', 'acme/app', '--target-branch', 'main'];

async function refusal(args: string[]) {
  const run = await runCli(args, { env: { TMPDIR: CWD, MERGE_QUEUE_API_TOKEN: 'token' }, cwd: CWD });
  expect(run.exitCode).toBe(EXIT_CODES.badInput);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('history, a number to one operation and a file to others', () => {
  it('plan-queue-settings given a number says history is a file there, and points to days', async () => {
    const line = await refusal(['plan-queue-settings', '--history', '30', ...SERVICE]);
    expect(line).toMatch(/history.*"30" is a number, and for plan-queue-settings --history is a file/);
    expect(line).toContain('give --days 30 instead');
  });

  it('export-queue-history given a number says it appends to a file', async () => {
    const line = await refusal(['export-queue-history', '--history', '200', ...SERVICE]);
    expect(line).toMatch(/"200" is a number, and for export-queue-history --history is a file/);
    expect(line).toContain('queue-history.jsonl.gz');
  });

  it('lint-impacted-targets-config given a file says it takes a number of commits', async () => {
    const line = await refusal(['lint-impacted-targets-config', '--history', 'queue-history.jsonl.gz']);
    expect(line).toMatch(/"queue-history.jsonl.gz" is not a number of commits/);
    expect(line).toContain('a history file is for export-queue-history and plan-queue-settings');
  });
});
