// Properties of the mapping from changed files to targets, over generated paths and configs: a barrier
// always means ALL; an unclaimed file under unmatched: all always means ALL; the order of the changed
// files never changes the result.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseTargetsConfig } from '../../src/core/operations/impacted-targets/compute/config.js';
import { impactOf, type ChangedFile } from '../../src/core/operations/impacted-targets/compute/impact.js';

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,7}$/);
const dirs = ['services', 'libs', 'apps', 'docs', 'tools'];
const path = fc
  .tuple(fc.constantFrom(...dirs), fc.array(segment, { minLength: 1, maxLength: 4 }))
  .map(([top, rest]) => [top, ...rest].join('/'));
const changedFile = fc.record({ path, deleted: fc.boolean() });
const changedFiles = fc.array(changedFile, { maxLength: 40 });

/** A config built from generated parts: rules with captures over some top-level directories, inert docs. */
const config = fc
  .record({
    captured: fc.subarray(['services', 'libs', 'apps'], { minLength: 1 }),
    unmatched: fc.constantFrom('all', 'ignore', '{ target: misc }'),
    inertDocs: fc.boolean(),
    deletedAll: fc.boolean(),
  })
  .map(({ captured, unmatched, inertDocs, deletedAll }) =>
    [
      'rules:',
      ...captured.flatMap((dir) => [`  - match: "${dir}/{name}/**"`, `    targets: ["${dir}:{name}"]`]),
      '  - match: "tools/*.sh"',
      '    targets: [tools]',
      'barriers: ["**/BARRIER"]',
      inertDocs ? 'inert: ["docs/**"]' : '',
      `unmatched: ${unmatched}`,
      deletedAll ? 'deleted-unmatched: all' : '',
    ].join('\n'),
  );

async function result(yaml: string, files: ChangedFile[]) {
  const impact = impactOf(await parseTargetsConfig(yaml, 'targets.yml'), files, {
    isMergeQueueTestRun: false,
  });
  return {
    all: impact.all ?? null,
    targets: [...impact.targets.entries()]
      .map(([target, why]) => [target, [...why.via], why.files, why.fileCount] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  };
}

describe('impacted targets, for any changed files', () => {
  it('a file matched by a barrier always yields ALL, naming a barrier file', async () => {
    await fc.assert(
      fc.asyncProperty(config, changedFiles, path, fc.boolean(), async (yaml, files, dir, deleted) => {
        const barrier = `${dir}/BARRIER`;
        const impact = impactOf(
          await parseTargetsConfig(yaml, 'targets.yml'),
          [...files, { path: barrier, deleted }],
          {
            isMergeQueueTestRun: false,
          },
        );
        expect(impact.all?.barrierFile).toMatch(/\/BARRIER$/);
      }),
    );
  });

  it('adding a file that no rule claims under unmatched: all always yields ALL', async () => {
    await fc.assert(
      fc.asyncProperty(config, changedFiles, segment, async (yaml, files, name) => {
        const strict = yaml.replace(/^unmatched: .*$/m, 'unmatched: all');
        // Top-level files are claimed by no rule: every rule's glob has a directory in it.
        const impact = impactOf(
          await parseTargetsConfig(strict, 'targets.yml'),
          [...files, { path: `${name}.unclaimed`, deleted: false }],
          {
            isMergeQueueTestRun: false,
          },
        );
        expect(impact.all).toBeDefined();
      }),
    );
  });

  it('never depends on the order of the changed files', async () => {
    await fc.assert(
      fc.asyncProperty(
        config,
        changedFiles.chain((files) =>
          fc.tuple(fc.constant(files), fc.shuffledSubarray(files, { minLength: files.length })),
        ),
        async (yaml, [files, shuffled]) => {
          expect(await result(yaml, shuffled)).toEqual(await result(yaml, files));
        },
      ),
    );
  });
});
