// One run of a GitHub Actions workflow file, as GitHub's runner runs it on a self-hosted runner on this
// machine (GitHub's runner needs github.com, and act needs Docker: neither is here). The workflow runs
// only when its `on:` takes the event; jobs run in the order their `needs` allow, each when its `if:`
// holds (expressions by GitHub's own evaluator, helpers/github-expressions.ts); steps run in order, each
// when its `if:` holds, `continue-on-error` kept; a step of this action runs action.yml's `runs.main`
// on Node 24 (this Node when there is none) with every input as INPUT_* (action.yml's defaults, then
// `with:`); `run:` steps run with `bash --noprofile --norc -eo pipefail`; GITHUB_OUTPUT, GITHUB_ENV and
// GITHUB_STEP_SUMMARY are files per step; actions/checkout fetches the commit from `origin`, and
// upload-artifact and download-artifact keep artifacts in a folder of the run; actions/cache keeps its
// entries in a folder of the root, across runs.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { condition, interpolate, interpolateAll, type Contexts } from './github-expressions.js';
import { git } from './git-repo.js';
import { runScript } from './run-script.js';
import { TOOLS } from './tools.js';

export interface StepResult {
  name: string;
  outcome: 'success' | 'failure' | 'skipped';
  log: string;
  outputs: Record<string, string>;
}

export interface JobResult {
  job: string;
  result: 'success' | 'failure' | 'skipped';
  steps: StepResult[];
  outputs: Record<string, string>;
  /** Every step's job summary, in order. */
  summary: string;
  workspace: string;
}

export interface WorkflowEvent {
  name: string;
  payload: Record<string, unknown>;
  /** workflow_dispatch: the inputs given (the rest take their defaults). */
  inputs?: Record<string, string>;
  /** GITHUB_SHA and GITHUB_REF of the run. */
  sha: string;
  ref: string;
}

export interface WorkflowOptions {
  repository: string;
  /** The git repository actions/checkout fetches from (a path). */
  origin: string;
  secrets: Record<string, string>;
  /** Where each job's folders and the run's artifacts go. */
  root: string;
  /** The runner machine's environment beside what the runner sets (e.g. GITHUB_API_URL). */
  env?: Record<string, string>;
  /** Added under `with:` of each step of this action, as the README's rehearsal says to. */
  actionInputs?: Record<string, string>;
}

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}
interface Job {
  needs?: string | string[];
  if?: string;
  env?: Record<string, unknown>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: unknown;
  env?: Record<string, unknown>;
  jobs: Record<string, Job>;
}

