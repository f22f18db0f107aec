// `npm run bundle` must always produce the same tree, so that CI can check dist/ against it. ncc neither
// empties its output directory (chunks of an earlier build would stay) nor always writes the same
// files, so: `--clean` removes dist/ before the build; afterwards this keeps, in the one bundle (dist/cli/:
// the CLI, the MCP server and the action's run, each in chunks that only it loads), only the entry, its
// lazily loaded chunks, the licenses and the package.json, and writes the action's entry (action.yml's
// dist/index.js): it marks the process as the action's run and imports that bundle, so that the action
// and the CLI ship one copy of the code they share.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const ACTION_ENTRY = `// The action's entry (action.yml runs it): the CLI's bundle, started as the action's run
// (src/cli/index.ts). Written by scripts/normalize-dist.mjs.
globalThis[Symbol.for('merge-queue-action.github-action')] = true;
await import('./cli/index.js');
`;

if (process.argv.includes('--clean')) {
  rmSync('dist', { recursive: true, force: true });
} else {
  const keep = (name) =>
    name === 'index.js' ||
    name === 'licenses.txt' ||
    name === 'package.json' ||
    /^\d+\.index\.js$/.test(name);
  for (const entry of readdirSync('dist/cli')) {
    if (!keep(entry)) rmSync(`dist/cli/${entry}`, { recursive: true, force: true });
  }
  mkdirSync('dist', { recursive: true });
  writeFileSync('dist/index.js', ACTION_ENTRY);
  writeFileSync('dist/package.json', '{\n  "type": "module"\n}\n');
}
