// What the programs we start see (issue 25, rows 9 and 14): the dependents command and buildkite-agent
// run with the job's environment less our inputs and secrets, and a changed file's name cannot turn
// into two lines of the command's stdin. Run end to end through the CLI (in this process) with stand-in
// programs that write down what they were given.
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { pullRequestCheckout, tempDir } from '../helpers/git-repo.js';

jest.setTimeout(60_000);

const temp = tempDir('mqa-children-');
afterAll(temp.cleanup);

const SECRETS: Record<string, string> = {
  MERGE_QUEUE_API_TOKEN: 'tok_child_Qm4vX8nR2pL7wK3zT9bY',
  'INPUT_API-TOKEN': 'tok_child_input_Hs6dJ1fG5aE0cV',
  TRUNK_API_TOKEN: 'tok_child_trunk_Wn2xB7mQ4kP9rT',
  GITHUB_TOKEN: 'ghs_childGithubToken1234567890abcd',
  ACTIONS_RUNTIME_TOKEN: 'rt_child_Lp3sD8gH1jK6zX0c',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc_child_Yt5uI9oP2aS7dF4g',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://pipelines.example/oidc?secret=Zx1',
  BUILDKITE_AGENT_ACCESS_TOKEN: 'bkagent_child_Rf6tG0hY3uJ8kL',
};

/** A program that writes its stdin and environment, as JSON, to `record`. */
function recorder(path: string, record: string): string {
  writeFileSync(
    path,
    `#!${process.execPath}\nconst fs = require('node:fs');\nconst stdin = fs.readFileSync(0, 'utf8');\nfs.appendFileSync(${JSON.stringify(record)}, JSON.stringify({ args: process.argv.slice(2), stdin, env: process.env }) + '\\n');\n`,
  );
  chmodSync(path, 0o755);
  writeFileSync(join(path, '..', 'package.json'), '{"type":"commonjs"}\n');
  return path;
}

function records(path: string): { args: string[]; stdin: string; env: Record<string, string> }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** A clone whose HEAD (a PR branch) adds `files` to main, with a config that runs `command` for dependents. */
function checkout(files: Record<string, string>, command: string): string {
  const config = `rules:\n  - match: "**"\n    targets: [everything]\ndependents:\n  command:\n    run: [${JSON.stringify(command)}]\n`;
  return pullRequestCheckout(temp.dir, { '.github/impacted-targets.yml': config, 'README.md': 'r' }, files);
}

async function compute(
  dir: string,
  env: Record<string, string>,
): Promise<{ exitCode: number; text: string }> {
  let text = '';
  const stream = { write: (chunk: string) => (text += chunk) };
  const exitCode = await runCli({
    argv: ['compute-impacted-targets', '--working-directory', dir, '--changed-files-from', 'git', '--json'],
    env: {
      MERGE_QUEUE_API_URL: 'http://127.0.0.1:9/v1',
      MERGE_QUEUE_REPO: 'octo-org/octo-repo',
      MERGE_QUEUE_TARGET_BRANCH: 'main',
      ...env,
    },
    cwd: dir,
    stdout: stream,
    stderr: stream,
  });
  return { exitCode, text };
}

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

describe('the dependents command', () => {
  it("row 9: sees none of our inputs or the runner's tokens", async () => {
    const bin = join(temp.dir, 'bin-9a');
    mkdirSync(bin);
    const record = join(bin, 'calls.jsonl');
    const dir = checkout({ 'src/a.ts': 'a' }, recorder(join(bin, 'dependents'), record));
    // The core's child processes start from this process's environment, as on a runner.
    Object.assign(process.env, SECRETS);
    const run = await compute(dir, SECRETS);
    expect(run.exitCode).toBe(EXIT_CODES.done);
    const [call] = records(record);
    expect(call?.stdin).toBe('src/a.ts\n');
    const seen = JSON.stringify(call?.env);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect({ name, seen: seen.includes(value) }).toEqual({ name, seen: false });
    }
    expect(call?.env.PATH).toBe(process.env.PATH);
  });

  it('row 9: a changed file named "x\\ninjected-line" is not two lines of its stdin: ALL, and why', async () => {
    const bin = join(temp.dir, 'bin-9b');
    mkdirSync(bin);
    const record = join(bin, 'calls.jsonl');
    const dir = checkout({ 'x\ninjected-line': 'x' }, recorder(join(bin, 'dependents'), record));
    const run = await compute(dir, {});
    const result = JSON.parse(run.text.trim().split('\n').pop() ?? '{}');
    expect(records(record)).toEqual([]);
    expect(result.outputs['impacts-all']).toBe(true);
    expect(result.outputs['impacts-all-reason']).toContain(
      '"x\\ninjected-line" has a line break in its name',
    );
  });
});

describe('buildkite-agent', () => {
  it('row 14: is given its own agent token and none of ours', async () => {
    const bin = join(temp.dir, 'bin-14');
    mkdirSync(bin);
    const record = join(bin, 'calls.jsonl');
    recorder(join(bin, 'buildkite-agent'), record);
    const dir = checkout({ 'src/b.ts': 'b' }, '/bin/true');
    const run = await compute(dir, {
      ...SECRETS,
      PATH: `${bin}:${process.env.PATH}`,
      BUILDKITE: 'true',
      BUILDKITE_REPO: 'git@github.com:octo-org/octo-repo.git',
      BUILDKITE_BRANCH: 'feature',
      BUILDKITE_PULL_REQUEST: 'false',
      BUILDKITE_JOB_ID: 'job-14',
    });
    expect(run.text).toContain('host: buildkite');
    const calls = records(record);
    expect(calls.map((call) => call.args.slice(0, 3))).toContainEqual([
      'meta-data',
      'set',
      'impacted-targets',
    ]);
    for (const call of calls) {
      expect(call.env.BUILDKITE_AGENT_ACCESS_TOKEN).toBe(SECRETS.BUILDKITE_AGENT_ACCESS_TOKEN);
      expect(call.env.BUILDKITE_JOB_ID).toBe('job-14');
      const seen = JSON.stringify({ ...call.env, BUILDKITE_AGENT_ACCESS_TOKEN: '' });
      for (const [name, value] of Object.entries(SECRETS)) {
        expect({ name, seen: seen.includes(value) }).toEqual({ name, seen: false });
      }
    }
  });
});
