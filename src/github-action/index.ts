// The action's run on the GitHub Actions host. dist/index.js, the entry action.yml names, marks the
// process as the action's and imports the one bundle (dist/cli/), whose entry (src/cli/index.ts) calls this.
import { run } from '../core/index.js';
import { githubActionsHost } from '../hosts/github-actions/host.js';

/** Runs the operation the step's inputs name; the exit code. */
export async function runAction(): Promise<number> {
  const result = await run(githubActionsHost(process.env, process.cwd()));
  return result.exitCode;
}
