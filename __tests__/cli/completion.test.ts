// `completion bash|zsh|fish` from the built CLI: bash's script sourced in a real bash, its completion
// function called as bash calls it on Tab, and what it offers read back from COMPREPLY; zsh's and fish's
// checked to parse where those shells are installed.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'completion-'));

async function scriptFor(shell: string): Promise<string> {
  const run = await runCli(['completion', shell]);
  expect(run.exitCode).toBe(0);
  const file = join(dir, `completion.${shell}`);
  writeFileSync(file, run.stdout);
  return file;
}

/** What bash offers on Tab after `line` (the command line typed so far, ending where the cursor is). */
function offered(script: string, line: string): string[] {
  const words = line.split(' ');
  const program = [
    `source '${script}'`,
    `COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_merge_queue_action',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const bash = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' });
  expect(bash.stderr).toBe('');
  return bash.stdout.split('\n').filter(Boolean).sort();
}

const installed = (shell: string) => spawnSync(shell, ['--version']).status === 0;

describe('completion bash', () => {
  it('completes operations, their flags, and the values a flag takes', async () => {
    const script = await scriptFor('bash');
    expect(offered(script, 'merge-queue-action dra')).toEqual(['drain-queue']);
    expect(offered(script, 'merge-queue-action get-submitted-pull-request --wait-')).toEqual([
      '--wait-for',
      '--wait-timeout-minutes',
    ]);
    expect(offered(script, 'merge-queue-action list-pull-requests --state tes')).toEqual([
      'testing',
      'tests_passed',
    ]);
    expect(offered(script, 'merge-queue-action delete-queue --y')).toEqual(['--yes']);
    expect(offered(script, 'merge-queue-action completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(offered(script, 'merge-queue-action help get-queue-e')).toEqual(['get-queue-entry-history']);
  });
});

describe('completion zsh and fish', () => {
  it.each(['zsh', 'fish'])('%s: the script parses where the shell is installed', async (shell) => {
    const script = await scriptFor(shell);
    if (!installed(shell)) return;
    expect(spawnSync(shell, ['-n', script], { encoding: 'utf8' }).status).toBe(0);
  });

  it('refuses a shell it does not know, naming the ones it does', async () => {
    const run = await runCli(['completion', 'powershell']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('completion takes one shell: bash, zsh, fish');
  });
});
