// Writes action.yml's inputs, docs/reference.md and the area pages' operations tables from the operation
// registry, src/wire/routes.ts from the endpoints' rows, and src/wire/answer-shapes.ts and
// src/wire/v2/answer-shapes.ts from the answer schemas.
// `--check` exits 1 when any is out of date instead of writing it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { format } from 'prettier';
import { renderAnswerShapes } from './answer-shapes.js';
import { AREA_PAGE_PATHS, renderAreaPage } from './area-pages.js';
import { renderRoutes } from './routes.js';
import { renderV2AnswerShapes } from './v2-answer-shapes.js';
import { renderActionYml, renderReference } from './reference.js';

const ANSWER_SHAPES = 'src/wire/answer-shapes.ts';
const REFERENCE = 'docs/reference.md';
const ROUTES = 'src/wire/routes.ts';
const V2_ANSWER_SHAPES = 'src/wire/v2/answer-shapes.ts';
const actionYml = readFileSync('action.yml', 'utf8');
const reference = readFileSync(REFERENCE, 'utf8');
const answerShapes = readFileSync(ANSWER_SHAPES, 'utf8');
const routes = existsSync(ROUTES) ? readFileSync(ROUTES, 'utf8') : '';
const v2AnswerShapes = existsSync(V2_ANSWER_SHAPES) ? readFileSync(V2_ANSWER_SHAPES, 'utf8') : '';
const options = { ...JSON.parse(readFileSync('.prettierrc.json', 'utf8')) };
const newActionYml = await format(renderActionYml(actionYml), { ...options, parser: 'yaml' });
const newReference = await format(renderReference(reference, newActionYml), {
  ...options,
  parser: 'markdown',
});
const newAnswerShapes = await format(renderAnswerShapes(), { ...options, parser: 'typescript' });
const newRoutes = await format(renderRoutes(), { ...options, parser: 'typescript' });
const newV2AnswerShapes = await format(renderV2AnswerShapes(), { ...options, parser: 'typescript' });
const areaPages = await Promise.all(
  AREA_PAGE_PATHS.map(async (path) => {
    const page = readFileSync(path, 'utf8');
    const made = await format(renderAreaPage(path, page), { ...options, parser: 'markdown' });
    return { path, stale: made !== page, made };
  }),
);
if (process.argv.includes('--check')) {
  const stale = [
    newActionYml !== actionYml && 'action.yml',
    newReference !== reference && REFERENCE,
    newAnswerShapes !== answerShapes && ANSWER_SHAPES,
    newRoutes !== routes && ROUTES,
    newV2AnswerShapes !== v2AnswerShapes && V2_ANSWER_SHAPES,
    ...areaPages.filter((page) => page.stale).map((page) => page.path),
  ].filter(Boolean);
  if (stale.length) {
    console.error(`${stale.join(' and ')} out of date: run \`npm run metadata\`.`);
    process.exit(1);
  }
} else {
  writeFileSync('action.yml', newActionYml);
  writeFileSync(REFERENCE, newReference);
  writeFileSync(ANSWER_SHAPES, newAnswerShapes);
  writeFileSync(ROUTES, newRoutes);
  writeFileSync(V2_ANSWER_SHAPES, newV2AnswerShapes);
  for (const page of areaPages) writeFileSync(page.path, page.made);
}