const ACTION = parse(readFileSync('action.yml', 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: { main: string };
};
const ACTION_USES = /^[\w.-]+\/merge-queue-action@/;
const DEFAULT_TYPES: Record<string, string[]> = { pull_request: ['opened', 'synchronize', 'reopened'] };

/** Whether `on:` starts a run for the event (its name, and its activity types when listed). */
export function triggers(on: unknown, event: WorkflowEvent): boolean {
  if (typeof on === 'string') return on === event.name;
  if (Array.isArray(on)) return on.includes(event.name);
  const table = (on ?? {}) as Record<string, { types?: string[]; branches?: string[] } | null>;
  if (!(event.name in table)) return false;
  const filter = table[event.name] ?? {};
  const types = filter.types ?? DEFAULT_TYPES[event.name];
  const action = event.payload.action as string | undefined;
  if (types && action !== undefined && !types.includes(action)) return false;
  return !filter.branches || filter.branches.includes(event.ref.replace(/^refs\/heads\//, ''));
}

/** Runs the workflow for the event: the jobs' results, or none when `on:` does not take the event. */
export async function runWorkflow(
  text: string,
  event: WorkflowEvent,
  options: WorkflowOptions,
): Promise<JobResult[]> {
  const workflow = parse(text) as Workflow;
  if (!triggers(workflow.on, event)) return [];
  const results = new Map<string, JobResult>();
  const needsOf = (job: Job) => [job.needs ?? []].flat();
  for (let left = Object.keys(workflow.jobs); left.length > 0;) {
    const ready = left.find((name) => needsOf(workflow.jobs[name]!).every((need) => results.has(need)));
    if (!ready) throw new Error(`github-workflow: the needs of ${left.join(', ')} never resolve`);
    left = left.filter((name) => name !== ready);
    const needs = Object.fromEntries(
      needsOf(workflow.jobs[ready]!).map((need) => [need, results.get(need)!] as const),
    );
    results.set(ready, await runJob(ready, workflow, needs, event, options));
  }
  return [...results.values()];
}

function baseContexts(workflow: Workflow, event: WorkflowEvent, options: WorkflowOptions): Contexts {
  const dispatch = ((workflow.on as Record<string, { inputs?: Record<string, { default?: unknown }> }>)
    ?.workflow_dispatch?.inputs ?? {}) as Record<string, { default?: unknown }>;
  const inputs = Object.fromEntries(
    Object.entries(dispatch).map(([name, spec]) => [name, event.inputs?.[name] ?? spec.default ?? '']),
  );
  return {
    github: {
      event: event.payload,
      event_name: event.name,
      repository: options.repository,
      repository_owner: options.repository.split('/')[0],
      sha: event.sha,
      ref: event.ref,
      token: 'ghs_runner-token-stand-in',
      server_url: 'https://github.com',
      api_url: options.env?.GITHUB_API_URL ?? 'https://api.github.com',
      run_id: options.env?.GITHUB_RUN_ID ?? '4242',
    },
    inputs,
    secrets: options.secrets,
    vars: {},
  };
}

async function runJob(
  name: string,
  workflow: Workflow,
  needs: Record<string, JobResult>,
  event: WorkflowEvent,
  options: WorkflowOptions,
): Promise<JobResult> {
  const job = workflow.jobs[name]!;
  const dir = resolve(options.root, name);
  const workspace = join(dir, 'work');
  mkdirSync(join(dir, 'temp'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const contexts: Contexts = {
    ...baseContexts(workflow, event, options),
    needs: Object.fromEntries(
      Object.entries(needs).map(([need, result]) => [
        need,
        { result: result.result, outputs: result.outputs },
      ]),
    ),
  };
  const needFailed = Object.values(needs).some((result) => result.result !== 'success');
  const skipped = { job: name, steps: [], outputs: {}, summary: '', workspace };
  if (!condition(job.if, contexts, needFailed)) return { ...skipped, result: 'skipped' };

  const env: Record<string, string> = {
    ...jobEnvironment(name, dir, workspace, event, options),
    ...interpolateAll(workflow.env, contexts),
    ...interpolateAll(job.env, contexts),
  };
  const steps: StepResult[] = [];
  const stepsContext: Record<string, { outcome: string; outputs: Record<string, string> }> = {};
  let failed = false;
  let summary = '';
  /** What steps do after the job, as actions/cache saves (only after a job that succeeded). */
  const posts: (() => void)[] = [];
  for (const [index, step] of job.steps.entries()) {
    const stepContexts = { ...contexts, steps: stepsContext, env };
    const stepName = step.name ?? step.uses ?? step.run!.split('\n')[0]!;
    if (!condition(step.if, stepContexts, failed)) {
      steps.push({ name: stepName, outcome: 'skipped', log: '', outputs: {} });
      continue;
    }
    const files = stepFiles(dir, index);
    const stepEnv = { ...env, ...interpolateAll(step.env, stepContexts), ...files };
    const { ok, log } = await runStep(step, stepContexts, stepEnv, workspace, options, posts);
    const outputs = readOutputs(files.GITHUB_OUTPUT);
    Object.assign(env, readOutputs(files.GITHUB_ENV));
    summary += readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8');
    steps.push({ name: stepName, outcome: ok ? 'success' : 'failure', log, outputs });
    if (step.id) stepsContext[step.id] = { outcome: ok ? 'success' : 'failure', outputs };
    if (!ok && !step['continue-on-error']) failed = true;
  }
  if (!failed) posts.forEach((post) => post());
  const outputs = interpolateAll(job.outputs, { ...contexts, steps: stepsContext });
  return { job: name, result: failed ? 'failure' : 'success', steps, outputs, summary, workspace };
}

function jobEnvironment(
  job: string,
  dir: string,
  workspace: string,
  event: WorkflowEvent,
  options: WorkflowOptions,
): Record<string, string> {
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(event.payload));
  return {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_JOB: job,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: options.repository,
    GITHUB_REPOSITORY_OWNER: options.repository.split('/')[0]!,
    GITHUB_SHA: event.sha,
    GITHUB_REF: event.ref,
    GITHUB_WORKSPACE: workspace,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: join(dir, 'temp'),
    ...options.env,
  };
}

function stepFiles(dir: string, index: number) {
  const files = {
    GITHUB_OUTPUT: join(dir, `output-${index}`),
    GITHUB_ENV: join(dir, `env-${index}`),
    GITHUB_STEP_SUMMARY: join(dir, `summary-${index}.md`),
  };
  for (const file of Object.values(files)) writeFileSync(file, '');
  return files;
}

/** The `name=value` and `name<<DELIMITER` lines of a GITHUB_OUTPUT or GITHUB_ENV file. */
function readOutputs(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    const plain = /^([^=]+)=(.*)$/.exec(lines[i]!);
    if (heredoc) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]!);
      values[heredoc[1]!] = value.join('\n');
    } else if (plain) values[plain[1]!] = plain[2]!;
  }
  return values;
}

