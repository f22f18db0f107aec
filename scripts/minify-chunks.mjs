// ncc minifies the entry (dist/index.js) but writes the chunks it loads lazily (`<id>.index.js`) as they
// are, comments and all. This minifies them with esbuild, whitespace, syntax and identifiers, so that
// what only some operations load (the compute code with its YAML and glob libraries, the GitHub client)
// weighs what it must. `node scripts/minify-chunks.mjs [dir...]` (default dist); the bundle benchmark
// runs it on its own build too, so that both measure the same files.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

const dirs = process.argv.length > 2 ? process.argv.slice(2) : ['dist'];
for (const path of dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((entry) => /^\d+\.index\.js$/.test(entry))
    .map((entry) => join(dir, entry)),
)) {
  const { code } = transformSync(readFileSync(path, 'utf8'), {
    minify: true,
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
  });
  writeFileSync(path, code);
}
