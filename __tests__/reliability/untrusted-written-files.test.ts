// Files we write for later steps (issue 25, rows 7 and 8): on the CLI hosts the impacted-targets file
// goes under the shared temp folder ($TMPDIR), where anyone on the agent may have planted a symlink at a
// known name, and where two jobs write at once. It goes into a directory made for the run, created
// exclusively. Run end to end through the CLI (in this process, on the generic host).
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/core/failure.js';
import { pullRequestCheckout, tempDir } from '../helpers/git-repo.js';

jest.setTimeout(60_000);

const temp = tempDir('mqa-written-');
afterAll(temp.cleanup);

/** A clone whose HEAD changes `file` against main; each service is its own target. */
function checkout(file: string): string {
  const config = 'rules:\n  - match: "services/{name}/**"\n    targets: ["svc:{name}"]\n';
  return pullRequestCheckout(
    temp.dir,
    { '.github/impacted-targets.yml': config, 'README.md': 'r' },
    { [file]: 'changed' },
  );
}

async function compute(
  dir: string,
  shared: string,
): Promise<{ exitCode: number; outputs: Record<string, string> }> {
  let out = '';
  const exitCode = await runCli({
    argv: ['compute-impacted-targets', '--working-directory', dir, '--changed-files-from', 'git', '--json'],
    env: {
      MERGE_QUEUE_API_URL: 'http://127.0.0.1:9/v1',
      MERGE_QUEUE_REPO: 'octo-org/octo-repo',
      MERGE_QUEUE_TARGET_BRANCH: 'main',
      TMPDIR: shared,
    },
    cwd: dir,
    stdout: { write: (chunk: string) => (out += chunk) },
    stderr: { write: () => true },
  });
  return { exitCode, outputs: JSON.parse(out.trim()).outputs };
}

function sharedTemp(name: string): string {
  const dir = join(temp.dir, name);
  mkdirSync(dir);
  return dir;
}

describe('the impacted-targets file on a CLI host', () => {
  it('row 7: is not written through a symlink planted at $TMPDIR/impacted-targets.json', async () => {
    const shared = sharedTemp('tmp-7');
    const victim = join(temp.dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(shared, 'impacted-targets.json'));
    const run = await compute(checkout('services/api/main.ts'), shared);
    expect(run.exitCode).toBe(EXIT_CODES.done);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    const file = run.outputs['impacted-targets-file'] as string;
    expect(readFileSync(file, 'utf8')).toBe('["svc:api"]');
    // Its own directory under the shared one, which only the run's user may enter.
    expect(dirname(dirname(file))).toBe(shared);
    expect(statSync(dirname(file)).mode & 0o077).toBe(0);
  });

  it('row 8: two jobs sharing a temp folder each keep their own targets', async () => {
    const shared = sharedTemp('tmp-8');
    const [first, second] = await Promise.all([
      compute(checkout('services/api/main.ts'), shared),
      compute(checkout('services/web/main.ts'), shared),
    ]);
    const firstFile = first.outputs['impacted-targets-file'] as string;
    const secondFile = second.outputs['impacted-targets-file'] as string;
    expect(firstFile).not.toBe(secondFile);
    expect(readFileSync(firstFile, 'utf8')).toBe('["svc:api"]');
    expect(readFileSync(secondFile, 'utf8')).toBe('["svc:web"]');
  });

  it('leaves nothing but the file it names behind', async () => {
    const shared = sharedTemp('tmp-left');
    const run = await compute(checkout('services/api/main.ts'), shared);
    const file = run.outputs['impacted-targets-file'] as string;
    expect(readdirSync(shared)).toEqual([file.split('/').at(-2)]);
    expect(readdirSync(dirname(file))).toEqual(['impacted-targets.json']);
  });
});
