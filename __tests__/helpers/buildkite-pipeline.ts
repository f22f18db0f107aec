// One Buildkite build of a pipeline.yml, run as Buildkite and its agent run it (neither is installable
// here: the agent is a binary from Buildkite's servers): the upload interpolates the build's variables
// into the steps ($$ stays a literal $ for the job's shell); each step's `if` is evaluated against the
// build; a block step is unblocked, as the person who presses it would; a step runs when the steps it
// depends on passed (or finished, with allow_dependency_failure); a command runs with `bash -e -c` in the
// checkout with the step's env, as the agent's default shell, and its artifact_paths are uploaded whatever its exit code; a
// failed step with soft_fail is 'soft failed'; a step's plugins run their hooks: this repository's plugin
// its hooks/command (configured through BUILDKITE_PLUGIN_* variables by the agent's rules), the artifacts
// plugin its download (globs matched against the artifacts uploaded). buildkite-agent itself is
// helpers/buildkite-agent.ts's stand-in.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { globSync } from 'tinyglobby';
import { parse } from 'yaml';
import { BuildkiteAgentStandIn } from './buildkite-agent.js';
import { runScript } from './run-script.js';

/** Our plugin's name in a pipeline, at any ref. */
const OUR_PLUGIN = /^github\.com\/your-org\/merge-queue-action(\.git)?#/;
const ARTIFACTS_PLUGIN = /^artifacts#v\d/;

export interface StepResult {
  step: string;
  state: 'passed' | 'failed' | 'soft failed' | 'skipped' | 'unblocked';
  code?: number;
  output: string;
}

type Step = Record<string, unknown>;

/** The agent's names for a plugin's configuration: upper case, - and spaces to _, lists _0, maps _KEY. */
export function pluginVariables(prefix: string, value: unknown): Record<string, string> {
  if (Array.isArray(value))
    return Object.assign({}, ...value.map((item, i) => pluginVariables(`${prefix}_${i}`, item)));
  if (value && typeof value === 'object')
    return Object.assign(
      {},
      ...Object.entries(value).map(([key, item]) =>
        pluginVariables(`${prefix}_${key.toUpperCase().replace(/[-\s]/g, '_')}`, item),
      ),
    );
  return { [prefix]: String(value) };
}

/** The upload's interpolation: $NAME, ${NAME} and ${NAME:-default} from the build; $$ is a literal $. */
function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(
      /\$\$|\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}|\$([A-Za-z_]\w*)/g,
      (whole, braced?: string, fallback?: string, bare?: string) => {
        if (whole === '$$') return '$';
        const name = (braced ?? bare)!;
        return env[name] || (fallback ?? '');
      },
    );
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  return value;
}

/** The build's values a step's `if` can read. */
function buildValues(env: Record<string, string>): Record<string, string | null> {
  const pr = env.BUILDKITE_PULL_REQUEST;
  return {
    'build.pull_request.id': pr && pr !== 'false' ? pr : null,
    'build.pull_request.base_branch': env.BUILDKITE_PULL_REQUEST_BASE_BRANCH || null,
    'build.source': env.BUILDKITE_SOURCE ?? null,
    'build.branch': env.BUILDKITE_BRANCH ?? null,
  };
}

