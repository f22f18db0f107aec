// One CircleCI pipeline of a .circleci/config.yml, run as CircleCI runs it on a machine runner (the
// circleci CLI compiles configs on CircleCI's servers and runs jobs in Docker, neither of which is here):
// the orb this repository packs (helpers/orb.ts) expanded under its alias, << parameters.x >> and
// << pipeline.x >> filled in, the workflows whose `when` holds, each job when the jobs it requires passed
// and its branch filters let it, an approval job approved (the person presses it), and each job in a
// fresh directory: `checkout` clones the repository at the pipeline's commit, `run` runs with
// `bash -eo pipefail -c` (BASH_ENV kept for the job's later steps), `when: always` steps run after a
// failure as store_artifacts and store_test_results do, persist_to_workspace and attach_workspace carry
// files to later jobs, and the artifacts and test results stored are recorded. A job's environment is the pipeline's variables, its contexts', the
// job's `environment` and the step's.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { packOrb, type Element, type PackedOrb } from './orb.js';
import { runScript } from './run-script.js';

export interface JobResult {
  job: string;
  state: 'passed' | 'failed' | 'approved' | 'not run';
  output: string;
  artifacts: string[];
  /** The job's working directory. */
  dir: string;
}

export interface CircleciPipeline {
  /** The repository `checkout` clones (a path), and the commit it checks out. */
  repository: string;
  sha: string;
  /** CIRCLE_* and the other variables CircleCI sets for the pipeline's jobs. */
  env: Record<string, string>;
  /** << pipeline.x >> values, e.g. trigger_source, schedule.name. */
  pipeline: Record<string, string>;
  /** Context name -> its variables. */
  contexts: Record<string, Record<string, string>>;
  /** Where the jobs' directories and the workspace go. */
  root: string;
}

/** Steps that run after a failed step too (a failed job's tests and artifacts are there to read). */
const STORED_WHATEVER_HAPPENED = ['store_artifacts', 'store_test_results'];

const PLACEHOLDER = /<<\s*(parameters|pipeline)\.([\w.-]+)\s*>>/g;

/** A value with << parameters.x >> / << pipeline.x >> filled in; a lone placeholder keeps its type. */
function fill(
  value: unknown,
  parameters: Record<string, unknown>,
  pipeline: Record<string, string>,
): unknown {
  if (typeof value === 'string') {
    const lookup = (kind: string, name: string) => {
      const table: Record<string, unknown> = kind === 'parameters' ? parameters : pipeline;
      if (!(name in table)) throw new Error(`circleci-pipeline: << ${kind}.${name} >> has no value`);
      return table[name];
    };
    const lone = /^<<\s*(parameters|pipeline)\.([\w.-]+)\s*>>$/.exec(value);
    if (lone) return lookup(lone[1]!, lone[2]!);
    return value.replace(PLACEHOLDER, (_, kind: string, name: string) => String(lookup(kind, name)));
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, parameters, pipeline));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, parameters, pipeline)]));
  return value;
}

/** The declared parameters' defaults overlaid with the arguments given. */
function argumentsFor(element: Element, given: Element): Record<string, unknown> {
  const declared = (element.parameters ?? {}) as Record<string, { default?: unknown }>;
  const values: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(declared)) {
    if (name in given) values[name] = given[name];
    else if ('default' in parameter) values[name] = parameter.default;
    else throw new Error(`circleci-pipeline: parameter ${name} is required`);
  }
  return values;
}

/** A workflow's `when`: equal, not, and, or over filled-in values, or a plain truthy value. */
function holds(condition: unknown): boolean {
  if (condition && typeof condition === 'object' && !Array.isArray(condition)) {
    const [[logic, operand]] = Object.entries(condition) as [[string, unknown]];
    if (logic === 'equal') {
      const [first, ...rest] = operand as unknown[];
      return rest.every((value) => value === first);
    }
    if (logic === 'not') return !holds(operand);
    if (logic === 'and') return (operand as unknown[]).every(holds);
    if (logic === 'or') return (operand as unknown[]).some(holds);
    throw new Error(`circleci-pipeline: when: ${logic} is not a logic statement this stand-in knows`);
  }
  return Boolean(condition);
}

/** Whether a job's branch filters let this branch through (only and ignore: names or /regex/). */
function branchAllowed(filters: unknown, branch: string): boolean {
  const branches = ((filters ?? {}) as { branches?: { only?: unknown; ignore?: unknown } }).branches ?? {};
  const matches = (patterns: unknown) =>
    [patterns]
      .flat()
      .map(String)
      .some((pattern) =>
        /^\/.*\/$/.test(pattern) ? new RegExp(`^${pattern.slice(1, -1)}$`).test(branch) : pattern === branch,
      );
  if (branches.only !== undefined && !matches(branches.only)) return false;
  return branches.ignore === undefined || !matches(branches.ignore);
}

export class CircleciRun {
  private readonly orbs: Record<string, PackedOrb> = {};
  private readonly config: Element;
  private readonly workspace: string;

  constructor(
    configYaml: string,
    private readonly run: CircleciPipeline,
  ) {
    this.config = parse(configYaml) as Element;
    for (const [alias, reference] of Object.entries((this.config.orbs ?? {}) as Record<string, string>)) {
      if (!/^[\w-]+\/merge-queue@/.test(reference))
        throw new Error(`circleci-pipeline: no stand-in for the orb ${reference}`);
      this.orbs[alias] = packOrb(resolve('orb'));
    }
    this.workspace = join(run.root, 'workspace');
    mkdirSync(this.workspace, { recursive: true });
  }

