// set-impacted-targets against the emulator: what is stored for which PR and sha, the 20 MiB boundary,
// fork authentication, the missing-token policies, the outputs and the summary; and the whole action
// through run() with real pull_request payloads.
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ClientOptions } from '../../src/core/api/client.js';
import { MAX_BODY_BYTES } from '../../src/wire/index.js';
import type { ResolvedContext } from '../../src/core/context.js';
import { contextOf, errorOf, prepareFrom, startPrepared } from '../helpers/prepare.js';
import { runAction } from '../helpers/action-runner.js';
import { useEmulator } from '../helpers/emulator.js';
import { targetsFiles } from '../helpers/targets-files.js';
import { example } from '../helpers/webhook-examples.js';

const emu = useEmulator();
const REPO = { host: 'github.com', owner: 'acme', name: 'app' };
const RUN_ID = '9001';

const targetsFile = targetsFiles('.txt');

/** Every request the emulator receives, with its headers, as the server saw them. */
let requests: { url: string; headers: IncomingHttpHeaders }[] = [];
beforeAll(() => {
  emu.current.app.server.on('request', (request: IncomingMessage) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
  });
});
beforeEach(() => {
  requests = [];
});

function uploadRequests() {
  return requests.filter((request) => request.url.endsWith('/setImpactedTargets'));
}

let nextPr = 100;
function pullRequest(overrides: Partial<ResolvedContext> = {}): ResolvedContext {
  const prNumber = ++nextPr;
  return contextOf({
    repo: REPO,
    prNumber,
    headSha: `${prNumber}`.padStart(40, 'a'),
    targetBranch: 'main',
    runId: RUN_ID,
    trigger: 'pull_request',
    ...overrides,
  });
}

function storedTargets(context: ResolvedContext, sha = context.headSha ?? '') {
  return emu.current.engine.core.pullRequest(REPO, context.prNumber ?? 0).targetsBySha.get(sha);
}

/** Runs the operation in-process, as run() would, with the emulator's token unless inputs say otherwise. */
async function upload(inputs: Record<string, string>, context: ResolvedContext) {
  const given: Record<string, string> = {
    operation: 'set-impacted-targets',
    'api-url': emu.current.url,
    'api-token': emu.current.token,
    ...inputs,
  };
  const prepared = prepareFrom(given);
  const clientOptions: ClientOptions = {
    baseUrl: prepared.common.apiUrl,
    token: prepared.common.apiToken,
    deadlineMs: prepared.common.timeoutMs,
  };
  const result = await startPrepared(prepared, context, clientOptions);
  return { ...result, summary: result.summary?.toString() ?? '' };
}

