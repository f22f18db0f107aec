// A host built from a fixture environment, its log captured: what a CI's documented variables make of
// the context, the log and the published outputs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Needs } from '../../src/core/context.js';
import type { HostName } from '../../src/core/host.js';
import type { Environment, HostOptions, PipelineHost } from '../../src/hosts/common/pipeline-host.js';
import { createHost } from '../../src/hosts/create.js';

export const NEEDS = {
  pr: { pr: true, headSha: false, targetBranch: true } satisfies Needs,
  prAndHead: { pr: true, headSha: true, targetBranch: true } satisfies Needs,
  queue: { pr: false, headSha: false, targetBranch: true } satisfies Needs,
  repoOnly: { pr: false, headSha: false, targetBranch: false } satisfies Needs,
};

export interface FixtureHost {
  host: PipelineHost;
  /** Everything the host wrote to its log. */
  log: () => string;
  dir: string;
}

export async function fixtureHost(
  name: HostName,
  env: Environment,
  options: { inputs?: Record<string, string>; files?: HostOptions['files'] } = {},
): Promise<FixtureHost> {
  const dir = mkdtempSync(join(tmpdir(), `host-${name}-`));
  let written = '';
  const host = await createHost(name, {
    env,
    input: (input) => options.inputs?.[input] ?? '',
    logStream: { write: (text: string) => (written += text) },
    files: options.files ?? {},
    cwd: dir,
  });
  return { host, log: () => written, dir };
}

/** The context a host resolves for an operation with these needs and no inputs. */
export async function contextOf(name: HostName, env: Environment, needs: Needs = NEEDS.pr) {
  const { host } = await fixtureHost(name, env);
  return host.resolveContext({ overrides: {}, needs });
}

/** The one-line message a context that cannot be resolved fails with. */
export async function contextFailure(
  name: HostName,
  env: Environment,
  needs: Needs = NEEDS.pr,
): Promise<string> {
  try {
    await contextOf(name, env, needs);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the context to fail');
}
