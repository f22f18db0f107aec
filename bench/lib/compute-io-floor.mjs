// A floor of compute-impacted-targets: the git processes and file reads the action cannot do without,
// done the cheapest way in plain Node, and nothing else (no config, no rules, no dependents, no outputs).
// Like the action, it starts git merge-base and git diff --no-renames for the remote-tracking and the
// local target branch at once, and reads every workspace package's package.json (readFileSync and
// JSON.parse, no symlink checks) while git works.
// Usage: node bench/lib/compute-io-floor.mjs <repository> <branch> <head> <packages directory>
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [repository, branch, head, packagesDir] = process.argv.slice(2);
const git = (args) =>
  new Promise((resolve) => {
    execFile(
      'git',
      ['-C', repository, ...args],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
const diffs = [`refs/remotes/origin/${branch}`, `refs/heads/${branch}`].map((ref) =>
  Promise.all([
    git(['merge-base', ref, head]),
    git(['diff', '--name-status', '-z', '--no-renames', `${ref}...${head}`, '--']),
  ]),
);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
await nextTurn();
let manifests = 0;
const directory = join(repository, packagesDir);
for (const name of readdirSync(directory)) {
  // A few at a time, as the action reads them, so that git's output is taken (its pipe never fills) in between.
  if (manifests % 64 === 63) await nextTurn();
  const manifest = JSON.parse(readFileSync(join(directory, name, 'package.json'), 'utf8'));
  if (manifest.name) manifests++;
}
let changed = 0;
for (const attempt of diffs) {
  const [base, diff] = await attempt;
  if (!base || !diff) continue;
  changed = diff.toString('utf8').split('\0').filter(Boolean).length / 2;
  break;
}
process.stdout.write(`${changed} changed files, ${manifests} manifests\n`);
