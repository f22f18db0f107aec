// ncc leaves a package.json only for some builds; remove what the runner does not load so that
// `npm run bundle` always produces the same tree: the entry, its lazily loaded chunks, the licenses.
import { readdirSync, rmSync } from 'node:fs';

const keep = (name) =>
  name === 'index.js' || name === 'licenses.txt' || name === 'package.json' || /^\d+\.index\.js$/.test(name);
for (const entry of readdirSync('dist')) {
  if (!keep(entry)) rmSync(`dist/${entry}`, { recursive: true, force: true });
}
