// Everything a person pastes from README.md and docs/: each fenced block is taken from the file as it is
// and run or checked the way its tool would. YAML parses, and no shell command in it is cut short by a
// ` #` that YAML reads as a comment; a step of this action names an operation and only inputs that
// operation reads; a whole workflow passes actionlint; shell blocks parse in bash, name npm scripts that
// exist and emulator flags it takes; JSON parses; and the CLI snippet runs against the emulator and
// merges its PR, with only the command that fetches the CLI swapped for this checkout's build (the
// fetch itself is .ci/pack-smoke.sh's: the archive it installs has the shape of main's).
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import { COMMON_INPUTS } from '../../src/core/common-inputs.js';
import { OPERATIONS, isOperationName } from '../../src/core/operations/registry.js';
import { TEST_TOKEN, useEmulator } from '../helpers/emulator.js';
import { runScript } from '../helpers/run-script.js';
import { PINNED_REF } from '../helpers/pins.js';

interface Snippet {
  where: string;
  language: string;
  text: string;
}

const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const snippets: Snippet[] = PAGES.flatMap((page) => {
  const text = readFileSync(page, 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    where: `${page}:${text.slice(0, match.index).split('\n').length}`,
    language: match[1]!,
    text: match[2]!,
  }));
});
const ofLanguage = (language: string) => snippets.filter((snippet) => snippet.language === language);
const table = (list: Snippet[]) => list.map((snippet) => [snippet.where, snippet] as const);

/** Every string scalar of a YAML document, with the text of its source line. */
function scalars(node: Node | null | undefined, source: string, out: { value: string; line: string }[] = []) {
  if (isMap(node)) for (const pair of node.items) scalars(pair.value as Node, source, out);
  else if (isSeq(node)) for (const item of node.items) scalars(item as Node, source, out);
  else if (isScalar(node) && typeof node.value === 'string' && node.range) {
    const start = source.lastIndexOf('\n', node.range[0]) + 1;
    const end = source.indexOf('\n', node.range[0]);
    out.push({ value: node.value, line: source.slice(start, end < 0 ? undefined : end) });
  }
  return out;
}

/** Plain scalars whose line goes on past them with ` #`: YAML took the rest for a comment. */
function cutByComment(source: string): string[] {
  return parseAllDocuments(source).flatMap((doc) =>
    scalars(doc.contents as Node, source)
      .filter(({ line }) => /\s#/.test(line) && /["'`]/.test(line.slice(0, line.indexOf(' #'))))
      .filter(
        ({ value }) =>
          (value.match(/"/g) ?? []).length % 2 === 1 || (value.match(/'/g) ?? []).length % 2 === 1,
      )
      .map(({ line }) => line.trim()),
  );
}

function inputsOf(operation: string): Set<string> {
  if (!isOperationName(operation)) return new Set();
  return new Set([...COMMON_INPUTS, ...OPERATIONS[operation].inputs].map((spec) => spec.name));
}

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
/** The steps of this action in a YAML snippet: a list of steps, or a workflow's jobs' steps. */
function actionSteps(value: unknown): Step[] {
  const list = Array.isArray(value)
    ? (value as Step[])
    : Object.values(((value as { jobs?: Record<string, { steps?: Step[] }> })?.jobs ?? {}) as object).flatMap(
        (job: { steps?: Step[] }) => job.steps ?? [],
      );
  return list.filter((step) => typeof step?.uses === 'string' && step.uses.includes('/merge-queue-action@'));
}

describe('YAML snippets', () => {
  it.each(table(ofLanguage('yaml')))('%s parses, and no command in it is cut by a comment', (_, snippet) => {
    const docs = parseAllDocuments(snippet.text);
    expect(docs.flatMap((doc) => doc.errors.map((error) => error.message))).toEqual([]);
    expect(cutByComment(snippet.text)).toEqual([]);
  });

  it('the comment check finds the mistake examples/gitlab-ci/full-pipeline.gitlab-ci.yml once had', () => {
    const broken = 'script:\n  - echo "PR #$MERGE_QUEUE_OUTPUT_PR_NUMBER is $MERGE_QUEUE_OUTPUT_STATE"\n';
    expect(cutByComment(broken)).toEqual([
      '- echo "PR #$MERGE_QUEUE_OUTPUT_PR_NUMBER is $MERGE_QUEUE_OUTPUT_STATE"',
    ]);
    expect(cutByComment(`script:\n  - 'echo "PR #$N"'\n  - echo done # a comment\n`)).toEqual([]);
  });

  const files = ['examples', 'templates', 'orb'].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.ya?ml$/.test(file))
      .map((file) => `${dir}/${file}`),
  );
  it.each(files.concat('plugin.yml'))('%s: no command in it is cut by a comment', (file) => {
    expect(cutByComment(readFileSync(file, 'utf8'))).toEqual([]);
  });

  const steps = ofLanguage('yaml').flatMap((snippet) =>
    parseAllDocuments(snippet.text).flatMap((doc) =>
      actionSteps(doc.toJS()).map((step) => [snippet.where, step] as const),
    ),
  );

  it('include steps of this action, at the pinned ref (main until a release)', () => {
    expect(steps.length).toBeGreaterThan(5);
    expect([...new Set(steps.map(([, step]) => step.uses))]).toEqual([
      `your-org/merge-queue-action@${PINNED_REF}`,
    ]);
  });

  it.each(steps)('%s: the step names an operation and only inputs it reads', (_, step) => {
    const operation = String(step.with?.operation ?? '');
    const inputs = inputsOf(operation);
    expect([operation, inputs.size > 0]).toEqual([operation, true]);
    expect(Object.keys(step.with ?? {}).filter((name) => name !== 'operation' && !inputs.has(name))).toEqual(
      [],
    );
  });

  const workflows = ofLanguage('yaml').filter(
    (snippet) => /^on:/m.test(snippet.text) && /^jobs:/m.test(snippet.text),
  );
  it.each(table(workflows))(
    '%s: the whole workflow passes actionlint and the workflow rules',
    (_, snippet) => {
      const file = join(mkdtempSync(join(tmpdir(), 'mqa-snippet-')), 'workflow.yml');
      writeFileSync(file, snippet.text);
      const lint = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/lint-workflows.ts', file], {
        encoding: 'utf8',
      });
      expect({ code: lint.status, out: lint.stdout + lint.stderr }).toMatchObject({ code: 0 });
    },
  );
});