describe('what is stored', () => {
  it('uploads the targets of a file for the PR at its head sha, without duplicates', async () => {
    const pr = pullRequest();
    const file = targetsFile('//app:server\n//lib:util\n\n//app:server\n');

    const run = await upload({ 'impacted-targets-file': file }, pr);

    expect(storedTargets(pr)).toEqual(['//app:server', '//lib:util']);
    expect(run.outputs).toEqual({
      response: '{}',
      'impacted-targets-count': 2,
      'impacted-targets-sent': 'list',
      'impacted-targets-fallback-reason': '',
    });
    expect(run.warnings).toEqual([]);
    expect(run.failure).toBeUndefined();
  });

  it('uploads inline targets in either format', async () => {
    const json = pullRequest();
    await upload({ 'impacted-targets': '["//a", "//b"]' }, json);
    expect(storedTargets(json)).toEqual(['//a', '//b']);

    const lines = pullRequest();
    await upload({ 'impacted-targets': '//c\n//d\n' }, lines);
    expect(storedTargets(lines)).toEqual(['//c', '//d']);
  });

  it('uploads the bare string ALL for impacts-all and for the word ALL', async () => {
    for (const inputs of [{ 'impacts-all': 'true' }, { 'impacted-targets': 'ALL' }] as Record<
      string,
      string
    >[]) {
      const pr = pullRequest();
      const run = await upload(inputs, pr);
      expect(storedTargets(pr)).toBe('ALL');
      expect(run.outputs).toMatchObject({
        'impacted-targets-count': '',
        'impacted-targets-sent': 'ALL',
        'impacted-targets-fallback-reason': '',
      });
      expect(run.summary).toContain('ALL, as asked: every target is impacted');
    }
  });

  it('uploads an empty list, which says the PR impacts nothing', async () => {
    const pr = pullRequest();
    const run = await upload({ 'impacted-targets-file': targetsFile('\n  \n') }, pr);
    expect(storedTargets(pr)).toEqual([]);
    expect(run.outputs).toMatchObject({ 'impacted-targets-count': 0, 'impacted-targets-sent': 'list' });
    expect(run.summary).toContain('an empty list: the PR impacts no target');
  });

  it('uploads for the sha given by pr-sha rather than the head sha of the event', async () => {
    const pr = pullRequest({ headSha: 'b'.repeat(40) });
    await upload({ 'impacted-targets': '//x' }, pr);
    expect(storedTargets(pr, 'b'.repeat(40))).toEqual(['//x']);
  });

  it('lets a PR in a parallel queue leave not_ready once targets exist for its current head sha', async () => {
    const pr = pullRequest();
    const number = pr.prNumber ?? 0;
    const oldSha = 'c'.repeat(40);
    const queue = { repo: 'acme/app', targetBranch: 'main' };
    expect(
      (await emu.control('POST', '/queues', { ...queue, mode: 'parallel', concurrency: 2 })).status,
    ).toBe(200);
    await emu.control('POST', '/pull-requests', { repo: 'acme/app', number, headSha: pr.headSha });
    await emu.api('/submitPullRequest', { repo: REPO, targetBranch: 'main', pr: { number } });
    const lookUp = async () =>
      (
        await emu.api<{
          state: string;
          readiness: { hasImpactedTargets: boolean; requiresImpactedTargets: boolean };
        }>('/getSubmittedPullRequest', { repo: REPO, targetBranch: 'main', pr: { number } })
      ).json;

    await upload({ 'impacted-targets': '//app' }, { ...pr, headSha: oldSha });
    expect(await lookUp()).toMatchObject({
      state: 'not_ready',
      readiness: { hasImpactedTargets: false, requiresImpactedTargets: true },
    });

    await upload({ 'impacted-targets': '//app' }, pr);
    const entry = await lookUp();
    expect(entry.readiness.hasImpactedTargets).toBe(true);
    expect(entry.state).not.toBe('not_ready');
  });
});

describe('the 20 MiB limit', () => {
  /** Targets whose request body, as the service would read it, is exactly `bodyBytes` long. */
  function targetsMakingBody(pr: ResolvedContext, bodyBytes: number): string[] {
    const envelope = { repo: REPO, targetBranch: 'main', pr: { number: pr.prNumber, sha: pr.headSha } };
    const size = (targets: string[]) =>
      Buffer.byteLength(JSON.stringify({ ...envelope, impactedTargets: targets }));
    const target = (i: number) => `//services/${String(i).padStart(7, '0')}:${'x'.repeat(70)}`;
    const count = Math.floor((bodyBytes - size([])) / (target(0).length + 3)) - 1;
    const targets = Array.from({ length: count }, (_, i) => target(i));
    // One more: its quotes and comma take 3 bytes, its characters the rest.
    targets.push(`//pad:${'p'.repeat(bodyBytes - size(targets) - 3 - '//pad:'.length)}`);
    expect(size(targets)).toBe(bodyBytes);
    return targets;
  }

  it('sends a list whose body is exactly 20 MiB as a list', async () => {
    const pr = pullRequest();
    const targets = targetsMakingBody(pr, MAX_BODY_BYTES);

    const run = await upload({ 'impacted-targets-file': targetsFile(targets.join('\n')) }, pr);

    const stored = storedTargets(pr);
    expect(stored).toHaveLength(targets.length);
    expect(stored === 'ALL' ? [] : [stored?.[0], stored?.at(-1)]).toEqual([targets[0], targets.at(-1)]);
    expect(run.outputs).toMatchObject({
      'impacted-targets-count': targets.length,
      'impacted-targets-sent': 'list',
      'impacted-targets-fallback-reason': '',
    });
    expect(uploadRequests()[0]?.headers['content-length']).toBe(String(MAX_BODY_BYTES));
    expect(run.warnings).toEqual([]);
  });

  it('sends ALL, with a warning that says why, when the body would be one byte more', async () => {
    const pr = pullRequest();
    const targets = targetsMakingBody(pr, MAX_BODY_BYTES + 1);

    const run = await upload({ 'impacted-targets-file': targetsFile(JSON.stringify(targets)) }, pr);

    expect(storedTargets(pr)).toBe('ALL');
    const reason = `the list of ${targets.length} targets makes a request body of ${MAX_BODY_BYTES + 1} bytes, over the service's limit of 20 MiB (${MAX_BODY_BYTES} bytes)`;
    expect(run.outputs).toMatchObject({
      'impacted-targets-count': targets.length,
      'impacted-targets-sent': 'ALL',
      'impacted-targets-fallback-reason': reason,
    });
    expect(run.warnings).toEqual([
      `Sending ALL instead of the impacted targets of PR #${pr.prNumber}: ${reason}.`,
    ]);
    expect(run.summary).toContain('ALL instead of the list, because the list of');
    expect(run.failure).toBeUndefined();
  });
});