  /** Every job of every workflow whose `when` holds, in order. */
  async start(): Promise<JobResult[]> {
    const results: JobResult[] = [];
    const workflows = (this.config.workflows ?? {}) as Record<string, { when?: unknown; jobs: unknown[] }>;
    for (const workflow of Object.values(workflows)) {
      if ('when' in workflow && !holds(fill(workflow.when, {}, this.run.pipeline))) continue;
      const done = new Set<string>();
      for (const entry of workflow.jobs) {
        const [name, given] = typeof entry === 'string' ? [entry, {}] : Object.entries(entry as Element)[0]!;
        const args = (given ?? {}) as Element;
        const result = await this.job(name, args, done);
        results.push(result);
        if (result.state === 'passed' || result.state === 'approved') done.add(String(args.name ?? name));
      }
    }
    return results;
  }

  private async job(name: string, args: Element, done: Set<string>): Promise<JobResult> {
    const dir = join(this.run.root, String(args.name ?? name).replace(/\W+/g, '-'));
    const result: JobResult = {
      job: String(args.name ?? name),
      state: 'not run',
      output: '',
      artifacts: [],
      dir,
    };
    const required = [args.requires ?? []].flat().map(String);
    if (required.some((job) => !done.has(job))) return result;
    if (!branchAllowed(args.filters, this.run.env.CIRCLE_BRANCH ?? '')) return result;
    if (args.type === 'approval') return { ...result, state: 'approved' };
    const definition = this.definition(name);
    const parameters = argumentsFor(definition, args);
    const job = fill(definition, parameters, this.run.pipeline) as Element;
    mkdirSync(dir, { recursive: true });
    const env: Record<string, string> = {
      ...this.run.env,
      CIRCLE_JOB: result.job,
      CIRCLE_WORKING_DIRECTORY: dir,
      BASH_ENV: `${dir}.bash_env`,
      ...Object.assign({}, ...[args.context ?? []].flat().map((c) => this.run.contexts[String(c)] ?? {})),
      ...this.strings(job.environment),
    };
    writeFileSync(env.BASH_ENV!, '');
    let failed = false;
    for (const step of this.expand(job.steps as unknown[], name)) {
      const [kind, body] = typeof step === 'string' ? [step, {}] : Object.entries(step as Element)[0]!;
      const spec = (typeof body === 'string' ? { command: body } : (body ?? {})) as Element;
      if (failed && spec.when !== 'always' && !STORED_WHATEVER_HAPPENED.includes(kind)) continue;
      const ok = await this.step(kind, spec, env, result);
      failed ||= !ok;
    }
    return { ...result, state: failed ? 'failed' : 'passed' };
  }

  /** A job of the config, or of an orb as alias/job. */
  private definition(name: string): Element {
    const own = (this.config.jobs ?? {}) as Record<string, Element>;
    if (own[name]) return own[name];
    const [alias, job] = name.split('/') as [string, string];
    const found = this.orbs[alias]?.jobs[job];
    if (!found) throw new Error(`circleci-pipeline: no job ${name}`);
    return found;
  }

  /** Steps with every invocation of a command (the config's, or an orb's) replaced by its steps. */
  private expand(steps: unknown[], jobName: string): unknown[] {
    const alias = jobName.includes('/') ? jobName.split('/')[0]! : undefined;
    return steps.flatMap((step) => {
      if (typeof step === 'string') return [step];
      const [name, given] = Object.entries(step as Element)[0]!;
      const [orbAlias, commandName] = name.includes('/') ? name.split('/') : [alias, name];
      const command = orbAlias ? this.orbs[orbAlias]?.commands[commandName!] : undefined;
      if (!command) return [step];
      const filled = fill(command, argumentsFor(command, (given ?? {}) as Element), this.run.pipeline);
      return this.expand((filled as Element).steps as unknown[], `${orbAlias}/x`);
    });
  }

  private strings(value: unknown): Record<string, string> {
    return Object.fromEntries(Object.entries((value ?? {}) as Element).map(([k, v]) => [k, String(v)]));
  }

  /** One built-in step; answers whether it succeeded. */
  private async step(kind: string, spec: Element, env: Record<string, string>, result: JobResult) {
    const at = (path: unknown) => resolve(result.dir, String(path ?? '.'));
    switch (kind) {
      case 'checkout':
        execFileSync('git', ['clone', '-q', this.run.repository, '.'], { cwd: result.dir });
        execFileSync('git', ['checkout', '-q', this.run.sha], { cwd: result.dir });
        return true;
      case 'run': {
        // Through sh, with stdin from /dev/null as on a runner: bash whose stdin is a socket (as a child
        // of Node's is) takes itself for a remote shell and reads ~/.bashrc instead of BASH_ENV.
        const run = await runScript(
          '/bin/sh',
          ['-c', 'exec /bin/bash -eo pipefail -c "$1" </dev/null', 'sh', String(spec.command)],
          { ...env, ...this.strings(spec.environment) },
          { cwd: result.dir },
        );
        result.output += `\n# ${String(spec.name ?? spec.command)}\n${run.stdout}${run.stderr}`;
        return run.code === 0;
      }
      case 'persist_to_workspace':
        for (const path of spec.paths as string[])
          cpSync(join(at(spec.root), path), join(this.workspace, path), { recursive: true });
        return true;
      case 'attach_workspace':
        cpSync(this.workspace, at(spec.at), { recursive: true });
        return true;
      case 'store_artifacts':
      case 'store_test_results':
        if (existsSync(at(spec.path))) result.artifacts.push(String(spec.path));
        return true;
      default:
        throw new Error(`circleci-pipeline: no stand-in for the step ${kind}`);
    }
  }
}
