// The operations as a workflow runs them: the GitHub Actions host on a real pull_request payload, a real
// git checkout made here, and the emulator receiving the upload. compute-impacted-targets sets outputs
// and a summary; set-impacted-targets with targets-config computes and uploads in one step; a barrier or
// a git failure uploads ALL, loudly; lint-impacted-targets-config finds unclaimed files and dead globs.
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAction } from '../helpers/action-runner.js';
import { useEmulator } from '../helpers/emulator.js';
import { cloneOf, newRepo, tempDir } from '../helpers/git-repo.js';
import { example } from '../helpers/webhook-examples.js';

// Each test makes and clones a git repository; on a loaded machine that takes a while.
jest.setTimeout(120_000);

const emu = useEmulator();
const temp = tempDir('mqa-action-');
afterAll(temp.cleanup);

const CONFIG = [
  'rules:',
  '  - name: services',
  '    match: "services/{name}/**"',
  '    targets: ["svc:{name}"]',
  '  - match: "libs/**"',
  '    targets: [libs]',
  'barriers: ["package-lock.json"]',
  'inert: ["**/*.md"]',
  'groups:',
  '  libs: ["svc:*"]',
].join('\n');

let checkouts = 0;
/** A checkout of a PR branch that touches `changes`, with main as its base. */
function checkout(changes: Record<string, string>, config = CONFIG) {
  const n = ++checkouts;
  const origin = newRepo(join(temp.dir, `origin-${n}`), {
    '.github/impacted-targets.yml': config,
    'services/api/main.ts': 'api',
    'services/web/main.ts': 'web',
    'libs/util.ts': 'util',
    'package-lock.json': '{}',
    'README.md': 'readme',
    Makefile: 'all:',
  });
  origin.git('checkout', '--quiet', '-b', 'feature');
  const head = origin.commit('change', changes);
  origin.git('checkout', '--quiet', 'main');
  const clone = cloneOf(origin, join(temp.dir, `clone-${n}`));
  clone.git('checkout', '--quiet', head);
  return { dir: clone.dir, head };
}

let nextPr = 500;
function pullRequestEvent(head: string) {
  const payload = example('pull_request', (p) => p.action === 'synchronize' || p.action === 'opened');
  payload.pull_request.number = ++nextPr;
  payload.number = nextPr;
  payload.pull_request.head.sha = head;
  payload.pull_request.base.ref = 'main';
  return {
    eventName: 'pull_request',
    payload,
    env: { GITHUB_REPOSITORY: payload.repository.full_name, GITHUB_SHA: 'f'.repeat(40) },
  };
}

function storedTargets(payload: ReturnType<typeof pullRequestEvent>['payload']) {
  const [owner, name] = payload.repository.full_name.split('/') as [string, string];
  return emu.current.engine.core
    .pullRequest({ host: 'github.com', owner, name }, payload.pull_request.number)
    .targetsBySha.get(payload.pull_request.head.sha);
}

describe('compute-impacted-targets', () => {
  it('sets the targets, the map for if: conditions, and a summary of why', async () => {
    const { dir, head } = checkout({ 'services/api/main.ts': 'api v2', 'README.md': 'docs' });
    const run = await runAction({
      inputs: { operation: 'compute-impacted-targets', 'working-directory': dir },
      ...pullRequestEvent(head),
    });
    expect(run.error).toBe('');
    expect(run.outputs).toMatchObject({
      'impacted-targets': '["svc:api"]',
      'impacted-targets-count': '1',
      'impacts-all': 'false',
      'impacts-all-reason': '',
      'barrier-file': '',
      'changed-files-count': '2',
    });
    expect(JSON.parse(run.outputs['impacted-targets-map'] ?? '')).toEqual({
      libs: 'false',
      'svc:api': 'true',
      // Known from the tracked files, because a group names svc:*.
      'svc:web': 'false',
    });
    expect(run.summary).toContain('## 🎯 Impacted targets: 1');
    expect(run.summary).toContain('| svc:api | rule services | services/api/main.ts |');
  });

  it('shows the targets in the open, and paths in the checkout relative to it', async () => {
    const { dir, head } = checkout({ 'services/web/main.ts': 'web v2' });
    writeFileSync(join(dir, 'changed.txt'), 'services/web/main.ts\n');
    const run = await runAction({
      inputs: {
        operation: 'compute-impacted-targets',
        'working-directory': dir,
        'targets-config': join(dir, '.github/impacted-targets.yml'),
        'changed-files-file': join(dir, 'changed.txt'),
      },
      ...pullRequestEvent(head),
    });
    expect(run.error).toBe('');
    expect(run.summary).not.toContain(dir);
    expect(run.summary).toContain('| Config | .github/impacted-targets.yml |');
    expect(run.summary).toContain('| Changed files | 1 (from changed.txt) |');
    // The targets are what the step is for: a table of their own, not a closed section.
    expect(run.summary).toContain('### Targets and why (1)\n\n| Target | Why | Files |');
    expect(run.summary).not.toContain('<details>');
  });

  it('fails on a bad config with the line, the column and the keys allowed', async () => {
    const { dir, head } = checkout({ 'libs/util.ts': 'x' }, 'rules:\n  - match: "x/**"\n    targetz: [x]\n');
    const run = await runAction({
      inputs: { operation: 'compute-impacted-targets', 'working-directory': dir },
      ...pullRequestEvent(head),
    });
    expect(run.failed).toBe(true);
    expect(run.error).toBe(
      'Input "targets-config": .github/impacted-targets.yml:3:5: unknown key "targetz" in rules[0]. Did you mean "targets"? Allowed keys: name, match, exclude, targets.',
    );
  });
});

