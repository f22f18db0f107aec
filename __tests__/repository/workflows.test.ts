// Our workflows and the examples users copy are held to the advice a platform team would hold them to:
// no expression in a run: script, least permissions per job, actions pinned by sha, checkout's token
// not left behind. `npm run lint:workflows` adds actionlint and shellcheck; CI runs it.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hygieneProblems } from '../../scripts/workflow-hygiene.js';
import { itWithTools } from '../helpers/tool-gate.js';
import { TOOLS } from '../helpers/tools.js';

const SHA = 'f'.repeat(40);

const careless = `name: careless
on:
  pull_request:
permissions: write-all
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@${SHA}
      - run: echo "\${{ github.event.pull_request.title }}"
  deploy:
    runs-on: ubuntu-latest
    permissions: write-all
    steps:
      - uses: actions/cache@${SHA} # v4.2.0
`;

describe('workflow hygiene rules', () => {
  it('names every careless line of a workflow', () => {
    expect(
      hygieneProblems('careless.yml', careless).map((p) => [p.line, p.message.split(/[:;]/)[0]]),
    ).toEqual([
      [4, 'workflow-level permissions'],
      [6, 'job build declares no permissions'],
      [9, 'job build, step actions/checkout@v4'],
      [9, 'actions/checkout@v4'],
      [10, `actions/setup-node@${SHA}`],
      [11, 'job build, step (unnamed)'],
      [12, 'job deploy has permissions'],
    ]);
  });

  it('says what to do instead', () => {
    const messages = hygieneProblems('careless.yml', careless).map((p) => p.message);
    expect(messages).toContain(
      'job build, step (unnamed): an expression in a run: script is a script injection risk; pass the value through env: and use "$NAME".',
    );
    expect(messages).toContain(
      `actions/setup-node@${SHA}: say which version the sha is in a comment (# v1.2.3).`,
    );
  });

  const ours = [
    ...readdirSync('.github/workflows').map((name) => `.github/workflows/${name}`),
    ...readdirSync('examples')
      .filter((name) => name.endsWith('.yml'))
      .map((name) => `examples/${name}`),
  ];
  it.each(ours)('%s follows them', (file) => {
    expect(hygieneProblems(file, readFileSync(file, 'utf8'))).toEqual([]);
  });
});

describe('npm run lint:workflows', () => {
  itWithTools(
    [TOOLS.shellcheck()],
    'fails on a workflow with actionlint, hygiene and shellcheck findings, each at its line',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'lint-workflows-'));
      const file = join(dir, 'broken.yml');
      writeFileSync(
        file,
        `on: push
permissions: {}
jobs:
  build:
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - run: |
          echo "\${{ github.event.head_commit.message }}"
          cd $HOME/some dir
`,
      );
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/lint-workflows.ts', file], {
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(
        /broken\.yml:8: actionlint \[expression\]: "github\.event\.head_commit\.message" is potentially untrusted/,
      );
      expect(result.stdout).toMatch(
        /broken\.yml:9: job build, step \(unnamed\): an expression in a run: script/,
      );
      expect(result.stdout).toMatch(/broken\.yml:10: shellcheck: .*\[SC2086\]/);
      expect(result.stdout).toMatch(
        /1 workflow\(s\) checked \(actionlint, hygiene, shellcheck\): 5 problem\(s\)\./,
      );
    },
  );
});
