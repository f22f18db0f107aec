// Writes action.yml's inputs and README.md's reference from the operation registry.
// `--check` exits 1 when either is out of date instead of writing it.
import { readFileSync, writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { renderActionYml, renderReference } from './reference.js';

const actionYml = readFileSync('action.yml', 'utf8');
const readme = readFileSync('README.md', 'utf8');
const options = { ...JSON.parse(readFileSync('.prettierrc.json', 'utf8')) };
const newActionYml = await format(renderActionYml(actionYml), { ...options, parser: 'yaml' });
const newReadme = await format(renderReference(readme, newActionYml), { ...options, parser: 'markdown' });
if (process.argv.includes('--check')) {
  const stale = [newActionYml !== actionYml && 'action.yml', newReadme !== readme && 'README.md'].filter(
    Boolean,
  );
  if (stale.length) {
    console.error(`${stale.join(' and ')} out of date: run \`npm run metadata\`.`);
    process.exit(1);
  }
} else {
  writeFileSync('action.yml', newActionYml);
  writeFileSync('README.md', newReadme);
}
