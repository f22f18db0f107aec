// The plugins' files and the ready examples for other CIs hand the CLI only operations and inputs the
// registry declares, so a renamed or removed input breaks this test rather than a user's pipeline: the
// GitLab components (spec inputs and the variables they set), the Buildkite plugin's schema and the
// example pipeline's configuration, and the Jenkinsfile's commands.
import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { COMMON_INPUTS } from '../../src/core/common-inputs.js';
import { OPERATIONS, isOperationName } from '../../src/core/operations/registry.js';
import { CLI_FLAGS } from '../../src/cli/args.js';
import { PINNED_ARCHIVE, PINNED_REF } from '../helpers/pins.js';

function inputsOf(operation: string): Set<string> {
  if (!isOperationName(operation)) throw new Error(`${operation} is not an operation of the registry`);
  return new Set([...COMMON_INPUTS, ...OPERATIONS[operation].inputs].map((spec) => spec.name));
}

/** The one fenced block of README.md in `language` that contains `marker`. */
function readmeBlock(language: string, marker: string): string {
  const blocks = [...readFileSync('README.md', 'utf8').matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)]
    .filter(([, lang, text]) => lang === language && text!.includes(marker))
    .map(([, , text]) => text!);
  expect(blocks).toHaveLength(1);
  return blocks[0]!;
}

/** MERGE_QUEUE_WAIT_TIMEOUT_MINUTES -> wait-timeout-minutes */
const inputOfVariable = (variable: string) =>
  variable.slice('MERGE_QUEUE_'.length).toLowerCase().replace(/_/g, '-');

interface SpecInput {
  default?: unknown;
  type?: string;
  options?: unknown[];
  description?: string;
}
interface Job {
  variables: Record<string, string>;
  script: string[];
  artifacts: Record<string, unknown>;
}
interface Component {
  name: string;
  inputs: Record<string, SpecInput>;
  text: string;
  /** The jobs that run the CLI, by name: one, or two for queue-plan (export, then plan). */
  jobs: [string, Job][];
}

const components: Component[] = readdirSync('templates')
  .filter((file) => file.endsWith('.yml'))
  .map((file) => {
    const text = readFileSync(`templates/${file}`, 'utf8');
    const [header, body] = parseAllDocuments(text).map((doc) => doc.toJS() as Record<string, unknown>);
    // The jobs that run the CLI (submit-pull-request has a button job besides its one).
    const jobs = (Object.entries(body ?? {}) as [string, Job][]).filter(([, job]) =>
      job.script.some((line) => line.includes('$[[ inputs.cli ]]')),
    );
    expect(jobs.length).toBeGreaterThan(0);
    const spec = (header as { spec: { inputs: Record<string, SpecInput> } }).spec;
    return { name: file.replace(/\.yml$/, ''), inputs: spec.inputs, text, jobs };
  });
/** Every job of every component that runs the CLI, named `component job`. */
const cliJobs = components.flatMap((c) => c.jobs.map(([name, job]) => [`${c.name} ${name}`, job] as const));

