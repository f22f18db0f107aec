// `npm run bundle` must always produce the same tree, so that CI can check dist/ against it. ncc neither
// empties its output directory (chunks of an earlier build would stay) nor always writes the same
// files, so: `--clean` removes dist/ before the builds; afterwards this keeps, for the action (dist/) and
// the CLI with the MCP server (dist/cli/), only the entry, its lazily loaded chunks, the
// licenses and the package.json.
import { readdirSync, rmSync } from 'node:fs';

if (process.argv.includes('--clean')) {
  rmSync('dist', { recursive: true, force: true });
} else {
  const keep = (name) =>
    name === 'index.js' ||
    name === 'licenses.txt' ||
    name === 'package.json' ||
    /^\d+\.index\.js$/.test(name);
  for (const dir of ['dist', 'dist/cli']) {
    for (const entry of readdirSync(dir)) {
      if (dir === 'dist' && entry === 'cli') continue;
      if (!keep(entry)) rmSync(`${dir}/${entry}`, { recursive: true, force: true });
    }
  }
}
