// What a v1 run loads of the bundle: the built CLI and action, one get-submitted-pull-request each over v1,
// with every module they load recorded (bench/lib/record-loads.mjs). Neither loads the v2 client (its
// translations, transport and answer shapes), which only a run that speaks v2 needs, nor the schema
// builder (the endpoints' routes and answer shapes are plain data written by `npm run metadata`).
import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator();
const run = promisify(execFile);
/** A v2 operation's id, which only the v2 client's code names. */
const V2_CLIENT_MARK = 'mergeQueues.listPullRequests';
/** A name only the schema builder's code (@sinclair/typebox) has. */
const SCHEMA_BUILDER_MARK = 'TypeBox.Kind';

/** The files of dist/ that `node <args>` loads, read whole. */
async function loadedBundle(args: string[], env: Record<string, string>): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'run-loads-'));
  try {
    const loads = join(dir, 'loads.txt');
    writeFileSync(loads, '');
    await run(process.execPath, ['--import', './bench/lib/record-loads.mjs', ...args], {
      env: { PATH: process.env.PATH, ...env, BENCH_LOADS_FILE: loads, RUNNER_TEMP: dir },
    });
    const files = readFileSync(loads, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url))
      .filter((path) => path.startsWith(join(process.cwd(), 'dist')));
    return new Map(files.map((path) => [path, readFileSync(path, 'utf8')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a v1 run of get-submitted-pull-request', () => {
  it('loads no part of the v2 client nor the schema builder, from the CLI or the action', async () => {
    const queue = new QueueDriver(emulator, 'acme/loads', 'main');
    await queue.create();
    await queue.submit(7);
    const cli = await loadedBundle(
      ['dist/cli/index.js', 'get-submitted-pull-request', '--json', '--repo', 'acme/loads'],
      {
        MERGE_QUEUE_API_URL: emulator.current.url,
        MERGE_QUEUE_API_TOKEN: TEST_TOKEN,
        MERGE_QUEUE_PR_NUMBER: '7',
        MERGE_QUEUE_TARGET_BRANCH: 'main',
      },
    );
    const actionDir = mkdtempSync(join(tmpdir(), 'run-loads-action-'));
    const output = join(actionDir, 'output');
    writeFileSync(output, '');
    const action = await loadedBundle(['dist/index.js'], {
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_REPOSITORY: 'acme/loads',
      INPUT_OPERATION: 'get-submitted-pull-request',
      'INPUT_API-URL': emulator.current.url,
      'INPUT_API-TOKEN': TEST_TOKEN,
      'INPUT_PR-NUMBER': '7',
      'INPUT_TARGET-BRANCH': 'main',
    });
    const answered = readFileSync(output, 'utf8');
    rmSync(actionDir, { recursive: true, force: true });
    expect(answered).toMatch(/^is-submitted<<.+\ntrue$/m);
    for (const loaded of [cli, action]) {
      expect(loaded.size).toBeGreaterThan(1);
      const withV2 = [...loaded].filter(([, text]) => text.includes(V2_CLIENT_MARK)).map(([path]) => path);
      expect(withV2).toEqual([]);
      const withSchemas = [...loaded].filter(([, text]) => text.includes(SCHEMA_BUILDER_MARK));
      expect(withSchemas.map(([path]) => path)).toEqual([]);
    }
  });
});