/** A step's `if`: comparisons (== and !=) of build values, strings and null, joined by && or ||. */
export function holds(condition: string, env: Record<string, string>): boolean {
  const values = buildValues(env);
  const operand = (text: string): string | null => {
    const term = text.trim();
    if (term === 'null') return null;
    const quoted = /^(["'])(.*)\1$/.exec(term);
    if (quoted) return quoted[2]!;
    if (term in values) return values[term]!;
    throw new Error(`buildkite-pipeline: '${term}' in if: is not a value this stand-in knows`);
  };
  return condition.split('||').some((any) =>
    any.split('&&').every((all) => {
      const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(all.trim());
      if (!comparison) throw new Error(`buildkite-pipeline: if: ${condition} is not a comparison`);
      const equal = operand(comparison[1]!) === operand(comparison[3]!);
      return comparison[2] === '==' ? equal : !equal;
    }),
  );
}

const stepName = (step: Step) => String(step.label ?? step.block ?? step.key ?? step.command);
const dependencies = (step: Step) => [step.depends_on ?? []].flat().map(String);

export class BuildkitePipeline {
  readonly agent: BuildkiteAgentStandIn;

  /**
   * `checkout` is the job's directory (the agent's checkout of the commit), `env` the build's and the
   * agent's variables (BUILDKITE_*, the secrets an environment hook exports), `agentDir` where the
   * buildkite-agent stand-in keeps its calls and artifacts.
   */
  constructor(
    private readonly checkout: string,
    private readonly env: Record<string, string>,
    agentDir: string,
  ) {
    this.agent = new BuildkiteAgentStandIn(agentDir);
  }

  async run(pipelineYaml: string): Promise<StepResult[]> {
    const { steps } = interpolate(parse(pipelineYaml), this.env) as { steps: Step[] };
    const results: StepResult[] = [];
    const passed = new Set<string>();
    const finished = new Set<string>();
    for (const step of steps) {
      const result = await this.runStep(step, step.allow_dependency_failure ? finished : passed);
      results.push(result);
      if (step.key && (result.state === 'passed' || result.state === 'unblocked'))
        passed.add(String(step.key));
      if (step.key && result.state !== 'skipped') finished.add(String(step.key));
    }
    return results;
  }

  private async runStep(step: Step, passed: Set<string>): Promise<StepResult> {
    const name = stepName(step);
    if (typeof step.if === 'string' && !holds(step.if, this.env))
      return { step: name, state: 'skipped', output: '' };
    if ('block' in step) return { step: name, state: 'unblocked', output: '' };
    if (dependencies(step).some((key) => !passed.has(key)))
      return { step: name, state: 'skipped', output: 'a step it depends on did not pass' };
    const env = {
      ...this.env,
      ...((step.env ?? {}) as Record<string, string>),
      PATH: `${this.agent.dir}:${this.env.PATH ?? process.env.PATH}`,
    };
    let output = '';
    let commandHook: Record<string, string> | undefined;
    for (const entry of (step.plugins ?? []) as Record<string, unknown>[]) {
      const [source, config] = Object.entries(entry)[0]!;
      if (OUR_PLUGIN.test(source)) {
        commandHook = this.ourPluginVariables(source, config);
      } else if (ARTIFACTS_PLUGIN.test(source)) {
        for (const file of this.uploaded([(config as { download: unknown }).download].flat().map(String))) {
          const download = await runScript(
            'buildkite-agent',
            ['artifact', 'download', String(file), '.'],
            env,
            {
              cwd: this.checkout,
            },
          );
          if (download.code !== 0) return { step: name, state: 'failed', code: download.code, output };
        }
      } else {
        throw new Error(`buildkite-pipeline: no stand-in for the plugin ${source}`);
      }
    }
    const run = commandHook
      ? await runScript(
          'bash',
          [resolve('hooks/command')],
          { ...env, ...commandHook },
          { cwd: this.checkout },
        )
      : await runScript('/bin/bash', ['-e', '-c', [step.command].flat().join('\n')], env, {
          cwd: this.checkout,
        });
    output += run.stdout + run.stderr;
    for (const file of globSync([step.artifact_paths ?? []].flat().map(String), { cwd: this.checkout })) {
      const upload = await runScript('buildkite-agent', ['artifact', 'upload', file], env, {
        cwd: this.checkout,
      });
      output += upload.stdout + upload.stderr;
    }
    const failed = step.soft_fail ? 'soft failed' : 'failed';
    return { step: name, state: run.code === 0 ? 'passed' : failed, code: run.code, output };
  }

  /** The uploaded artifacts each pattern matches (a pattern matching none stays, for its download to fail). */
  private uploaded(patterns: string[]): string[] {
    const stored = join(this.agent.dir, 'artifacts');
    const names = existsSync(stored)
      ? readdirSync(stored, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name).slice(stored.length + 1))
      : [];
    return patterns.flatMap((pattern) => {
      const matching = names.filter((name) => picomatch(pattern)(name));
      return matching.length > 0 ? matching : [pattern];
    });
  }

  /** What the agent sets for our plugin's hooks: its name, configuration, and the flattened variables. */
  private ourPluginVariables(source: string, config: unknown): Record<string, string> {
    const name = source.includes('.git#') ? 'MERGE_QUEUE_ACTION_GIT' : 'MERGE_QUEUE_ACTION';
    return {
      BUILDKITE_PLUGINS: JSON.stringify([{ [source]: config }]),
      BUILDKITE_PLUGIN_NAME: name,
      BUILDKITE_PLUGIN_CONFIGURATION: JSON.stringify(config),
      ...pluginVariables(`BUILDKITE_PLUGIN_${name}`, config),
    };
  }
}
