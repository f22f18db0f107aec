// A peer of compute-impacted-targets: what a paths-filter step does (dorny/paths-filter's way), in plain
// Node. It lists the changed files with git diff and tests each against one picomatch matcher per
// filter, then prints how many filters matched. No config file, no dependents: the filters are given.
// Usage: node bench/lib/paths-filter.mjs <repository> <base>...<head> <filters.json>
// (filters.json: {"name": ["glob", ...], ...})
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import picomatch from 'picomatch';

const [repository, range, filtersFile] = process.argv.slice(2);
const changed = execFileSync('git', ['-C', repository, 'diff', '--name-only', '--no-renames', range], {
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
})
  .split('\n')
  .filter(Boolean);
const filters = Object.entries(JSON.parse(readFileSync(filtersFile, 'utf8'))).map(([name, globs]) => [
  name,
  picomatch(globs, { dot: true }),
]);
const matched = filters.filter(([, isMatch]) => changed.some((path) => isMatch(path))).map(([name]) => name);
process.stdout.write(`${changed.length} changed files, ${matched.length} filters matched\n`);
