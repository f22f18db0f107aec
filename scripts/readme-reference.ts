// Writes README.md's input and output reference from action.yml, the one place they are described.
// `--check` exits 1 when README is out of date instead of writing it.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderReference } from './reference.js';

const readme = readFileSync('README.md', 'utf8');
const updated = renderReference(readme, readFileSync('action.yml', 'utf8'));
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md reference is out of date: run `npm run readme`.');
    process.exit(1);
  }
} else {
  writeFileSync('README.md', updated);
}