describe('authentication', () => {
  it('authenticates a fork PR by its workflow run id and never sends the token', async () => {
    const pr = pullRequest({ isFork: true });

    const run = await upload({ 'impacted-targets': '//fork:change' }, pr);

    expect(storedTargets(pr)).toEqual(['//fork:change']);
    const [request] = uploadRequests();
    expect(request?.headers['x-forked-workflow-run-id']).toBe(RUN_ID);
    expect(request?.headers['x-api-token']).toBeUndefined();
    expect(run.summary).toContain(`the fork's workflow run ${RUN_ID}`);
  });

  it('fails a fork upload outside a workflow run, saying what is missing', async () => {
    const noRun = pullRequest({ isFork: true, runId: undefined });
    const error = await errorOf(upload({ 'impacted-targets': '//x' }, noRun));
    expect(error.message).toMatch(/comes from a fork, .* but this run has none/);
  });

  it('fails by default for a PR of this repository without a token, naming the usual causes', async () => {
    const pr = pullRequest();
    const error = await errorOf(upload({ 'api-token': '', 'impacted-targets': '//x' }, pr));
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/^Input "api-token": is empty, so the impacted targets of PR #\d+ /);
    expect(error.message).toMatch(/Dependabot/);
    expect(error.message).toMatch(/secret not passed to the job/);
    expect(error.message).toMatch(/set on-missing-token to warn or skip/);
    expect(storedTargets(pr)).toBeUndefined();
    expect(uploadRequests()).toEqual([]);
  });

  it('warns and uploads nothing with on-missing-token: warn', async () => {
    const pr = pullRequest();
    const run = await upload(
      { 'api-token': '', 'impacted-targets': '//x\n//y', 'on-missing-token': 'warn' },
      pr,
    );
    expect(run.failure).toBeUndefined();
    expect(run.warnings).toHaveLength(1);
    expect(run.warnings[0]).toMatch(/Dependabot.*Nothing was uploaded \(on-missing-token: warn\)\.$/);
    expect(run.outputs).toEqual({
      response: '',
      'impacted-targets-count': 2,
      'impacted-targets-sent': '',
      'impacted-targets-fallback-reason': '',
    });
    expect(run.summary).toContain('## ⚠️ Impacted targets not uploaded for');
    expect(uploadRequests()).toEqual([]);
  });

  it('goes on quietly with on-missing-token: skip', async () => {
    const pr = pullRequest();
    const run = await upload({ 'api-token': '', 'impacts-all': 'true', 'on-missing-token': 'skip' }, pr);
    expect(run.failure).toBeUndefined();
    expect(run.warnings).toEqual([]);
    expect(run.infos.join('\n')).toMatch(/Nothing was uploaded \(on-missing-token: skip\)/);
    expect(run.outputs['impacted-targets-sent']).toBe('');
    expect(storedTargets(pr)).toBeUndefined();
  });

  it('still refuses a bad targets file when it would skip the upload', async () => {
    const error = await errorOf(
      upload({ 'api-token': '', 'impacted-targets': '[1]', 'on-missing-token': 'skip' }, pullRequest()),
    );
    expect(error.message).toMatch(/^Input "impacted-targets": entry 1 of the JSON array is the number 1/);
  });
});

