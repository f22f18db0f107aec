// ncc writes a package.json only for some builds; keep dist/ to the files the runner needs so that
// `npm run bundle` always produces the same tree.
import { readdirSync, rmSync } from 'node:fs';

const keep = new Set(['index.js', 'licenses.txt', 'package.json']);
for (const entry of readdirSync('dist')) {
  if (!keep.has(entry)) rmSync(`dist/${entry}`, { recursive: true, force: true });
}