describe('set-impacted-targets with targets-config', () => {
  const uploadWithConfig = (dir: string, event: ReturnType<typeof pullRequestEvent>) =>
    runAction({
      inputs: {
        operation: 'set-impacted-targets',
        'api-url': emu.current.url,
        'api-token': emu.current.token,
        'targets-config': '.github/impacted-targets.yml',
        'working-directory': dir,
      },
      ...event,
    });

  it('computes and uploads in one step, groups expanded against every tracked file', async () => {
    const { dir, head } = checkout({ 'libs/util.ts': 'util v2' });
    const event = pullRequestEvent(head);
    const run = await uploadWithConfig(dir, event);
    expect(run.error).toBe('');
    expect(storedTargets(event.payload)).toEqual(['libs', 'svc:api', 'svc:web']);
    expect(run.outputs).toMatchObject({ 'impacted-targets-sent': 'list', 'impacted-targets-count': '3' });
    expect(run.summary).toContain('## 🎯 3 impacted targets uploaded for');
    expect(run.summary).toContain('| svc:web | group libs |');
  });

  it('uploads ALL, naming the barrier file, when a barrier is touched', async () => {
    const { dir, head } = checkout({ 'package-lock.json': '{"lockfileVersion": 3}' });
    const event = pullRequestEvent(head);
    const run = await uploadWithConfig(dir, event);
    expect(run.error).toBe('');
    expect(storedTargets(event.payload)).toBe('ALL');
    expect(run.outputs).toMatchObject({
      'impacted-targets': 'ALL',
      'impacts-all': 'true',
      'barrier-file': 'package-lock.json',
      'impacted-targets-sent': 'ALL',
    });
    expect(run.outputs['impacts-all-reason']).toBe(
      '"package-lock.json" matches the barrier "package-lock.json"',
    );
  });

  it('uploads ALL with a warning annotation when the changed files cannot be found', async () => {
    const { dir, head } = checkout({ 'libs/util.ts': 'x' });
    const event = pullRequestEvent(head);
    event.payload.pull_request.base.ref = 'no-such-branch';
    const run = await runAction({
      inputs: {
        operation: 'set-impacted-targets',
        'api-url': emu.current.url,
        'api-token': emu.current.token,
        'targets-config': '.github/impacted-targets.yml',
        'working-directory': dir,
      },
      ...event,
    });
    expect(run.error).toBe('');
    expect(storedTargets(event.payload)).toBe('ALL');
    expect(run.log).toMatch(
      /^::warning [^\n]*::Impacting ALL targets, because the impacted targets could not be computed: the target branch "no-such-branch" is not in this clone/m,
    );
    expect(run.outputs['impacts-all-reason']).toContain('fetch-depth: 0');
  });
});

describe('lint-impacted-targets-config', () => {
  it('lists files no rule claims and globs that match nothing; strict fails the step', async () => {
    // docs/** matches no tracked file; Makefile and the config itself are claimed by nothing.
    const { dir } = checkout({}, CONFIG.replace('inert: ["**/*.md"]', 'inert: ["**/*.md", "docs/**"]'));
    const lenient = await runAction({
      inputs: { operation: 'lint-impacted-targets-config', 'working-directory': dir },
    });
    expect(lenient.error).toBe('');
    expect(lenient.outputs).toMatchObject({
      'unclaimed-files-count': '2',
      'unused-rules-count': '1',
      'unclaimed-files': JSON.stringify(['.github/impacted-targets.yml', 'Makefile']),
    });
    expect(lenient.summary).toContain(
      '## ⚠️ .github/impacted-targets.yml: 2 files claimed by no rule, 1 glob matching no file',
    );
    expect(lenient.summary).toContain('Makefile');

    const strict = await runAction({
      inputs: { operation: 'lint-impacted-targets-config', 'working-directory': dir, strict: 'true' },
    });
    expect(strict.failed).toBe(true);
    expect(strict.error).toContain('2 claimed by no rule; 1 glob matches no tracked file');
  });
});