describe('GitLab CI/CD components (templates/)', () => {
  it('are the four the README shows', () => {
    expect(components.map((c) => c.name).sort()).toEqual([
      'flaky-report',
      'queue-plan',
      'set-impacted-targets',
      'submit-pull-request',
    ]);
  });

  it.each(components.map((c) => [c.name, c] as const))(
    '%s: declares every input it interpolates, uses every input it declares, with valid defaults',
    (_, component) => {
      const used = new Set(
        [...component.text.matchAll(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g)].map((m) => m[1]),
      );
      expect([...used].sort()).toEqual(Object.keys(component.inputs).sort());
      for (const [name, input] of Object.entries(component.inputs)) {
        expect([name, typeof input.description]).toEqual([name, 'string']);
        if (input.options) expect([name, input.options.includes(input.default)]).toEqual([name, true]);
        if (input.type === 'number') expect([name, typeof input.default]).toEqual([name, 'number']);
      }
    },
  );

  it.each(cliJobs)(
    '%s: sets only inputs its operation reads, never interpolates an input into the script but the CLI command',
    (_, job) => {
      const command = job.script.find((line) => line.startsWith('$[[ inputs.cli ]]'));
      const operation = /^\$\[\[ inputs\.cli \]\] ([a-z-]+) --host gitlab-ci\b/.exec(command ?? '')?.[1];
      const inputs = inputsOf(String(operation));
      const handed = Object.keys(job.variables)
        .filter((variable) => variable.startsWith('MERGE_QUEUE_'))
        .map(inputOfVariable);
      expect(handed.filter((input) => !inputs.has(input))).toEqual([]);
      const flags = [...command!.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
      expect(flags.filter((flag) => !(flag in CLI_FLAGS) && !inputs.has(flag))).toEqual([]);
      expect(job.script.join('\n').replace('$[[ inputs.cli ]]', '')).not.toContain('$[[');
    },
  );

  it.each(cliJobs)(
    '%s: hands later jobs the outputs as a dotenv report and keeps the summary, also when the job fails',
    (_, job) => {
      expect(job.artifacts).toMatchObject({
        when: 'always',
        reports: { dotenv: 'merge-queue.env' },
      });
      expect(job.artifacts.paths).toContain('merge-queue-summary.md');
    },
  );

  it('examples/gitlab-ci/full-pipeline.gitlab-ci.yml (and the README, the weekly plan) include each component with inputs it declares, and every required one', () => {
    const pipelines = [
      readFileSync('examples/gitlab-ci/full-pipeline.gitlab-ci.yml', 'utf8'),
      readmeBlock('yaml', '/queue-plan@'),
    ].map((text) => parse(text) as { include: { component: string; inputs?: Record<string, unknown> }[] });
    const included = pipelines
      .flatMap((pipeline) => pipeline.include)
      .map(({ component, inputs = {} }) => {
        const name = /\/merge-queue-action\/([\w-]+)@main$/.exec(component)?.[1];
        const spec = components.find((c) => c.name === name)?.inputs ?? {};
        const unknown = Object.keys(inputs).filter((input) => !(input in spec));
        const missing = Object.keys(spec).filter(
          (input) => !('default' in spec[input]!) && !(input in inputs),
        );
        return { name, unknown, missing };
      });
    const byName = (a: { name?: string }, b: { name?: string }) =>
      String(a.name).localeCompare(String(b.name));
    expect(included.sort(byName)).toEqual(
      components.map((c) => ({ name: c.name, unknown: [], missing: [] })).sort(byName),
    );
  });

  it("examples/gitlab-ci/.gitlab-ci.yml is the README's GitLab snippet, verbatim", () => {
    const example = readFileSync('examples/gitlab-ci/.gitlab-ci.yml', 'utf8');
    const blocks = [...readFileSync('README.md', 'utf8').matchAll(/^```yaml\n([\s\S]*?)^```$/gm)];
    expect(blocks.filter((block) => block[1] === example)).toHaveLength(1);
  });

  it('every component adds its pull-request job to merge request and external pull request pipelines only', () => {
    const rules = (name: string) =>
      JSON.stringify((components.find((c) => c.name === name)!.jobs[0]![1] as { rules?: unknown }).rules);
    for (const name of ['set-impacted-targets', 'submit-pull-request']) {
      expect(rules(name)).toContain('$CI_MERGE_REQUEST_IID');
      expect(rules(name)).toContain('$CI_EXTERNAL_PULL_REQUEST_IID');
    }
  });
});

interface Schema {
  properties: Record<string, { type: string | string[]; pattern?: string; additionalProperties?: unknown }>;
  required: string[];
  additionalProperties: boolean;
}

describe('Buildkite plugin (plugin.yml, hooks/command)', () => {
  const plugin = parse(readFileSync('plugin.yml', 'utf8')) as { configuration: Schema; name: string };
  const schema = plugin.configuration;

  /** The plugin's JSON schema applied to one step's configuration (the subset plugin.yml uses). */
  function schemaProblems(config: Record<string, unknown>): string[] {
    const problems = schema.required.filter((key) => !(key in config)).map((key) => `missing ${key}`);
    for (const [key, value] of Object.entries(config)) {
      const property = schema.properties[key];
      if (!property) {
        if (schema.additionalProperties === false) problems.push(`unknown ${key}`);
        continue;
      }
      const kind = Array.isArray(value) ? 'array' : typeof value;
      const types = [property.type].flat();
      if (!types.includes(kind)) problems.push(`${key} is a ${kind}`);
      if (property.pattern && !new RegExp(property.pattern).test(String(value)))
        problems.push(`${key} pattern`);
    }
    return problems;
  }

  /** The steps of a pipeline that use this plugin, with their labels. */
  const pluginSteps = (pipeline: string) =>
    (
      parse(pipeline) as {
        steps: { label?: string; plugins?: Record<string, Record<string, unknown>>[] }[];
      }
    ).steps.flatMap((step) =>
      (step.plugins ?? [])
        .flatMap((entry) => Object.entries(entry))
        .filter(([location]) => location.endsWith(`/merge-queue-action#${PINNED_REF}`))
        .map(([, config]) => [step.label ?? '', config] as const),
    );
  const steps = pluginSteps(readFileSync('examples/buildkite/pipeline.yml', 'utf8'));
  const readmeSteps = pluginSteps(
    readmeBlock('yaml', `github.com/your-org/merge-queue-action#${PINNED_REF}`),
  );

  it('has a schema that requires operation and refuses unknown keys', () => {
    expect(schema.required).toEqual(['operation']);
    expect(schema.additionalProperties).toBe(false);
    expect(
      schemaProblems({ operation: 'pause-queue', colour: 'blue', 'api-token-env': 'not a name' }),
    ).toEqual(['unknown colour', 'api-token-env pattern']);
  });

  it('is used by the example pipeline to submit a PR, upload impacted targets and report flaky tests', () => {
    expect(steps.map(([, config]) => config.operation).sort()).toEqual([
      'list-unhealthy-tests',
      'set-impacted-targets',
      'submit-pull-request',
    ]);
  });

  it.each(steps)('example step %s: a valid configuration with inputs its operation reads', (_, config) => {
    expect(schemaProblems(config)).toEqual([]);
    const inputs = inputsOf(String(config.operation));
    expect(Object.keys((config.inputs ?? {}) as object).filter((input) => !inputs.has(input))).toEqual([]);
  });

  it("is used by the README's snippet with a valid configuration to submit a PR", () => {
    expect(readmeSteps.map(([, config]) => [config.operation, schemaProblems(config)])).toEqual([
      ['submit-pull-request', []],
    ]);
    const inputs = inputsOf('submit-pull-request');
    const given = Object.keys((readmeSteps[0]![1].inputs ?? {}) as object);
    expect(given.filter((input) => !inputs.has(input))).toEqual([]);
  });

  it('is the quarantine gate of examples/ci/check-test-results/buildkite.yml, with inputs the operation reads', () => {
    const gate = pluginSteps(readFileSync('examples/ci/check-test-results/buildkite.yml', 'utf8'));
    expect(gate.map(([, config]) => [config.operation, schemaProblems(config)])).toEqual([
      ['check-test-results', []],
    ]);
    const inputs = inputsOf('check-test-results');
    expect(Object.keys(gate[0]![1].inputs as object).filter((input) => !inputs.has(input))).toEqual([]);
  });

  it('is found by the agent under the name the hook reads its configuration with', () => {
    // github.com/your-org/merge-queue-action -> BUILDKITE_PLUGIN_MERGE_QUEUE_ACTION_*
    expect(readFileSync('hooks/command', 'utf8')).toContain('${BUILDKITE_PLUGIN_NAME:-MERGE_QUEUE_ACTION}');
  });
});

/** The library steps a Jenkinsfile calls: each operation and the names of its inputs. */
const mergeQueueSteps = (jenkinsfile: string) =>
  [...jenkinsfile.matchAll(/mergeQueue operation: '([a-z-]+)'(?:,\s*inputs: \[([^\]]*)\])?/g)].map(
    ([, operation, inputs]) => ({
      operation: operation!,
      inputs: [...(inputs ?? '').matchAll(/'?([\w-]+)'?:/g)].map((m) => m[1]!),
    }),
  );

