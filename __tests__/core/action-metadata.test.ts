// action.yml is the contract with workflows: every input the code reads is declared there (and nothing
// else), it runs on node24, and docs/reference.md is generated from it.
import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'yaml';
import { format } from 'prettier';
import { COMMON_INPUTS } from '../../src/core/common-inputs.js';
import { exampleInputs } from '../../src/core/operations/example.js';
import {
  OPERATION_NAMES,
  OPERATIONS,
  isOperationName,
  toKebabCase,
} from '../../src/core/operations/registry.js';
import { renderActionYml, renderReference } from '../../scripts/reference.js';

const actionYml = readFileSync('action.yml', 'utf8');
const action = parse(actionYml) as {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
};
const prettier = { ...JSON.parse(readFileSync('.prettierrc.json', 'utf8')) };

describe('action.yml', () => {
  it('runs the bundled entry point on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('declares exactly the inputs of the registry, as `npm run metadata` writes them', async () => {
    const registryInputs = new Set([
      'operation',
      ...COMMON_INPUTS.map((spec) => spec.name),
      ...Object.values(OPERATIONS).flatMap((row) => row.inputs.map((spec) => spec.name)),
    ]);
    expect(Object.keys(action.inputs).sort()).toEqual([...registryInputs].sort());
    expect(await format(renderActionYml(actionYml), { ...prettier, parser: 'yaml' })).toBe(actionYml);
  });

  it('gives defaults only to inputs every operation reads, so no operation is handed one it ignores', () => {
    const common = new Set(COMMON_INPUTS.map((spec) => spec.name));
    const withDefault = Object.entries(action.inputs).filter(([, input]) => input.default !== undefined);
    expect(withDefault.map(([name]) => name).filter((name) => !common.has(name))).toEqual([]);
  });

  it('describes every input and output', () => {
    for (const [name, entry] of [...Object.entries(action.inputs), ...Object.entries(action.outputs)]) {
      expect([name, entry.description.length > 10]).toEqual([name, true]);
    }
  });

  it('is what docs/reference.md shows, and the README links there', async () => {
    const reference = readFileSync('docs/reference.md', 'utf8');
    expect(await format(renderReference(reference, actionYml), { ...prettier, parser: 'markdown' })).toBe(
      reference,
    );
    expect(readFileSync('README.md', 'utf8')).toContain('](docs/reference.md)');
  });
});

describe("docs/reference.md's steps", () => {
  const reference = readFileSync('docs/reference.md', 'utf8');
  /** The yaml block under each operation's heading, as a workflow reads it. */
  const stepOf = (operation: string) => {
    const section = reference.split(`\n#### \`${operation}\`\n`)[1]?.split('\n#### ')[0] ?? '';
    const block = /\n```yaml\n([\s\S]*?)\n```\n/.exec(section)?.[1];
    return block === undefined ? undefined : (parse(block) as { uses: string; with: object }[]);
  };

  it.each(OPERATION_NAMES)('%s: one step of the action, with its sample and declared inputs', (name) => {
    const steps = stepOf(name);
    expect(steps).toHaveLength(1);
    const { uses, with: given } = steps![0]!;
    expect(uses).toMatch(/^your-org\/merge-queue-action@/);
    const inputs = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, String(value)]));
    expect(Object.keys(inputs).filter((input) => !(input in action.inputs))).toEqual([]);
    const { operation, 'api-token': token, ...rest } = inputs;
    expect(operation).toBe(name);
    expect(rest).toEqual(exampleInputs(OPERATIONS[name].examples[0]));
    // The token comes from a secret; the operations that call no API take none.
    if (OPERATIONS[name].api === 'none') expect(token).toBeUndefined();
    else expect(token).toBe('${{ secrets.TRUNK_API_TOKEN }}');
  });
});

describe('examples/', () => {
  // The GitHub workflows; other CIs' examples are in folders of their own (__tests__/plugins).
  const workflows = readdirSync('examples').filter((file) => file.endsWith('.yml'));
  const steps = workflows.flatMap((file) => {
    const workflow = parse(readFileSync(`examples/${file}`, 'utf8')) as {
      jobs: Record<string, { steps?: { uses?: string; with?: Record<string, string> }[] }>;
    };
    return Object.values(workflow.jobs)
      .flatMap((job) => job.steps ?? [])
      .filter((step) => step.uses?.includes('merge-queue-action'))
      .map((step) => ({ file, with: step.with ?? {} }));
  });

  it('has a step of this action in every ready workflow', () => {
    expect(new Set(steps.map((step) => step.file))).toEqual(new Set(workflows));
  });

  it.each(steps.map((step) => [step.file, step.with] as const))(
    '%s uses only declared inputs',
    (_, inputs) => {
      expect(Object.keys(inputs).filter((name) => !(name in action.inputs))).toEqual([]);
      const operation = String(inputs.operation);
      expect(operation.includes('${{') || isOperationName(toKebabCase(operation))).toBe(true);
    },
  );
});