async function runStep(
  step: Step,
  contexts: Contexts,
  env: Record<string, string>,
  workspace: string,
  options: WorkflowOptions,
  posts: (() => void)[],
): Promise<{ ok: boolean; log: string }> {
  const given = interpolateAll(step.with, contexts);
  if (step.run !== undefined) {
    const script = join(env.RUNNER_TEMP!, `step-${Date.now()}.sh`);
    writeFileSync(script, interpolate(step.run, contexts));
    return outcome(
      runScript('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], env, { cwd: workspace }),
    );
  }
  const uses = step.uses ?? '';
  if (ACTION_USES.test(uses))
    return runThisAction({ ...given, ...options.actionInputs }, contexts, env, workspace);
  if (uses.startsWith('actions/checkout@')) return checkout(given, contexts, workspace, options.origin);
  if (uses.startsWith('actions/upload-artifact@')) return uploadArtifact(given, workspace, options.root);
  if (uses.startsWith('actions/download-artifact@')) return downloadArtifact(given, workspace, options.root);
  if (uses.startsWith('actions/cache@')) return cache(given, workspace, options.root, posts);
  throw new Error(`github-workflow: no stand-in for ${uses}`);
}

async function outcome(run: Promise<{ code: number; stdout: string; stderr: string }>) {
  const { code, stdout, stderr } = await run;
  return { ok: code === 0, log: stdout + stderr };
}

/** This checkout's action.yml `runs.main`, with action.yml's defaults under the inputs given. */
function runThisAction(
  given: Record<string, string>,
  contexts: Contexts,
  env: Record<string, string>,
  workspace: string,
) {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(ACTION.inputs)) {
    if (spec.default !== undefined) inputs[name] = interpolate(spec.default, contexts);
  }
  Object.assign(inputs, given);
  const inputEnv = Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, value]),
  );
  const node = TOOLS.node24().path ?? process.execPath;
  return outcome(
    runScript(
      node,
      [resolve(ACTION.runs.main)],
      { ...env, ...inputEnv },
      { cwd: workspace, timeoutMs: 240_000 },
    ),
  );
}

/** actions/checkout: the commit (`ref`, or the run's sha) fetched from origin, at `fetch-depth` (1). */
async function checkout(
  given: Record<string, string>,
  contexts: Contexts,
  workspace: string,
  origin: string,
) {
  const ref = given.ref || String((contexts.github as { sha: string }).sha);
  const depth = Number(given['fetch-depth'] ?? '1');
  git(workspace, 'init', '-q');
  git(workspace, 'remote', 'add', 'origin', `file://${resolve(origin)}`);
  if (depth === 0) {
    git(
      workspace,
      'fetch',
      '-q',
      'origin',
      '+refs/heads/*:refs/remotes/origin/*',
      '+refs/tags/*:refs/tags/*',
    );
    git(workspace, 'checkout', '-q', '--detach', ref);
  } else {
    git(
      workspace,
      '-c',
      'uploadpack.allowAnySHA1InWant=true',
      'fetch',
      '-q',
      `--depth=${depth}`,
      'origin',
      ref,
    );
    git(workspace, 'checkout', '-q', '--detach', 'FETCH_HEAD');
  }
  return { ok: true, log: `checked out ${ref}` };
}

function uploadArtifact(given: Record<string, string>, workspace: string, root: string) {
  const paths = given
    .path!.split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const found = paths.map((path) => resolve(workspace, path)).filter((path) => existsSync(path));
  if (found.length === 0) {
    const fail = given['if-no-files-found'] === 'error';
    return { ok: !fail, log: `No files were found with the provided path: ${paths.join(', ')}` };
  }
  const into = join(root, 'artifacts', given.name ?? 'artifact');
  for (const path of found) {
    cpSync(path, statSync(path).isDirectory() ? into : join(into, basename(path)), { recursive: true });
  }
  return { ok: true, log: `uploaded ${found.length} path(s) as ${given.name}` };
}

function downloadArtifact(given: Record<string, string>, workspace: string, root: string) {
  const from = join(root, 'artifacts', given.name ?? 'artifact');
  if (!existsSync(from)) return { ok: false, log: `Artifact not found: ${given.name}` };
  cpSync(from, resolve(workspace, given.path ?? '.'), { recursive: true });
  return { ok: true, log: `downloaded ${given.name}` };
}

/**
 * actions/cache: `path` restored from the entry of `key`, else from the newest entry whose key starts
 * with one of `restore-keys`; saved under `key` after the job when that key was not restored.
 */
function cache(given: Record<string, string>, workspace: string, root: string, posts: (() => void)[]) {
  const entries = join(root, 'caches');
  const key = given.key!;
  const prefixes = (given['restore-keys'] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const held = existsSync(entries) ? readdirSync(entries) : [];
  const newest = held
    .filter((entry) => prefixes.some((prefix) => entry.startsWith(prefix)))
    .sort((a, b) => statSync(join(entries, b)).mtimeMs - statSync(join(entries, a)).mtimeMs)[0];
  const hit = held.includes(key) ? key : newest;
  if (hit) cpSync(join(entries, hit), workspace, { recursive: true });
  if (hit !== key) {
    posts.push(() => {
      const path = resolve(workspace, given.path!);
      if (existsSync(path)) cpSync(path, join(entries, key, given.path!), { recursive: true });
    });
  }
  return { ok: true, log: hit ? `Cache restored from key: ${hit}` : `Cache not found for key: ${key}` };
}