describe('Jenkins (examples/jenkins/Jenkinsfile, with the shared library in vars/)', () => {
  const jenkinsfile = readFileSync('examples/jenkins/Jenkinsfile', 'utf8');
  const steps = mergeQueueSteps(jenkinsfile);
  const readme = readmeBlock('groovy', '@Library(');

  it("the README's snippet loads the library at the pinned ref and submits a PR with inputs the operation declares", () => {
    expect(readme).toContain(`@Library('merge-queue@${PINNED_REF}') _\n`);
    const declared = inputsOf('submit-pull-request');
    expect(
      mergeQueueSteps(readme).map((step) => [step.operation, step.inputs.filter((i) => !declared.has(i))]),
    ).toEqual([['submit-pull-request', []]]);
    expect(readme).toContain("MERGE_QUEUE_API_TOKEN = credentials('trunk-api-token')");
  });

  it('loads the library at the pinned ref, and submits a PR, uploads impacted targets and reports flaky tests', () => {
    expect(jenkinsfile).toContain(`@Library('merge-queue@${PINNED_REF}') _\n`);
    expect(steps.map((step) => step.operation).sort()).toEqual([
      'list-unhealthy-tests',
      'set-impacted-targets',
      'submit-pull-request',
    ]);
  });

  it('is the quarantine gate of examples/ci/check-test-results/Jenkinsfile, with inputs the operation reads', () => {
    const gate = readFileSync('examples/ci/check-test-results/Jenkinsfile', 'utf8');
    expect(gate).toContain(`@Library('merge-queue@${PINNED_REF}') _\n`);
    const declared = inputsOf('check-test-results');
    expect(
      mergeQueueSteps(gate).map((step) => [step.operation, step.inputs.filter((i) => !declared.has(i))]),
    ).toEqual([['check-test-results', []]]);
  });

  it.each(steps.map((step) => [step.operation, step.inputs] as const))(
    '%s: only inputs the operation declares',
    (operation, inputs) => {
      const declared = inputsOf(operation);
      expect(inputs.length).toBeGreaterThan(0);
      expect(inputs.filter((input) => !declared.has(input))).toEqual([]);
    },
  );

  it('keeps the token out of Groovy strings (single-quoted sh, credentials() into the environment)', () => {
    expect(jenkinsfile).toContain("MERGE_QUEUE_API_TOKEN = credentials('trunk-api-token')");
    expect(jenkinsfile).not.toMatch(/sh\s+"/);
    expect(readFileSync('vars/mergeQueue.groovy', 'utf8')).toMatch(/sh\(label: [^,]+, script: '[^']+'\)/);
  });
});

describe("the plugins' default CLI", () => {
  // What runs when a user gives no `cli`: the CLI committed on main, as the README's CLI snippet runs it,
  // the same in every plugin and example, never an npm version that may not be published yet.
  const readmeCli = /^npx --yes (\S+) submit-pull-request/m.exec(
    readmeBlock('sh', 'submit-pull-request'),
  )?.[1];
  const defaults = {
    'templates/*.yml': components.map((c) => String(c.inputs.cli?.default)),
    'orb/scripts/run.sh': [/PARAM_CLI:-([^}]+)\}/.exec(readFileSync('orb/scripts/run.sh', 'utf8'))?.[1]],
    'orb/commands and jobs': readdirSync('orb/jobs')
      .map((file) => `orb/jobs/${file}`)
      .concat('orb/commands/run-operation.yml')
      .map(
        (file) => (parse(readFileSync(file, 'utf8')) as { parameters: Record<string, SpecInput> }).parameters,
      )
      .map((parameters) => String(parameters.cli?.default)),
    'vars/mergeQueue.groovy': [
      /env\.MERGE_QUEUE_CLI \?: '([^']+)'/.exec(readFileSync('vars/mergeQueue.groovy', 'utf8'))?.[1],
    ],
    'examples/ci/check-test-results': ['gitlab-ci.yml', 'circleci-config.yml'].map(
      (file) =>
        /(npx --yes \S+) check-test-results/.exec(
          readFileSync(`examples/ci/check-test-results/${file}`, 'utf8'),
        )?.[1],
    ),
  };

  it("is the README's CLI command, from this repository's pinned ref (main until a release)", () => {
    expect(readmeCli).toBe(PINNED_ARCHIVE);
    for (const [where, commands] of Object.entries(defaults)) {
      expect([where, [...new Set(commands)]]).toEqual([where, [`npx --yes ${readmeCli}`]]);
    }
  });
});

describe('GitLab jobs that hand outputs on as a dotenv report', () => {
  const files = [
    'examples/gitlab-ci/full-pipeline.gitlab-ci.yml',
    'examples/ci/check-test-results/gitlab-ci.yml',
  ];
  const jobs: (readonly [string, Job])[] = [
    ...components.flatMap((c) =>
      c.jobs.map(([name, job]) => [`templates/${c.name}.yml ${name}`, job] as const),
    ),
    ...files.flatMap((file) =>
      Object.entries(parse(readFileSync(file, 'utf8')) as Record<string, Job>)
        .filter(([, job]) => typeof job === 'object' && !Array.isArray(job) && 'script' in job)
        .map(([name, job]) => [`${file} ${name}`, job] as const),
    ),
  ].filter(([, job]) => (job.artifacts?.reports as { dotenv?: string } | undefined)?.dotenv);

  it.each(jobs)('%s: its CLI writes the file the report names', (_, job) => {
    const report = (job.artifacts.reports as { dotenv: string }).dotenv;
    expect(job.script.join('\n')).toContain(`--dotenv-file ${report}`);
  });
});
