// The built CLI as a person uses it (compare gh, npm, git): help as a command, -V, booleans as --flag and
// --no-flag, - for stdin and stdout, values listed in help, "did you mean" for flags and variables, one
// error-line shape for every kind of failure, no stray argument echoed, colour as NO_COLOR, FORCE_COLOR
// and --color say.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATIONS } from '../../src/core/operations/registry.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { VERSION } from '../../src/core/version.js';
import { isSubmittedFor, laptopEnvironment, runCli } from '../helpers/cli-runner.js';
import { QueueDriver, TEST_TOKEN, useEmulator } from '../helpers/emulator.js';

const emulator = useEmulator({ timeScale: 600 });
const REPO = 'octo-org/conventions';
const queue = new QueueDriver(emulator, REPO, 'main');

const laptop = (extra: Record<string, string> = {}) => laptopEnvironment(emulator, REPO, extra);
const elsewhere = () => ({ cwd: mkdtempSync(join(tmpdir(), 'cli-conventions-')) });

/** Every line that starts with the program's name: the error and warning lines. */
const programLines = (text: string) =>
  text.split('\n').filter((line) => line.startsWith('merge-queue-action:'));

beforeAll(async () => {
  await queue.create();
  await queue.submit(7);
});

describe('help and version', () => {
  it('`help` and `help <operation>` print what --help and `<operation> --help` print', async () => {
    const [help, dashHelp, short] = await Promise.all([runCli(['help']), runCli(['--help']), runCli(['-h'])]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('USAGE\n  merge-queue-action <operation> [flags]');
    expect(dashHelp.stdout).toBe(help.stdout);
    expect(short.stdout).toBe(help.stdout);
    const [own, flag] = await Promise.all([
      runCli(['help', 'submit-pull-request']),
      runCli(['submit-pull-request', '--help']),
    ]);
    expect(own.exitCode).toBe(0);
    expect(own.stdout).toContain(OPERATIONS['submit-pull-request'].summary);
    expect(flag.stdout).toBe(own.stdout);
  });

  it('`help` with a misspelt operation says which one was meant, exit code 2', async () => {
    const run = await runCli(['help', 'submit-pull-reqest']);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).toBe(
      'merge-queue-action: unknown operation "submit-pull-reqest". Did you mean submit-pull-request? Run `merge-queue-action help` for the operations.\n',
    );
  });

  it('-V and --version print the version', async () => {
    for (const flag of ['-V', '--version']) {
      const run = await runCli([flag]);
      expect(run).toEqual({ exitCode: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it("lists an enumerated input's values and a boolean's two flags, from the registry", async () => {
    const run = await runCli(['help', 'submit-pull-request']);
    const inputs = OPERATIONS['submit-pull-request'].inputs;
    const waitFor = inputs.find((spec) => spec.name === 'wait-for')!;
    expect(waitFor.values).toEqual(['merged', 'tests_passed']);
    expect(run.stdout).toContain('--wait-for <merged|tests_passed>  (MERGE_QUEUE_WAIT_FOR)');
    expect(run.stdout).toContain('--notify-on <failure|always|never>  (MERGE_QUEUE_NOTIFY_ON)');
    expect(run.stdout).toContain(
      '--notify-pr-comment, --no-notify-pr-comment  (MERGE_QUEUE_NOTIFY_PR_COMMENT)',
    );
    expect(run.stdout).toContain('--no-batch  (MERGE_QUEUE_NO_BATCH)');
    expect(run.stdout).toContain('--summary, --no-summary  (MERGE_QUEUE_SUMMARY)');
    expect(run.stdout).toContain('--api-token <value>  (MERGE_QUEUE_API_TOKEN or TRUNK_API_TOKEN)');
    expect(run.stdout).toContain('--color <auto|always|never>');
  });
});

describe('booleans', () => {
  it('--summary and --no-summary are flags; the older --summary false still works', async () => {
    const dir = elsewhere();
    const args = ['get-submitted-pull-request', '--pr-number', '7', '--json'];
    const off = await runCli([...args, '--no-summary', '--summary-file', 'off.md'], {
      ...dir,
      env: laptop(),
    });
    const on = await runCli([...args, '--summary', '--summary-file', 'on.md'], { ...dir, env: laptop() });
    const old = await runCli([...args, '--summary', 'false', '--summary-file', 'old.md'], {
      ...dir,
      env: laptop(),
    });
    expect([off.exitCode, on.exitCode, old.exitCode]).toEqual([0, 0, 0]);
    // --summary does not take the next argument for its value: the flag after it still counts.
    const written = ['off.md', 'on.md', 'old.md'].map((file) => existsSync(join(dir.cwd, file)));
    expect(written).toEqual([false, true, false]);
  });

  it('refuses a value given to a --no- flag and to --json, in one line', async () => {
    const run = await runCli(['get-queue', '--no-summary=true']);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).toBe(
      'merge-queue-action: --no-summary takes no value. Give --no-summary alone, or --summary.\n',
    );
  });
});

describe('- for stdin and stdout', () => {
  it('--outputs-file - writes the outputs as one JSON object on stdout, and the log on stderr', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '7', '--outputs-file', '-'], {
      ...elsewhere(),
      env: laptop(),
    });
    expect(run.exitCode).toBe(0);
    const outputs = JSON.parse(run.stdout) as Record<string, string>;
    expect(outputs).toMatchObject({ 'pr-number': '7', repo: REPO });
    expect(outputs['is-submitted']).toBe(isSubmittedFor(outputs.state));
    expect(run.stderr).toContain('pr-number: 7 (from the pr-number input)');
  });

  it('--summary-file - writes the summary as markdown on stdout', async () => {
    const run = await runCli(['get-submitted-pull-request', '--pr-number', '7', '--summary-file', '-'], {
      ...elsewhere(),
      env: laptop(),
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^## /);
    expect(run.stdout).not.toContain('host: generic');
  });

  it('--dotenv-file - writes the GitLab dotenv report on stdout', async () => {
    const env = {
      ...laptop({ MERGE_QUEUE_PR_NUMBER: '7' }),
      GITLAB_CI: 'true',
      CI_PROJECT_DIR: mkdtempSync(join(tmpdir(), 'cli-dotenv-')),
    };
    const run = await runCli(['get-submitted-pull-request', '--dotenv-file', '-'], { env });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^MERGE_QUEUE_OUTPUT_PR_NUMBER=7$/m);
    expect(run.stdout).toMatch(/^MERGE_QUEUE_OUTPUT_IS_SUBMITTED=(true|false)$/m);
    expect(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .every((line) => line.startsWith('MERGE_QUEUE_OUTPUT_')),
    ).toBe(true);
  });

  it('refuses two things written to stdout at once', async () => {
    const run = await runCli(['get-queue', '--json', '--outputs-file', '-']);
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).toBe(
      'merge-queue-action: --json and --outputs-file - would all write to stdout. Give one of them, and a file path to the others.\n',
    );
  });
});

describe('did you mean', () => {
  it('warns about a misspelt MERGE_QUEUE_* variable with the closest one, without its value, and runs', async () => {
    const run = await runCli(['get-submitted-pull-request', '--json'], {
      ...elsewhere(),
      env: laptop({ MERGE_QUEUE_PR_NUMBR: 'value-not-shown-7', MERGE_QUEUE_OUTPUT_STATE: 'MERGED' }),
    });
    expect(programLines(run.stderr)).toEqual([
      'merge-queue-action: warning: MERGE_QUEUE_PR_NUMBR is set but is no variable merge-queue-action reads, so it was ignored. Did you mean MERGE_QUEUE_PR_NUMBER?',
      expect.stringMatching(/^merge-queue-action: No pull request to act on/),
    ]);
    expect(run.stdout + run.stderr).not.toContain('value-not-shown');
  });
});

describe('one error-line shape', () => {
  // What is wrong, then what to do (context messages join the two with a semicolon, one sentence with a
  // colon: "The API token is empty: export ...").
  const SHAPE = /^merge-queue-action: \S.*[.;:] \S.*$/;

  it.each([
    ['a flag no operation takes', ['get-queue', '--reppo', 'x'], {}, EXIT_CODES.badInput],
    ['a bad input', ['get-submitted-pull-request', '--pr-number', 'twelve'], {}, EXIT_CODES.badInput],
    ['a misspelt operation', ['get-queu'], {}, EXIT_CODES.badInput],
    ['a context that cannot be worked out', ['get-submitted-pull-request'], {}, EXIT_CODES.badInput],
    ['no token', ['get-queue'], { MERGE_QUEUE_API_TOKEN: '' }, EXIT_CODES.badInput],
    ['the service refusing', ['get-queue'], { MERGE_QUEUE_API_TOKEN: 'wrong' }, EXIT_CODES.refused],
    [
      // A 404 is the service refusing, from get-queue as from every operation (same-failure-same-exit).
      'the service knowing no queue for the branch',
      ['get-queue', '--target-branch', 'nope'],
      {},
      EXIT_CODES.refused,
    ],
    [
      'the service unreachable',
      ['get-queue', '--timeout-seconds', '2'],
      // Port 1 (tcpmux) has no listener on a test machine: the connection is refused at once.
      { MERGE_QUEUE_API_URL: 'http://127.0.0.1:1/v1' },
      EXIT_CODES.unreachable,
    ],
  ])('%s', async (_kind, args, extra, exitCode) => {
    const run = await runCli(args, { ...elsewhere(), env: laptop(extra) });
    expect(run.exitCode).toBe(exitCode);
    const lines = programLines(run.stdout + run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(SHAPE);
    expect(run.stdout + run.stderr).not.toMatch(/^(Error|Warning)\b/m);
  });

  it('the no-token line shows the CLI spelling, not a workflow', async () => {
    const run = await runCli(['get-queue'], { ...elsewhere(), env: laptop({ MERGE_QUEUE_API_TOKEN: '' }) });
    expect(programLines(run.stderr)).toEqual([
      'merge-queue-action: The API token is empty: export MERGE_QUEUE_API_TOKEN=<token> in this shell, with your organization API token (Settings > Organization > API token).',
    ]);
    expect(run.stdout + run.stderr).not.toContain('${{');
  });

  it('takes the token from TRUNK_API_TOKEN, the name the README has users store', async () => {
    const env = { ...laptop(), MERGE_QUEUE_API_TOKEN: '', TRUNK_API_TOKEN: TEST_TOKEN };
    const run = await runCli(['get-queue', '--json'], { ...elsewhere(), env });
    expect(run.exitCode).toBe(0);
  });
});

describe('a stray argument', () => {
  it('is never echoed: a token pasted after the operation shows only where it is and its length', async () => {
    const token = 'tok-pasted-by-mistake-3f9a1c';
    const run = await runCli(['get-queue', token], { ...elsewhere(), env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stdout + run.stderr).not.toContain(token.slice(0, 5));
    expect(run.stderr).toBe(
      `merge-queue-action: unexpected argument 2 (${token.length} characters, not shown as it may be a secret). Give one operation, then --<input> <value> flags; keep a secret in its variable (MERGE_QUEUE_API_TOKEN), not on the command line.\n`,
    );
  });

  it('is not echoed as an operation either, unless it is plainly a word', async () => {
    const run = await runCli(['ghp_0123456789abcdef'], { ...elsewhere(), env: laptop() });
    expect(run.exitCode).toBe(EXIT_CODES.badInput);
    expect(run.stderr).not.toContain('ghp_');
    expect(run.stderr).toContain('unknown operation (20 characters)');
  });
});

describe('colour', () => {
  const ESC = '\u001b[';
  const gitlab = () => ({ GITLAB_CI: 'true', CI_PROJECT_DIR: mkdtempSync(join(tmpdir(), 'cli-colour-')) });

  it('follows NO_COLOR under --host gitlab-ci, whose log shows colour otherwise', async () => {
    const coloured = await runCli(['get-queue', '--host', 'gitlab-ci'], {
      env: { ...laptop({ MERGE_QUEUE_API_TOKEN: '' }), ...gitlab() },
    });
    expect(coloured.stderr).toContain(ESC);
    const plain = await runCli(['get-queue', '--host', 'gitlab-ci'], {
      env: { ...laptop({ MERGE_QUEUE_API_TOKEN: '' }), ...gitlab(), NO_COLOR: '1' },
    });
    expect(plain.exitCode).toBe(EXIT_CODES.badInput);
    expect(plain.stdout + plain.stderr).not.toContain(ESC);
  });

  it('FORCE_COLOR colours a pipe, and --color=never wins over it', async () => {
    const env = laptop({ MERGE_QUEUE_API_TOKEN: '', FORCE_COLOR: '1' });
    const forced = await runCli(['get-queue'], { ...elsewhere(), env });
    expect(forced.stderr).toContain(`${ESC}31mmerge-queue-action:`);
    const never = await runCli(['get-queue', '--color=never'], { ...elsewhere(), env });
    expect(never.stdout + never.stderr).not.toContain(ESC);
    expect(programLines(never.stderr)).toHaveLength(1);
  });
});
