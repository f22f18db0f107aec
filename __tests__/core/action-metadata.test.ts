// action.yml is the contract with workflows: every input the code reads is declared there (and nothing
// else), it runs on node24, and the README's reference is generated from it.
import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { parse } from 'yaml';
import { OPERATION_NAMES, isOperationName, toKebabCase } from '../../src/core/operations/catalog.js';
import { readSettings } from '../../src/core/inputs.js';
import { renderReference } from '../../scripts/reference.js';

const actionYml = readFileSync('action.yml', 'utf8');
const action = parse(actionYml) as {
  runs: { using: string; main: string };
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
};

function inputsReadBy(operation: string): Set<string> {
  const read = new Set<string>();
  try {
    readSettings((name) => {
      read.add(name);
      return { operation, 'api-token': 'token-for-metadata-test' }[name] ?? '';
    });
  } catch {
    // Operations with required inputs fail here; the inputs read up to that point still count.
  }
  return read;
}

describe('action.yml', () => {
  it('runs the bundled entry point on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('declares exactly the inputs that settings.ts reads', () => {
    const read = new Set(OPERATION_NAMES.flatMap((operation) => [...inputsReadBy(operation)]));
    expect([...read].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it('describes every input and output', () => {
    for (const [name, entry] of [...Object.entries(action.inputs), ...Object.entries(action.outputs)]) {
      expect([name, entry.description.length > 10]).toEqual([name, true]);
    }
  });

  it('is what the README reference shows', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(renderReference(readme, actionYml)).toBe(readme);
  });
});

describe('examples/', () => {
  const steps = readdirSync('examples').flatMap((file) => {
    const workflow = parse(readFileSync(`examples/${file}`, 'utf8')) as {
      jobs: Record<string, { steps?: { uses?: string; with?: Record<string, string> }[] }>;
    };
    return Object.values(workflow.jobs)
      .flatMap((job) => job.steps ?? [])
      .filter((step) => step.uses?.includes('merge-queue-action'))
      .map((step) => ({ file, with: step.with ?? {} }));
  });

  it('has a step of this action in every ready workflow', () => {
    expect(new Set(steps.map((step) => step.file))).toEqual(new Set(readdirSync('examples')));
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
