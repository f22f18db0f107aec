// `npm run spec:structure`: writes the structure-only copies of the service's OpenAPI documents into
// src/wire/ (the tests validate the emulator's answers and webhooks against them, so the repository stands
// alone), from shared/reference/ beside the repository or beside a folder above it (or --reference <dir>).
// `--check` exits 1 when a copy is not what its document gives; with no document there, it says so in one
// line and exits 0, as there is nothing to compare.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { format } from 'prettier';
import { structureOf } from './openapi-structure.js';

const SCRIPT = 'scripts/spec-structure.ts';
const COPIES = [
  { document: 'openapi.json', copy: 'src/wire/v1/openapi.structure.json' },
  { document: join('v2', 'openapi-v2.json'), copy: 'src/wire/v2/openapi.structure.json' },
];
const repository = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const shown = (path: string) => relative(process.cwd(), path) || '.';

/** shared/reference beside the repository, or beside the nearest folder above it that has one. */
function referenceBeside(folder: string): string | undefined {
  for (let dir = dirname(folder); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'reference');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

async function copyOf(documentPath: string): Promise<string> {
  const structure = structureOf(
    JSON.parse(readFileSync(documentPath, 'utf8')),
    `npm run spec:structure (${SCRIPT})`,
  );
  const options = JSON.parse(readFileSync(join(repository, '.prettierrc.json'), 'utf8')) as object;
  return format(JSON.stringify(structure), { ...options, parser: 'json' });
}

const { values } = parseArgs({ options: { check: { type: 'boolean' }, reference: { type: 'string' } } });
const reference = values.reference ? resolve(values.reference) : referenceBeside(repository);
if (values.reference && !existsSync(join(reference!, COPIES[0]!.document))) {
  console.error(
    `spec-structure: --reference ${values.reference} has no ${COPIES[0]!.document}: name the folder that has it.`,
  );
  process.exit(2);
}
if (!reference) {
  console.log(
    'spec-structure: no shared/reference/ beside the repository or above it: the copies in src/wire/ are used as they are.',
  );
  process.exit(0);
}

const stale: string[] = [];
for (const { document, copy } of COPIES) {
  const documentPath = join(reference, document);
  const copyPath = join(repository, copy);
  if (!existsSync(documentPath)) {
    console.log(`spec-structure: ${shown(documentPath)} is not there: ${copy} left as it is.`);
    continue;
  }
  const text = await copyOf(documentPath);
  const current = existsSync(copyPath) ? readFileSync(copyPath, 'utf8') : '';
  if (text === current) {
    console.log(`spec-structure: ${copy} is current with ${shown(documentPath)}.`);
  } else if (values.check) {
    stale.push(copy);
  } else {
    mkdirSync(dirname(copyPath), { recursive: true });
    writeFileSync(copyPath, text);
    console.log(`spec-structure: wrote ${copy} from ${shown(documentPath)} (${text.length} bytes).`);
  }
}
if (stale.length) {
  console.error(
    `spec-structure: ${stale.join(' and ')} not what the service's document gives: run npm run spec:structure and commit the result.`,
  );
  process.exitCode = 1;
}