describe('the summary', () => {
  it('shows the count and the first targets, escaped, in a collapsed block', async () => {
    const targets = ['<script>alert(1)</script>', 'a|b', ...Array.from({ length: 60 }, (_, i) => `//t:${i}`)];
    const run = await upload({ 'impacted-targets': JSON.stringify(targets) }, pullRequest());

    expect(run.summary).toContain('## 🎯 62 impacted targets uploaded for');
    // The outcome leads: the PR it was for, then the targets; the request's size and token collapsed.
    expect(run.summary.split('\n\n')[1]).toMatch(
      /^For \[[^\]]+#<!-- -->\d+\]\([^)]+\) at <code>[0-9a-f]{7}<\/code>, into <code>main<\/code>\.$/,
    );
    const request = run.summary.indexOf('<details><summary>The request</summary>');
    expect(request).toBeGreaterThan(run.summary.indexOf('<summary>First 50 of 62 targets</summary>'));
    expect(run.summary.indexOf('Request body')).toBeGreaterThan(request);
    expect(run.summary).toContain('| Sent | a list of 62 targets |');
    expect(run.summary).toContain('<details><summary>First 50 of 62 targets</summary>');
    expect(run.summary).toContain('- &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(run.summary).toContain('- a&#124;b');
    expect(run.summary).toContain('- //t:47\n');
    expect(run.summary).not.toContain('//t:48');
    expect(run.summary).not.toContain('<script>');
  });

  it('writes a large count with thousands separators', async () => {
    const targets = Array.from({ length: 1_234 }, (_, i) => `//t:${i}`);
    const run = await upload({ 'impacted-targets': JSON.stringify(targets) }, pullRequest());

    expect(run.summary).toContain('## 🎯 1,234 impacted targets uploaded for');
  });
});

describe('the action end to end', () => {
  const opened = () => example('pull_request', (payload) => payload.action === 'opened');
  const actionInputs = (inputs: Record<string, string>) => ({
    operation: 'set-impacted-targets',
    'api-url': emu.current.url,
    ...inputs,
  });
  const repoOf = (payload: ReturnType<typeof opened>) => ({
    host: 'github.com',
    owner: payload.repository.owner.login,
    name: payload.repository.name,
  });
  const GITHUB_REPOSITORY_ENV = (payload: ReturnType<typeof opened>) => ({
    GITHUB_REPOSITORY: payload.repository.full_name,
    // The merge commit a pull_request run checks out: never the sha to upload for.
    GITHUB_SHA: 'f'.repeat(40),
  });

  it('uploads for the head sha of a pull_request event with the token', async () => {
    const payload = opened();
    const file = targetsFile('["//app:server", "//lib:util"]');

    const run = await runAction({
      inputs: actionInputs({ 'api-token': emu.current.token, 'impacted-targets-file': file }),
      eventName: 'pull_request',
      payload,
      env: GITHUB_REPOSITORY_ENV(payload),
    });

    expect(run.error).toBe('');
    expect(run.outputs).toMatchObject({
      'pr-number': String(payload.pull_request.number),
      'target-branch': payload.pull_request.base.ref,
      'impacted-targets-count': '2',
      'impacted-targets-sent': 'list',
      'impacted-targets-fallback-reason': '',
      response: '{}',
    });
    const info = emu.current.engine.core.pullRequest(repoOf(payload), payload.pull_request.number);
    expect(info.targetsBySha.get(payload.pull_request.head.sha)).toEqual(['//app:server', '//lib:util']);
    expect(info.targetsBySha.has('f'.repeat(40))).toBe(false);
    expect(uploadRequests()[0]?.headers['x-api-token']).toBe(emu.current.token);
    expect(run.summary).toContain('## 🎯 2 impacted targets uploaded for');
    const logLines = run.log.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    for (const text of [...logLines, run.summary, ...Object.values(run.outputs)]) {
      expect(text).not.toContain(emu.current.token);
    }
  });

  // The examples hold no fork PR; this copy of a real PR points its head at another real repository.
  it('uploads for a fork PR with the run id of its workflow and no token', async () => {
    const payload = opened();
    payload.pull_request.head.repo = example('merge_group').repository;

    const run = await runAction({
      inputs: actionInputs({ 'impacted-targets': '//from:fork' }),
      eventName: 'pull_request',
      payload,
      env: { ...GITHUB_REPOSITORY_ENV(payload), GITHUB_RUN_ID: '777001' },
    });

    expect(run.error).toBe('');
    expect(run.outputs['impacted-targets-sent']).toBe('list');
    const info = emu.current.engine.core.pullRequest(repoOf(payload), payload.pull_request.number);
    expect(info.targetsBySha.get(payload.pull_request.head.sha)).toEqual(['//from:fork']);
    const [request] = uploadRequests();
    expect(request?.headers['x-forked-workflow-run-id']).toBe('777001');
    expect(request?.headers['x-api-token']).toBeUndefined();
  });

  it('fails the step of a same-repository PR whose job got no token', async () => {
    const payload = opened();

    const run = await runAction({
      inputs: actionInputs({ 'impacted-targets': '//x' }),
      eventName: 'pull_request',
      payload,
      env: GITHUB_REPOSITORY_ENV(payload),
    });

    expect(run.failed).toBe(true);
    expect(run.error).toMatch(/^Input "api-token": is empty, so the impacted targets of PR #2 .*Dependabot/);
    expect(uploadRequests()).toEqual([]);
  });
});
