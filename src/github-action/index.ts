// The action's entry point (the ncc bundle's): runs the operation on the GitHub Actions host.
import { run } from '../core/index.js';
import { githubActionsHost } from '../hosts/github-actions/host.js';

const result = await run(githubActionsHost(process.env, process.cwd()));
process.exitCode = result.exitCode;
