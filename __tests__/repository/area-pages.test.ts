// Each area's page in docs/ lists every operation of its area, one row each in the registry's order, as
// `npm run metadata` writes it: a new operation is on its page without a hand edit, and a page that
// misses one fails here naming it.
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { format } from 'prettier';
import { OPERATIONS, OPERATION_NAMES } from '../../src/core/operations/registry.js';
import { AREA_PAGES, AREA_PAGE_PATHS, renderAreaPage } from '../../scripts/area-pages.js';

const prettier = { ...JSON.parse(readFileSync('.prettierrc.json', 'utf8')), parser: 'markdown' };

describe("the area pages' operations", () => {
  it.each(AREA_PAGE_PATHS)('%s lists each operation of its areas', (path) => {
    const page = readFileSync(path, 'utf8');
    const listed = [...page.matchAll(/^\| `([a-z0-9-]+)` +\|/gm)].map((match) => match[1]);
    const wanted = OPERATION_NAMES.filter((name) => AREA_PAGES[OPERATIONS[name].area] === path);
    expect(wanted.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it.each(AREA_PAGE_PATHS)('%s is as `npm run metadata` writes it', async (path) => {
    const page = readFileSync(path, 'utf8');
    expect(await format(renderAreaPage(path, page), prettier)).toBe(page);
  });
});