describe('shell snippets', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const emulatorHelp = spawnSync(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', '--help'], {
    encoding: 'utf8',
  }).stdout;

  it.each(table(ofLanguage('sh')))('%s parses in bash', (_, snippet) => {
    // A placeholder such as <your organization id> is for the reader to fill in.
    const filled = snippet.text.replace(/<[^<>\n]+>/g, 'X');
    const check = spawnSync('bash', ['-n'], { input: filled, encoding: 'utf8' });
    expect({ code: check.status, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it.each(table(ofLanguage('sh')))(
    '%s names npm scripts that exist, and emulator flags it takes',
    (_, snippet) => {
      const named = [...snippet.text.matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!);
      expect(named.filter((name) => !(name in scripts))).toEqual([]);
      const emulatorFlags = [...snippet.text.matchAll(/npm run emulator -- ([^\n#]*)/g)].flatMap((m) =>
        [...m[1]!.matchAll(/--([\w-]+)/g)].map((flag) => flag[1]!),
      );
      expect(emulatorFlags.filter((flag) => !emulatorHelp.includes(`--${flag} `))).toEqual([]);
    },
  );
});

describe('JSON snippets', () => {
  it.each(table(ofLanguage('json')))('%s parses', (_, snippet) => {
    expect(() => JSON.parse(snippet.text) as unknown).not.toThrow();
  });
});

describe("the README's CLI snippet, run against the emulator", () => {
  // The emulator's clock runs 600 times real time: the PR's simulated CI passes in half a second.
  const emu = useEmulator({ timeScale: 600 });
  const snippet = ofLanguage('sh').find((s) => /^npx --yes \S+ submit-pull-request/m.test(s.text));

  it('submits PR 42 and waits until it merges', async () => {
    expect(snippet).toBeDefined();
    const answer = await emu.control('POST', '/queues', { repo: 'your-org/your-repo', targetBranch: 'main' });
    expect(answer.status).toBe(200);
    const cli = `${process.execPath} ${resolve('dist/cli/index.js')}`;
    const script = snippet!.text.replace(/npx --yes \S+(?= submit-pull-request)/, cli);
    const run = await runScript('bash', ['-euo', 'pipefail', '-c', script], {
      TRUNK_API_TOKEN: TEST_TOKEN,
      MERGE_QUEUE_API_URL: emu.current.url,
      MERGE_QUEUE_POLL_INTERVAL_SECONDS: '1',
    });
    expect({ code: run.code, stderr: run.stderr.slice(-600) }).toMatchObject({ code: 0 });
    const pr = await emu.api<{ state: string }>('/getSubmittedPullRequest', {
      repo: { host: 'github.com', owner: 'your-org', name: 'your-repo' },
      targetBranch: 'main',
      pr: { number: 42 },
    });
    expect([pr.status, pr.json.state?.toUpperCase()]).toEqual([200, 'MERGED']);
  });
});
