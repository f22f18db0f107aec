// ncc leaves a package.json only for some builds; remove what the runner does not load so that
// `npm run bundle` always produces the same tree: for the action (dist/) and the CLI (dist/cli/), the
// entry, its lazily loaded chunks, the licenses.
import { readdirSync, rmSync } from 'node:fs';

const keep = (name) =>
  name === 'index.js' || name === 'licenses.txt' || name === 'package.json' || /^\d+\.index\.js$/.test(name);
for (const dir of ['dist', 'dist/cli']) {
  for (const entry of readdirSync(dir)) {
    if (dir === 'dist' && entry === 'cli') continue;
    if (!keep(entry)) rmSync(`${dir}/${entry}`, { recursive: true, force: true });
  }
}
