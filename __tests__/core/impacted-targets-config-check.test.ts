// The plain check of a good targets config (config-check.ts) answers as the schema does, over documents
// that each differ from a good one in one place: a wrong type, an empty string, a number out of range,
// an unknown key, a missing required key.
import { describe, expect, it } from '@jest/globals';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { isTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config-check.js';
import { TargetsConfigSchema } from '../../src/core/operations/impacted-targets/compute/config-schema.js';

const good = {
  version: 1,
  rules: [
    { name: 'api', match: 'services/api/**', exclude: ['**/*.md'], targets: ['api'] },
    { match: ['services/{name}/**'], targets: ['svc:{name}'] },
  ],
  barriers: ['pnpm-lock.yaml'],
  inert: ['**/*.md'],
  'inert-target': 'docs',
  unmatched: { target: 'misc' },
  'deleted-unmatched': 'all',
  groups: { backend: ['api', 'svc:*'] },
  dependents: {
    workspaces: { target: 'pkg:{name}', depth: 'all' },
    command: { run: ['nx', 'show'], 'timeout-seconds': 60 },
  },
  'merge-queue-target': 'mq',
  'max-targets': 100,
};

/** Every place in the document: the path to each value, key by key and index by index. */
function places(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [path];
  const children = Array.isArray(value)
    ? value.map((item, i) => places(item, [...path, i]))
    : Object.entries(value).map(([key, item]) => places(item, [...path, key]));
  return [path, ...children.flat()];
}

const replacement = fc.constantFrom<unknown>(
  '',
  'x',
  'all',
  'ignore',
  'like-unmatched',
  0,
  1,
  2,
  -1,
  1.5,
  3600,
  3601,
  true,
  null,
  [],
  ['a'],
  [''],
  [1],
  {},
  { target: 'x' },
  { target: '' },
  { match: 'a/**', targets: [] },
  { match: [], targets: ['a'] },
  { targets: ['a'] },
);
const extraKey = fc.constantFrom('exlude', 'target', 'rule', 'depth', 'run', '', 'version');

function edited(
  path: (string | number)[],
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
) {
  const copy = structuredClone(good) as Record<string | number, unknown>;
  if (path.length === 0) return copy;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  change(parent, path[path.length - 1] as string | number);
  return copy;
}

describe('the plain config check', () => {
  it('accepts the good document, as the schema does', () => {
    expect(Value.Check(TargetsConfigSchema, good)).toBe(true);
    expect(isTargetsConfig(good)).toBe(true);
  });

  it('answers as the schema does when one value is replaced', () => {
    fc.assert(
      fc.property(fc.constantFrom(...places(good)), replacement, (path, value) => {
        const document = path.length === 0 ? value : edited(path, (parent, key) => (parent[key] = value));
        expect(isTargetsConfig(document)).toBe(Value.Check(TargetsConfigSchema, document));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers as the schema does when a key is added or removed', () => {
    const mappings = places(good).filter((path) => {
      const value = path.reduce<unknown>((v, step) => (v as Record<string | number, unknown>)[step], good);
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...mappings),
        extraKey,
        replacement,
        fc.boolean(),
        (path, key, value, remove) => {
          const document = structuredClone(good) as Record<string, unknown>;
          const mapping = path.reduce<Record<string | number, unknown>>(
            (v, step) => v[step] as Record<string | number, unknown>,
            document,
          );
          if (remove) delete mapping[Object.keys(mapping)[0] as string];
          else mapping[key] = value;
          expect(isTargetsConfig(document)).toBe(Value.Check(TargetsConfigSchema, document));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
