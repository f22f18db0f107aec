// `npm run spec:structure`: writes the structure-only copies of the service's OpenAPI documents into
// src/wire/ (the tests validate the emulator's answers and webhooks against them, so the repository stands
// alone), from shared/reference/ beside the repository or beside a folder above it (or --reference <dir>),
// then the v2 wire's TypeScript types from the v2 copy (openapi-typescript), which need no document.
// `--check` exits 1 when a copy or the types are not what their source gives; with no document there, it
// says so in one line and checks only the types.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { format } from 'prettier';
import { structureOf } from './openapi-structure.js';

const SCRIPT = 'scripts/spec-structure.ts';
const V2_TYPES = { copy: 'src/wire/v2/openapi.structure.json', types: 'src/wire/v2/openapi-types.ts' };
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

const prettierOptions = () =>
  JSON.parse(readFileSync(join(repository, '.prettierrc.json'), 'utf8')) as object;

async function copyOf(documentPath: string): Promise<string> {
  const structure = structureOf(
    JSON.parse(readFileSync(documentPath, 'utf8')),
    `npm run spec:structure (${SCRIPT})`,
  );
  return format(JSON.stringify(structure), { ...prettierOptions(), parser: 'json' });
}

async function v2TypesText(): Promise<string> {
  const document = JSON.parse(readFileSync(join(repository, V2_TYPES.copy), 'utf8')) as object;
  const header = `// Made by npm run spec:structure (${SCRIPT}) from ${V2_TYPES.copy}: do not edit.\n`;
  const body = astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  return format(header + body, { ...prettierOptions(), parser: 'typescript' });
}

/** Writes the v2 types, or with --check says when they are stale. */
async function refreshV2Types(check: boolean): Promise<void> {
  const path = join(repository, V2_TYPES.types);
  const text = await v2TypesText();
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (text === current) console.log(`spec-structure: ${V2_TYPES.types} is current with ${V2_TYPES.copy}.`);
  else if (check) {
    console.error(
      `spec-structure: ${V2_TYPES.types} not what ${V2_TYPES.copy} gives: run npm run spec:structure and commit the result.`,
    );
    process.exitCode = 1;
  } else {
    writeFileSync(path, text);
    console.log(`spec-structure: wrote ${V2_TYPES.types} from ${V2_TYPES.copy} (${text.length} bytes).`);
  }
}

const { values } = parseArgs({ options: { check: { type: 'boolean' }, reference: { type: 'string' } } });
const reference = values.reference ? resolve(values.reference) : referenceBeside(repository);
if (values.reference && !existsSync(join(reference!, COPIES[0]!.document))) {
  console.error(
    `spec-structure: --reference ${values.reference} has no ${COPIES[0]!.document}: name the folder that has it.`,
  );
  process.exit(2);
}
const stale: string[] = [];
if (!reference) {
  console.log(
    'spec-structure: no shared/reference/ beside the repository or above it: the copies in src/wire/ are used as they are.',
  );
}
for (const { document, copy } of reference ? COPIES : []) {
  const documentPath = join(reference!, document);
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
await refreshV2Types(Boolean(values.check));
